// Package uci makes Chimera a UCI engine: it reads commands, keeps the
// session (variant, position, options), runs one search at a time in its
// own goroutine and prints the answers. It holds no chess logic: moves and
// positions go through the rules core, searching through the Engine
// interface.
package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// Engine is what the server needs from a searcher (search.Searcher).
type Engine interface {
	Search(ctx context.Context, pos *engine.Position, limits search.Limits, onInfo func(search.Info)) search.Result
	Clear()
	SetHash(mb int)
	SetMoveOverhead(d time.Duration)
	SetProber(p search.Prober)
}

// Config sets up a server.
type Config struct {
	Name, Author string
	// Catalogue holds the variants UCI_Variant offers (default: the
	// built-ins).
	Catalogue *variants.Catalogue
	// Engine searches (default: a new search.Searcher).
	Engine Engine
	// TablebaseDir is where endgame tables are kept and generated (default:
	// tablebase.DefaultDir()); the TablebaseDir option changes it.
	TablebaseDir string
}

// Server is one UCI session.
type Server struct {
	cfg Config
	out *lineWriter
	cat *variants.Catalogue
	eng Engine

	// Session state, owned by the command loop.
	variant *engine.Variant
	pos     *engine.Position // nil until the first position command
	opts    options

	// The running search, if any.
	searching   bool
	cancel      context.CancelFunc
	done        chan searchDone
	holdResult  bool // infinite or ponder: print bestmove only after stop/ponderhit
	stopSent    bool
	pending     *search.Result
	pondering   bool
	ponderClock search.Limits
	ponderSide  engine.Colour
	timer       *time.Timer
}

// searchDone is what the search goroutine sends back.
type searchDone struct {
	result search.Result
	perft  bool
}

// NewServer returns a server writing to out.
func NewServer(out io.Writer, cfg Config) *Server {
	if cfg.Catalogue == nil {
		cfg.Catalogue = variants.Builtin()
	}
	if cfg.Engine == nil {
		cfg.Engine = search.New(search.Options{})
	}
	if cfg.Name == "" {
		cfg.Name = "Chimera"
	}
	s := &Server{cfg: cfg, out: &lineWriter{w: out}, cat: cfg.Catalogue, eng: cfg.Engine,
		done: make(chan searchDone, 1), opts: defaultOptions()}
	s.variant, _ = s.cat.Lookup("chess")
	s.setTablebases(cfg.TablebaseDir, true)
	return s
}

// setTablebases points the search at the tables of dir, or at none.
func (s *Server) setTablebases(dir string, use bool) {
	if dir == "" {
		dir = tablebase.DefaultDir()
	}
	s.opts.tablebaseDir, s.opts.useTablebase = dir, use
	if !use {
		s.eng.SetProber(nil)
		return
	}
	store := tablebase.NewStore(dir)
	store.Log = func(msg string) { s.out.printf("info string %s", msg) }
	prober := store.Prober()
	prober.BuildPieces = s.opts.tablebaseBuild
	s.eng.SetProber(prober)
}

// lineWriter writes whole lines under a lock, so the search goroutine's
// info lines and the command loop's answers never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	fmt.Fprintf(lw.w, format+"\n", args...)
}

// Run reads commands from in until quit or the end of input (which counts
// as quit) and returns then. A search still running is stopped.
func (s *Server) Run(in io.Reader) error {
	lines := make(chan string)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-quit:
				return
			}
		}
	}()
	for {
		select {
		case line, ok := <-lines:
			if !ok || !s.handle(line) {
				s.shutdown()
				return nil
			}
		case d := <-s.done:
			s.finished(d)
		}
	}
}

// shutdown stops a running search, waits for it and answers its go, so
// that no go goes unanswered even on quit.
func (s *Server) shutdown() {
	if s.searching {
		s.cancel()
		s.stopSent = true
		s.finished(<-s.done)
	} else if s.pending != nil {
		s.sendBestMove(*s.pending)
	}
	if s.timer != nil {
		s.timer.Stop()
	}
}

// errorf reports bad input; the session keeps its last good state.
func (s *Server) errorf(format string, args ...any) {
	s.out.printf("info string error: "+format, args...)
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
		s.out.printf("readyok")
	case "ucinewgame":
		if s.searching {
			s.errorf("ucinewgame while searching; send stop first")
			return true
		}
		s.eng.Clear()
	case "position":
		s.position(args)
	case "go":
		s.goCommand(args)
	case "stop":
		s.stop()
	case "ponderhit":
		s.ponderHit()
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
	author := s.cfg.Author
	if author == "" {
		author = "the Chimera developers"
	}
	s.out.printf("id name %s", s.cfg.Name)
	s.out.printf("id author %s", author)
	for _, line := range s.optionLines() {
		s.out.printf("%s", line)
	}
	s.out.printf("uciok")
}

// display prints the position for people (the "d" command).
func (s *Server) display() {
	pos := s.pos
	if pos == nil {
		pos = s.variant.StartPosition()
	}
	for _, l := range strings.Split(strings.TrimRight(pos.Board(), "\n"), "\n") {
		s.out.printf("%s", l)
	}
	s.out.printf("Variant: %s", s.variant.Name)
	s.out.printf("Fen: %s", pos.FEN())
	s.out.printf("Key: %016X", pos.Key())
}

// position sets up "startpos" or "fen ..." and plays "moves ...". Nothing
// changes unless the whole command is valid.
func (s *Server) position(args []string) {
	if len(args) == 0 {
		s.errorf("position needs startpos or fen")
		return
	}
	var pos *engine.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		pos = s.variant.StartPosition()
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
		if pos, err = s.variant.ParseFEN(strings.Join(rest[:n], " ")); err != nil {
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
	s.pos = pos
}

// stop ends a search; the bestmove follows when it has returned.
func (s *Server) stop() {
	s.stopSent = true
	s.pondering = false
	switch {
	case s.searching:
		s.cancel()
	case s.pending != nil:
		s.sendBestMove(*s.pending)
	}
}

// ponderHit turns a ponder search into a real one on the clock the go
// command gave.
func (s *Server) ponderHit() {
	if !s.pondering {
		return
	}
	s.pondering = false
	s.holdResult = false
	if s.pending != nil {
		s.sendBestMove(*s.pending)
		return
	}
	soft, _ := s.ponderClock.TimeBudget(s.ponderSide, s.opts.moveOverhead())
	if soft > 0 {
		cancel := s.cancel
		s.timer = time.AfterFunc(soft, cancel)
	}
}

// finished handles the end of a search or perft.
func (s *Server) finished(d searchDone) {
	s.searching = false
	s.cancel()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if d.perft {
		return
	}
	if s.holdResult && !s.stopSent {
		r := d.result
		s.pending = &r
		return
	}
	s.sendBestMove(d.result)
}

// sendBestMove prints the answer to a go, exactly once.
func (s *Server) sendBestMove(r search.Result) {
	s.pending = nil
	s.holdResult = false
	best := s.variant.UCI(r.Best)
	if r.Ponder != engine.NoMove {
		s.out.printf("bestmove %s ponder %s", best, s.variant.UCI(r.Ponder))
		return
	}
	s.out.printf("bestmove %s", best)
}

// sendInfo prints one iteration's report (called from the search).
func (s *Server) sendInfo(info search.Info) {
	var pv strings.Builder
	for _, m := range info.PV {
		pv.WriteString(" ")
		pv.WriteString(s.variant.UCI(m))
	}
	multipv := max(info.MultiPV, 1)
	s.out.printf("info depth %d seldepth %d multipv %d score %s nodes %d nps %d hashfull %d tbhits %d time %d pv%s",
		info.Depth, info.SelDepth, multipv, info.Score, info.Nodes, info.NPS, info.HashFull, info.TBHits,
		info.Time.Milliseconds(), pv.String())
}
