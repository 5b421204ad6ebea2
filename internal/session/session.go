// Package session is the engine behind the protocols: one session's
// variant, position and options, and at most one running search. A
// protocol (UCI today, XBoard next) parses its text into calls on a
// Session and prints what the Session reports through its callbacks; the
// rules of the search lifecycle and the option table live here once.
//
// A Session is not safe for concurrent use: every call comes from the
// goroutine running Serve (the protocol's handler), and searches report
// back on it, so the session's state has a single owner.
package session

import (
	"context"
	"io"
	"math/rand/v2"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/tbbuild"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
)

// Searcher is what a session needs from a searcher (search.Searcher).
type Searcher interface {
	Search(ctx context.Context, pos *engine.Position, limits search.Limits, onInfo func(search.Info)) search.Result
	Clear()
	SetHash(mb int)
	SetMoveOverhead(d time.Duration)
	SetProber(p search.Prober)
	SetResultProber(p search.ResultProber)
	SetEvaluation(f func(*engine.Variant) eval.Evaluator)
	SetThreads(n int)
}

// Config sets up a session. The callbacks say what the session reports;
// a protocol turns each into its own text.
type Config struct {
	// Catalogue holds the variants the session offers (default: the
	// built-ins).
	Catalogue *variants.Catalogue
	// Searcher searches (default: a new search.Searcher).
	Searcher Searcher
	// TablebaseDir is where endgame tables are kept and generated (default:
	// tablebase.DefaultDir()); the TablebaseDir option changes it.
	TablebaseDir string
	// HashMB, when set, is the Hash option's default in MiB (otherwise
	// DefaultHashMB): a program that runs sessions with tables of its own
	// size (self-play: one per player and game) says so here, so that no
	// default table is allocated and touched only to be resized at once.
	HashMB int
	// Store, when set, is the table store for its directory, shared with
	// other sessions of this process, so that no table is built twice at
	// once (self-play).
	Store *tablebase.Store
	// BuildCommand, when set, builds tables in child processes (see
	// tbbuild.Builder.Command): for Chimera, its own binary's "tb
	// generate". VariantFiles are the user variant files those children
	// load; the files the VariantPath option loads are added.
	BuildCommand tbbuild.Command
	VariantFiles []string
	// Evaluator, when set, is how the search evaluates every variant,
	// whatever the Evaluation and EvalFile options say: a program's own
	// evaluation, given as a value (the tuner's games play its weights
	// so), not as an option's text.
	Evaluator func(*engine.Variant) eval.Evaluator

	// Output, when set, is the protocol's writer: the Debug Log File
	// option copies the lines it writes.
	Output *LineWriter

	// OnInfo receives every search iteration's report, from the search's
	// goroutine: it must be safe to call concurrently with the handler.
	OnInfo func(search.Info)
	// OnResult receives a search's answer, exactly once for every Go.
	OnResult func(search.Result)
	// OnPerft receives a perft's move-by-move counts.
	OnPerft func([]engine.DivideEntry)
	// OnMessage receives notes for people (a table being built, a variant
	// file loaded), possibly from another goroutine.
	OnMessage func(string)
}

// Session is one engine session.
type Session struct {
	cfg      Config
	cat      *variants.Catalogue
	searcher Searcher
	options  []optionDecl
	values   optionValues

	variant *engine.Variant
	pos     *engine.Position // nil until the first SetPosition

	run  *run          // the running search; nil when idle
	done chan finished // where the search goroutine reports its end

	// urgent carries the line numbers of the stops and quits Serve's
	// reader sees, so that even a command waiting for a search
	// (awaitIdle) acts on them; handling is the number of the line being
	// handled, and every search started by a line before stopLine is
	// stopped.
	urgent   chan uint64
	handling uint64
	stopLine uint64
	// closing: the session is shutting down and starts no search.
	closing bool

	// prober answers positions from the tables the search probes (nil
	// when UseTablebase is off): the exact chances UCI_ShowWDL reports.
	prober search.Prober
	// syzygyTables are SyzygyPath's tables (nil: none), and syzygy the
	// prober over them the search asks (nil when off).
	syzygyTables *syzygy.Tables
	syzygy       *syzygyProber
	// builder prepares tables in idle time; nil when nothing is built.
	builder *tbbuild.Builder
	// engaged: a game is under way (Ready, NewGame or SetPosition came).
	engaged bool
	// evalFiles are the weights files EvalFile loaded, by the name of the
	// variant they are for (bound to a variant value when it is played).
	evalFiles map[string][]byte
	// networks are the networks EvalFile loaded, by variant name.
	networks map[string]*nnue.Network
	// lag measures what a move costs beyond the engine's own time; it is
	// added to the Move Overhead option for the clock budget.
	lag lagMeter
	// debugLog is the Debug Log File option's copy of the conversation.
	debugLog debugLog
	// rng seeds each weakened search's choices (Skill Level, UCI_Elo):
	// a player's moves vary from game to game.
	rng *rand.Rand
}

// New returns a session with every option at its default.
func New(cfg Config) *Session {
	if cfg.Catalogue == nil {
		cfg.Catalogue = variants.Builtin()
	}
	if cfg.Searcher == nil {
		cfg.Searcher = search.New(search.Options{})
	}
	if cfg.OnMessage == nil {
		cfg.OnMessage = func(string) {}
	}
	if cfg.OnInfo == nil {
		cfg.OnInfo = func(search.Info) {}
	}
	if cfg.OnResult == nil {
		cfg.OnResult = func(search.Result) {}
	}
	if cfg.OnPerft == nil {
		cfg.OnPerft = func([]engine.DivideEntry) {}
	}
	s := &Session{cfg: cfg, cat: cfg.Catalogue, searcher: cfg.Searcher, options: optionTable(),
		done: make(chan finished, 1), rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x5e55))}
	s.debugLog.onFail = func(err error) { cfg.OnMessage(err.Error()) }
	if cfg.Output != nil {
		cfg.Output.copyTo(s.debugLog.wrote)
	}
	s.resetOptions()
	return s
}

// Variant returns the variant being played.
func (s *Session) Variant() *engine.Variant { return s.variant }

// Catalogue returns the variants the session offers.
func (s *Session) Catalogue() *variants.Catalogue { return s.cat }

// SetVariant switches to v (which need not be in the catalogue: players
// inside this process bring their own), as the UCI_Variant option does.
func (s *Session) SetVariant(v *engine.Variant) {
	if v != s.variant {
		s.variant, s.pos = v, nil
		s.searcher.Clear()
		s.prepareTables()
	}
}

// Position returns the current position, nil before the first SetPosition
// (and after a change of variant). The caller must not change it.
func (s *Session) Position() *engine.Position { return s.pos }

// SetPosition makes pos (a position of the current variant) the one the
// next search starts from; the tables its endings need are prepared.
func (s *Session) SetPosition(pos *engine.Position) {
	s.pos, s.engaged = pos, true
	s.prepareTables()
}

// NewGame forgets what earlier games taught the searcher.
func (s *Session) NewGame() error {
	if err := s.idleFor("ucinewgame"); err != nil {
		return err
	}
	s.searcher.Clear()
	s.engaged = true
	s.lag.reset()
	s.prepareTables()
	return nil
}

// Ready tells the session that a GUI is ready to play (UCI's isready):
// idle time from now on goes to preparing tables.
func (s *Session) Ready() {
	s.engaged = true
	s.prepareTables()
}

// prepareTables has the builder plan the tables of the current position's
// endings (of the start position's before the first SetPosition). Nothing
// is built before the protocol's first sign of a game, so nothing is
// reported before its handshake.
func (s *Session) prepareTables() {
	if s.builder != nil && s.variant != nil && s.engaged {
		s.builder.Prepare(s.variant, s.pos)
	}
}

// Close stops the session's background work (the table builder). Serve
// does it when it returns; a session used without Serve must call it.
func (s *Session) Close() {
	if s.builder != nil {
		s.builder.Close()
	}
	if s.syzygyTables != nil {
		_ = s.syzygyTables.Close() // nothing probes them any more
	}
	s.debugLog.close()
}

// maxQueued bounds the commands read ahead of the one being handled:
// enough for any GUI, so a stop or quit is seen behind them.
const maxQueued = 1024

// Serve reads command lines from in and hands each to handle, one at a
// time, between the reports of finished searches, until handle returns
// false (quit) or the input ends (which counts as quit, after the commands
// before it and the searches they started: a search with a limit ends as
// it would have, one held until stop is stopped). A search still running
// at quit is stopped and its answer given, so no Go goes unanswered. A
// line that cannot be read as a command (longer than MaxLine) goes to bad
// instead, and reading goes on.
//
// Commands queue while one waits for a search (go, setoption); a line
// urgent says is a stop or quit acts at once, whatever is queued before
// it: every search started by a line before it is stopped as soon as the
// reader sees it (so each queued go is still answered, at once), and the
// line itself is then handled in its turn.
func (s *Session) Serve(in io.Reader, handle func(line string) bool, bad func(error), urgent func(line string) bool) error {
	type item struct {
		line string
		err  error
		n    uint64
	}
	lines := make(chan item, maxQueued)
	s.urgent = make(chan uint64, maxQueued)
	s.handling, s.stopLine, s.closing = 0, 0, false
	quit := make(chan struct{})
	defer close(quit)
	send := func(it item) bool {
		select {
		case lines <- it:
			return true
		case <-quit:
			return false
		}
	}
	go func() {
		defer close(lines)
		var n uint64
		readLines(in, func(l string) bool {
			n++
			if urgent(l) {
				select {
				case s.urgent <- n:
				default:
					// Full: the stops queued cover the searches this one
					// would stop but those started since; the line itself
					// still stops them in its turn.
				}
			}
			return send(item{line: l, n: n})
		}, func(err error) bool { n++; return send(item{err: err, n: n}) })
	}()
	for {
		select {
		case it, ok := <-lines:
			if ok {
				s.handling = it.n
			}
			s.takeUrgent() // a stop read behind this line acts first
			if ok && it.err != nil {
				bad(it.err)
				continue
			}
			if ok {
				s.debugLog.read(it.line) // as handled: in order with the answers
			}
			if !ok {
				// The end of input: a script that pipes "go depth 12" and
				// closes gets its depth-12 answer (searches with a limit
				// end; one held until stop is stopped), then quit.
				if r := s.run; r != nil && r.endless && !r.stopped {
					s.Stop() // a bare go would search on forever
				}
				s.awaitIdle(true)
			}
			if !ok || !handle(it.line) {
				s.shutdown()
				s.Close()
				return nil
			}
		case n := <-s.urgent:
			s.stopBefore(n)
		case f := <-s.done:
			s.finish(f)
		}
	}
}

// takeUrgent acts on the stops and quits already read, without waiting.
func (s *Session) takeUrgent() {
	for {
		select {
		case n := <-s.urgent: // nil outside Serve: never ready
			s.stopBefore(n)
		default:
			return
		}
	}
}

// stopBefore stops, now and whenever one starts, the searches started by
// lines before line n (a stop or quit the reader has seen).
func (s *Session) stopBefore(n uint64) {
	s.stopLine = max(s.stopLine, n)
	if r := s.run; r != nil && r.line < s.stopLine && !r.stopped {
		s.Stop()
	}
}
