// Package uci makes Chimera a UCI engine: it parses UCI commands into calls
// on a session (the engine service shared with other protocols) and prints
// the session's reports as UCI answers. It holds no chess logic and no
// search lifecycle of its own.
package uci

import (
	"fmt"
	"io"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/search"
)

// Config sets up a server: its names, and the session it drives (the
// variants, the searcher, the table directory and builder; see
// session.Config). The session's callbacks are the server's own: any set
// here are replaced.
type Config struct {
	Name, Author string
	session.Config
}

// Server is one UCI session.
type Server struct {
	cfg  Config
	out  *session.LineWriter
	sess *session.Session
}

// NewServer returns a server writing to out.
func NewServer(out io.Writer, cfg Config) *Server {
	if cfg.Name == "" {
		cfg.Name = "Chimera"
	}
	if cfg.Author == "" {
		cfg.Author = "the Chimera developers"
	}
	s := &Server{cfg: cfg, out: session.NewLineWriter(out)}
	sc := cfg.Config
	sc.OnInfo, sc.OnResult, sc.OnPerft = s.sendInfo, s.sendBestMove, s.sendPerft
	sc.Output = s.out
	sc.OnMessage = func(msg string) { s.out.Printf("info string %s", msg) }
	s.sess = session.New(sc)
	return s
}

// Run reads commands from in until quit or the end of input (which counts
// as quit) and returns then. A search still running is stopped and
// answered.
func (s *Server) Run(in io.Reader) error {
	return s.sess.Serve(in, s.handle, func(err error) { s.errorf("%v", err) }, urgent)
}

// errorf reports bad input; the session keeps its last good state.
// urgent tells the commands a GUI expects to act at once, whatever is
// queued before them: stop and quit.
func urgent(line string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return first == "stop" || first == "quit"
}

func (s *Server) errorf(format string, args ...any) {
	s.out.Printf("info string error: "+format, args...)
}

// handle runs one command line; it returns false on quit.
func (s *Server) handle(line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return true
	}
	args := fields[1:]
	switch fields[0] {
	case "uci":
		s.uci()
	case "isready":
		s.sess.Ready()
		s.out.Printf("readyok")
	case "ucinewgame":
		if err := s.sess.NewGame(); err != nil {
			s.errorf("%v", err)
		}
	case "position":
		s.position(args)
	case "go":
		s.goCommand(args)
	case "stop":
		s.sess.Stop()
	case "ponderhit":
		s.sess.PonderHit()
	case "setoption":
		s.setOption(args)
	case "quit":
		return false
	case "d":
		s.display()
	case "debug", "register":
		// Accepted and ignored, as the protocol allows.
	default:
		s.errorf("unknown command %q", fields[0])
	}
	return true
}

// uci answers the handshake.
func (s *Server) uci() {
	s.out.Printf("id name %s", s.cfg.Name)
	s.out.Printf("id author %s", s.cfg.Author)
	for _, o := range s.sess.Options() {
		s.out.Printf("%s", optionLine(o))
	}
	s.out.Printf("uciok")
}

// display prints the position for people (the "d" command).
func (s *Server) display() {
	v, pos := s.sess.Variant(), s.sess.Position()
	if pos == nil {
		pos = v.StartPosition()
	}
	for _, l := range strings.Split(strings.TrimRight(pos.Board(), "\n"), "\n") {
		s.out.Printf("%s", l)
	}
	s.out.Printf("Variant: %s", v.Name)
	s.out.Printf("Fen: %s", pos.FEN())
	s.out.Printf("Key: %016X", pos.Key())
	var checkers []string
	for _, sq := range pos.Checkers() {
		checkers = append(checkers, sq.String())
	}
	s.out.Printf("Checkers: %s", strings.Join(checkers, " "))
}

// position sets up "startpos" or "fen ..." and plays "moves ...". Nothing
// changes unless the whole command is valid.
func (s *Server) position(args []string) {
	if len(args) == 0 {
		s.errorf("position needs startpos or fen")
		return
	}
	v := s.sess.Variant()
	var pos *engine.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		pos = v.StartPosition()
	case "fen":
		n := 0
		for n < len(rest) && rest[n] != "moves" {
			n++
		}
		if n == 0 {
			s.errorf("position fen needs a FEN")
			return
		}
		var err error
		if pos, err = v.ParseFEN(strings.Join(rest[:n], " ")); err != nil {
			s.errorf("%v", err)
			return
		}
		rest = rest[n:]
	default:
		s.errorf("position: want startpos or fen, got %q", args[0])
		return
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			s.errorf("position: unexpected %q (want moves)", rest[0])
			return
		}
		for i, text := range rest[1:] {
			m, err := pos.ParseUCI(text)
			if err != nil {
				s.errorf("position: move %d (%s): %v", i+1, text, err)
				return
			}
			pos.Make(m)
		}
	}
	s.sess.SetPosition(pos)
}

// sendBestMove prints the answer to a go (called once per go). With no
// legal move it first says why, as a score.
func (s *Server) sendBestMove(r search.Result) {
	v := s.sess.Variant()
	if r.Best == engine.NoMove {
		s.out.Printf("info depth 0 score %s", r.Score)
	}
	best := v.UCI(r.Best)
	if r.Ponder != engine.NoMove {
		s.out.Printf("bestmove %s ponder %s", best, v.UCI(r.Ponder))
		return
	}
	s.out.Printf("bestmove %s", best)
}

// sendInfo prints one iteration's report (called from the search).
func (s *Server) sendInfo(info search.Info) {
	v := s.sess.Variant()
	if info.CurrMove != engine.NoMove {
		s.out.Printf("info depth %d currmove %s currmovenumber %d", info.Depth, v.UCI(info.CurrMove), info.CurrMoveNumber)
		return
	}
	var pv strings.Builder
	for _, m := range info.PV {
		pv.WriteString(" ")
		pv.WriteString(v.UCI(m))
	}
	multipv := max(info.MultiPV, 1)
	bound := ""
	switch {
	case info.LowerBound:
		bound = " lowerbound"
	case info.UpperBound:
		bound = " upperbound"
	}
	wdl := ""
	if w := info.WDL; w[0]+w[1]+w[2] == 1000 {
		wdl = fmt.Sprintf(" wdl %d %d %d", w[0], w[1], w[2]) // UCI_ShowWDL, after the score as Stockfish writes it
	}
	s.out.Printf("info depth %d seldepth %d multipv %d score %s%s%s nodes %d nps %d hashfull %d tbhits %d time %d pv%s",
		info.Depth, info.SelDepth, multipv, info.Score, wdl, bound, info.Nodes, info.NPS, info.HashFull, info.TBHits,
		info.Time.Milliseconds(), pv.String())
}

// sendPerft prints go perft's counts, Stockfish's way.
func (s *Server) sendPerft(entries []engine.DivideEntry) {
	v := s.sess.Variant()
	var total uint64
	for _, e := range entries {
		s.out.Printf("%s: %d", v.UCI(e.Move), e.Nodes)
		total += e.Nodes
	}
	s.out.Printf("")
	s.out.Printf("Nodes searched: %d", total)
}
