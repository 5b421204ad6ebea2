package uci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/internal/session"
)

// optionName is the name an option of the session has in dialect d, as
// Fairy-Stockfish spells it: USI prefixes Hash, Ponder and MultiPV with
// USI_ and writes UCI_ as USI_, UCCI calls Hash hashsize, and both join
// a name's words with underscores (their options have no spaces).
func optionName(d Dialect, name string) string {
	switch d {
	case UCI:
		return name
	case USI:
		switch {
		case name == "Hash" || name == "Ponder" || name == "MultiPV":
			name = "USI_" + name
		case strings.HasPrefix(name, "UCI_"):
			name = "USI_" + strings.TrimPrefix(name, "UCI_")
		}
	case UCCI:
		if name == "Hash" {
			name = "hashsize"
		}
	}
	return strings.ReplaceAll(name, " ", "_")
}

// optionLine declares one option of the session's table in the
// handshake's answer.
func optionLine(d Dialect, o session.Option) string {
	head := "option name " + optionName(d, o.Name)
	if d == UCCI {
		head = "option " + optionName(d, o.Name) // UCCI has no "name"
	}
	switch o.Kind {
	case session.Spin:
		return fmt.Sprintf("%s type spin default %s min %d max %d", head, o.Default, o.Min, o.Max)
	case session.Check:
		return fmt.Sprintf("%s type check default %s", head, o.Default)
	case session.Combo:
		return fmt.Sprintf("%s type combo default %s var %s", head, o.Default, strings.Join(o.Choices, " var "))
	case session.Button:
		return fmt.Sprintf("%s type button", head)
	}
	def := o.Default
	if def == "" {
		def = "<empty>"
	}
	return fmt.Sprintf("%s type string default %s", head, def)
}

// protocolChoices are the Protocol option's values: the dialects, and
// xboard, which is refused with the way to it (CECP is another server:
// start the engine with xboard as its first command).
var protocolChoices = []string{"uci", "usi", "ucci", "xboard"}

// protocolLine declares the Protocol option, the server's own (the
// session knows nothing of dialects), first as Fairy-Stockfish does.
func protocolLine(d Dialect) string {
	return optionLine(d, session.Option{Name: "Protocol", Kind: session.Combo, Default: d.String(), Choices: protocolChoices})
}

// setOption handles "setoption name NAME [value VALUE]" (names may hold
// spaces and are matched without regard to case, in the dialect's
// spelling or UCI's) and UCCI's "setoption NAME [VALUE]".
func (s *Server) setOption(args []string) {
	d := s.speaks()
	var name, value string
	switch {
	case len(args) >= 2 && args[0] == "name":
		nameEnd := len(args)
		for i, a := range args {
			if a == "value" {
				nameEnd = i
				break
			}
		}
		name = strings.Join(args[1:nameEnd], " ")
		if nameEnd < len(args) {
			value = strings.Join(args[nameEnd+1:], " ")
		}
	case d == UCCI && len(args) >= 1:
		name, value = args[0], strings.Join(args[1:], " ")
	default:
		if d == UCCI {
			s.errorf("setoption: want setoption NAME [VALUE]")
		} else {
			s.errorf("setoption: want setoption name NAME [value VALUE]")
		}
		return
	}
	if strings.EqualFold(name, "Protocol") {
		s.setProtocol(value)
		return
	}
	if d == UCCI && strings.EqualFold(name, "usemillisec") {
		on, err := strconv.ParseBool(value)
		if err != nil {
			s.errorf("option usemillisec: want true or false, not %q", value)
			return
		}
		s.seconds = !on
		return
	}
	if strings.EqualFold(name, "UCI_Variant") || strings.EqualFold(name, "USI_Variant") {
		s.banned = nil // bans name moves of the game before
	}
	for _, o := range s.sess.Options() {
		if strings.EqualFold(name, optionName(d, o.Name)) || strings.EqualFold(strings.ReplaceAll(name, "_", " "), o.Name) {
			name = o.Name
			break
		}
	}
	if err := s.sess.SetOption(name, value); err != nil {
		s.errorf("%v", err)
	}
}

// setProtocol handles the Protocol option: the dialect changes at once
// (no handshake is sent).
func (s *Server) setProtocol(value string) {
	if strings.EqualFold(value, "xboard") {
		s.errorf("option Protocol: xboard is CECP, another conversation: start Chimera with xboard as its first command (or run chimera xboard)")
		return
	}
	d, err := ParseDialect(strings.ToLower(value))
	if err != nil {
		s.errorf("option %v", err)
		return
	}
	s.setDialect(d)
}
