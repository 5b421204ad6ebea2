// Package uci makes Chimera a UCI engine: it parses UCI commands into calls
// on a session (the engine service shared with other protocols) and prints
// the session's reports as UCI answers. It holds no chess logic and no
// search lifecycle of its own.
package uci

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"

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
	// Dialect is the protocol spoken before any handshake (default UCI);
	// a usi, ucci or uci command, or the Protocol option, changes it.
	Dialect Dialect
	session.Config
}

// Server is one UCI session.
type Server struct {
	cfg  Config
	out  *session.LineWriter
	sess *session.Session
	// dialect is the Dialect spoken: set by the handler, read by the
	// search's reports too.
	dialect atomic.Uint32
	// banned are the moves UCCI's banmoves excluded from the next
	// searches of the position (until the next position command).
	banned []engine.Move
	// seconds: UCCI's usemillisec is off, go's times are in seconds.
	seconds bool
	// checkmate: the search running is USI's go mate, answered with
	// "checkmate ..."; mateLine is its last reported line (set by the
	// search's reports, read by the answer, which follows them).
	checkmate atomic.Bool
	mateLine  []engine.Move
}

// speaks returns the dialect the server speaks.
func (s *Server) speaks() Dialect { return Dialect(s.dialect.Load()) }

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
	s.setDialect(cfg.Dialect)
	return s
}

// Run reads commands from in until quit or the end of input (which counts
// as quit) and returns then. A search still running is stopped and
// answered.
func (s *Server) Run(in io.Reader) error {
	err := s.sess.Serve(in, s.handle, func(err error) { s.errorf("%v", err) }, urgent)
	if s.speaks() == UCCI {
		s.out.Printf("bye") // UCCI's last word, after the answer of a search quit stopped
	}
	return err
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
	case "uci", "usi", "ucci":
		d, _ := ParseDialect(fields[0])
		s.handshake(d)
	case "isready":
		s.sess.Ready()
		s.out.Printf("readyok")
	case "ucinewgame", "usinewgame", "uccinewgame":
		s.banned = nil
		if err := s.sess.NewGame(); err != nil {
			s.errorf("%v", err)
		}
	case "gameover":
		// USI's end of a game (win, lose or draw): nothing to keep.
	case "banmoves":
		s.banMoves(args)
	case "probe":
		s.probe(args)
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

// handshake answers uci, usi or ucci, and speaks that dialect from now
// on. A session still on UCI's default variant switches to the
// dialect's (shogi for USI, xiangqi for UCCI), as Fairy-Stockfish does.
func (s *Server) handshake(d Dialect) {
	s.setDialect(d)
	s.out.Printf("id name %s", s.cfg.Name)
	s.out.Printf("id author %s", s.cfg.Author)
	s.out.Printf("%s", protocolLine(d))
	for _, o := range s.sess.Options() {
		if o.Name == "UCI_Variant" {
			o.Default = s.sess.Variant().Name // the dialect's, as Fairy-Stockfish shows it
		}
		s.out.Printf("%s", optionLine(d, o))
	}
	if d == UCCI {
		s.out.Printf("option usemillisec type check default %t", !s.seconds)
	}
	s.out.Printf("%sok", d)
}

// setDialect speaks d from now on, with its default variant if the
// session plays another dialect's default (or UCI's, as a session
// started in a dialect does).
func (s *Server) setDialect(d Dialect) {
	before := s.speaks()
	if d != before {
		s.sess.Finish() // a search under way is answered in its own dialect
		s.banned = nil
	}
	s.dialect.Store(uint32(d))
	v := s.sess.Variant()
	if v != nil && v.Name != d.defaultVariant() && (v.Name == before.defaultVariant() || v.Name == UCI.defaultVariant()) {
		if err := s.sess.SetOption("UCI_Variant", d.defaultVariant()); err != nil {
			s.errorf("%v", err)
		}
	}
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
	s.out.Printf("Sfen: %s", sfenOf(pos))
	s.out.Printf("Key: %016X", pos.Key())
	var checkers []string
	for _, sq := range pos.Checkers() {
		checkers = append(checkers, sq.String())
	}
	s.out.Printf("Checkers: %s", strings.Join(checkers, " "))
}

// probe answers UCCI's "probe [startpos|fen FEN] [moves ...]" (the
// current position without arguments) with "pophash": what the engine
// knows of the position without searching it, here a table's best move
// and exact value (both bounds, at depth 255: no search is deeper), and
// a bare pophash when no table covers it.
func (s *Server) probe(args []string) {
	pos := s.sess.Position()
	if pos == nil {
		pos = s.sess.Variant().StartPosition()
	}
	if len(args) > 0 {
		var err error
		if pos, err = s.parsePosition(args); err != nil {
			s.errorf("probe: %v", err)
			return
		}
	}
	result, dtm, best, ok := s.sess.ProbeTable(pos)
	if !ok || best == engine.NoMove {
		s.out.Printf("pophash")
		return
	}
	score := search.Score(0)
	switch {
	case result > 0:
		score = search.MateIn(dtm)
	case result < 0:
		score = search.MatedIn(-dtm)
	}
	// UCCI's values are numbers: a mate is the search's own mate score
	// (32000 less the plies to it).
	v := s.sess.Variant()
	s.out.Printf("pophash bestmove %s lowerbound %d depth 255 upperbound %d depth 255", s.speaks().moveText(v, best), score, score)
}

// position sets up "startpos" or "fen ..." and plays "moves ...". Nothing
// changes unless the whole command is valid.
func (s *Server) position(args []string) {
	pos, err := s.parsePosition(args)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	s.sess.SetPosition(pos)
	s.banned = nil // UCCI's banmoves hold for one position
}

// parsePosition reads a position command's arguments: startpos, fen FEN
// or sfen SFEN, then moves.
func (s *Server) parsePosition(args []string) (*engine.Position, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("position needs startpos or fen")
	}
	v := s.sess.Variant()
	var pos *engine.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		pos = v.StartPosition()
	case "fen", "sfen":
		n := 0
		for n < len(rest) && rest[n] != "moves" {
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("position %s needs a %s", args[0], strings.ToUpper(args[0]))
		}
		var err error
		if args[0] == "sfen" {
			pos, err = parseSFEN(v, strings.Join(rest[:n], " "))
		} else {
			pos, err = v.ParseFEN(strings.Join(rest[:n], " "))
		}
		if err != nil {
			return nil, err
		}
		rest = rest[n:]
	default:
		return nil, fmt.Errorf("position: want startpos, fen or sfen, got %q", args[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return nil, fmt.Errorf("position: unexpected %q (want moves)", rest[0])
		}
		for i, text := range rest[1:] {
			m, err := s.speaks().parseMove(pos, text)
			if err != nil {
				return nil, fmt.Errorf("position: move %d (%s): %w", i+1, text, err)
			}
			pos.Make(m)
		}
	}
	return pos, nil
}

// sendBestMove prints the answer to a go (called once per go). With no
// legal move it first says why, as a score.
func (s *Server) sendBestMove(r search.Result) {
	v, d := s.sess.Variant(), s.speaks()
	if s.checkmate.Swap(false) {
		s.sendCheckmate(r)
		return
	}
	if r.Best == engine.NoMove {
		s.out.Printf("info depth 0 score %s", s.scoreText(r.Score))
		if d == UCCI {
			s.out.Printf("nobestmove")
			return
		}
	}
	best := d.moveText(v, r.Best)
	if r.Ponder != engine.NoMove {
		s.out.Printf("bestmove %s ponder %s", best, d.moveText(v, r.Ponder))
		return
	}
	s.out.Printf("bestmove %s", best)
}

// scoreText writes a score as the dialect does: USI counts a mate in
// plies, UCI and UCCI in moves; UCCI writes centipawns without "cp".
func (s *Server) scoreText(sc search.Score) string {
	if s.speaks() == UCCI && !sc.IsMate() {
		return strconv.Itoa(int(sc)) // UCCI's scores are bare numbers, as current Fairy-Stockfish writes them
	}
	if s.speaks() == USI && sc.IsMate() {
		if sc > 0 {
			return fmt.Sprintf("mate %d", int(search.MateScore-sc))
		}
		return fmt.Sprintf("mate -%d", int(search.MateScore+sc))
	}
	return sc.String()
}

// sendInfo prints one iteration's report (called from the search).
func (s *Server) sendInfo(info search.Info) {
	v, d := s.sess.Variant(), s.speaks()
	if info.CurrMove != engine.NoMove {
		s.out.Printf("info depth %d currmove %s currmovenumber %d", info.Depth, d.moveText(v, info.CurrMove), info.CurrMoveNumber)
		return
	}
	if s.checkmate.Load() && info.MultiPV <= 1 {
		s.mateLine = info.PV
	}
	var pv strings.Builder
	for _, m := range info.PV {
		pv.WriteString(" ")
		pv.WriteString(d.moveText(v, m))
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
		info.Depth, info.SelDepth, multipv, s.scoreText(info.Score), wdl, bound, info.Nodes, info.NPS, info.HashFull, info.TBHits,
		info.Time.Milliseconds(), pv.String())
}

// sendPerft prints go perft's counts, Stockfish's way.
func (s *Server) sendPerft(entries []engine.DivideEntry) {
	v := s.sess.Variant()
	var total uint64
	for _, e := range entries {
		s.out.Printf("%s: %d", s.speaks().moveText(v, e.Move), e.Nodes)
		total += e.Nodes
	}
	s.out.Printf("")
	s.out.Printf("Nodes searched: %d", total)
}

// sendCheckmate answers USI's go mate: the mating line when the search
// found a mate for the side to move, nomate when the side to move has no
// move at all, and timeout when the time ran out (or stop came) first: a
// search that finds none has not proved that there is none.
func (s *Server) sendCheckmate(r search.Result) {
	v, line := s.sess.Variant(), s.mateLine
	s.mateLine = nil
	switch {
	case r.Best == engine.NoMove:
		s.out.Printf("checkmate nomate")
	case r.Score.IsMate() && r.Score > 0 && len(line) > 0 && line[0] == r.Best:
		moves := make([]string, len(line))
		for i, m := range line {
			moves[i] = USI.moveText(v, m)
		}
		s.out.Printf("checkmate %s", strings.Join(moves, " "))
	default:
		s.out.Printf("checkmate timeout")
	}
}
