package uci

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/tablebase"
)

// options are the session's UCI options.
type options struct {
	hash, threads, multiPV, overheadMS int
	ponder                             bool
	variantPath                        string
	useTablebase                       bool
	tablebaseDir                       string
	tablebaseBuild                     int
}

func defaultOptions() options {
	return options{hash: 16, threads: 1, multiPV: 1, overheadMS: 30, tablebaseBuild: 3}
}

func (o options) moveOverhead() time.Duration { return time.Duration(o.overheadMS) * time.Millisecond }

// spin is a numeric option's range.
type spin struct{ def, min, max int }

var spins = map[string]spin{
	"Hash":          {16, 1, 65536},
	"Threads":       {1, 1, 256},
	"MultiPV":       {1, 1, 256},
	"Move Overhead": {30, 0, 5000},
	// TablebaseBuild: the most pieces of a table the engine builds by
	// itself, in the background, when a position needs it.
	"TablebaseBuild": {3, 0, tablebase.MaxPieces},
}

// optionLines are the option declarations of the uci answer.
func (s *Server) optionLines() []string {
	var lines []string
	for _, name := range []string{"Hash", "Threads", "MultiPV"} {
		sp := spins[name]
		lines = append(lines, fmt.Sprintf("option name %s type spin default %d min %d max %d", name, sp.def, sp.min, sp.max))
	}
	lines = append(lines, "option name Clear Hash type button", "option name Ponder type check default false")
	sp := spins["Move Overhead"]
	lines = append(lines, fmt.Sprintf("option name Move Overhead type spin default %d min %d max %d", sp.def, sp.min, sp.max))
	combo := "option name UCI_Variant type combo default chess"
	for _, name := range s.cat.Names() {
		combo += " var " + name
	}
	lines = append(lines, combo, "option name VariantPath type string default <empty>",
		"option name UseTablebase type check default true",
		"option name TablebaseDir type string default "+s.opts.tablebaseDir,
		fmt.Sprintf("option name TablebaseBuild type spin default %d min %d max %d",
			spins["TablebaseBuild"].def, spins["TablebaseBuild"].min, spins["TablebaseBuild"].max))
	return lines
}

// setOption handles "setoption name NAME [value VALUE]"; names may hold
// spaces and are matched without regard to case.
func (s *Server) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		s.errorf("setoption: want setoption name NAME [value VALUE]")
		return
	}
	nameEnd := len(args)
	for i, a := range args {
		if a == "value" {
			nameEnd = i
			break
		}
	}
	name := strings.Join(args[1:nameEnd], " ")
	value := ""
	if nameEnd < len(args) {
		value = strings.Join(args[nameEnd+1:], " ")
	}
	if s.searching {
		s.errorf("setoption %s while searching; send stop first", name)
		return
	}
	for canonical, sp := range spins {
		if strings.EqualFold(name, canonical) {
			n, err := strconv.Atoi(value)
			if err != nil || n < sp.min || n > sp.max {
				s.errorf("option %s: %q is not a number from %d to %d", canonical, value, sp.min, sp.max)
				return
			}
			s.setSpin(canonical, n)
			return
		}
	}
	switch {
	case strings.EqualFold(name, "Clear Hash"):
		s.eng.Clear()
	case strings.EqualFold(name, "Ponder"):
		switch strings.ToLower(value) {
		case "true":
			s.opts.ponder = true
		case "false":
			s.opts.ponder = false
		default:
			s.errorf("option Ponder: %q is not true or false", value)
		}
	case strings.EqualFold(name, "UCI_Variant"):
		v, err := s.cat.Lookup(value)
		if err != nil {
			s.errorf("option UCI_Variant: %v", err)
			return
		}
		if v != s.variant {
			s.variant, s.pos = v, nil
			s.eng.Clear()
		}
	case strings.EqualFold(name, "UseTablebase"):
		switch strings.ToLower(value) {
		case "true":
			s.setTablebases(s.opts.tablebaseDir, true)
		case "false":
			s.setTablebases(s.opts.tablebaseDir, false)
		default:
			s.errorf("option UseTablebase: %q is not true or false", value)
		}
	case strings.EqualFold(name, "TablebaseDir"):
		if value == "" || value == "<empty>" {
			value = tablebase.DefaultDir()
		}
		s.setTablebases(value, s.opts.useTablebase)
	case strings.EqualFold(name, "VariantPath"):
		if value == "" || value == "<empty>" {
			return
		}
		before := len(s.cat.Names())
		if err := s.cat.LoadFile(value); err != nil {
			s.errorf("option VariantPath: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
			return
		}
		s.opts.variantPath = value
		s.out.printf("info string loaded %d variant(s) from %s", len(s.cat.Names())-before, value)
	default:
		s.errorf("unknown option %q", name)
	}
}

func (s *Server) setSpin(name string, n int) {
	switch name {
	case "Hash":
		s.opts.hash = n
		s.eng.SetHash(n)
	case "Threads":
		s.opts.threads = n
		if n > 1 {
			s.out.printf("info string Threads %d accepted; the search uses one thread", n)
		}
	case "MultiPV":
		s.opts.multiPV = n
	case "Move Overhead":
		s.opts.overheadMS = n
		s.eng.SetMoveOverhead(s.opts.moveOverhead())
	case "TablebaseBuild":
		s.opts.tablebaseBuild = n
		s.setTablebases(s.opts.tablebaseDir, s.opts.useTablebase)
	}
}
