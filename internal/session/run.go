package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// run is the search (or perft) in progress. The lifecycle's rules:
//
//   - At most one run exists; Session.run is nil when the engine is idle,
//     and nothing that changes the searcher's setup happens while one
//     exists.
//   - Every search's result is given exactly once, through OnResult: when
//     the search ends, unless the run is held (go infinite, go ponder) and
//     neither stop nor ponderhit has come; then it waits for them.
//   - stop cancels the search, and gives a held result at once.
//   - ponderhit turns a ponder search into a normal one on the clock the go
//     command gave: a held result goes out at once; otherwise a timer
//     stops the search when that clock's budget is spent (with nodestime
//     the search is granted the budget in nodes, the timer at its hard
//     budget bounding a table still being built).
//   - A perft gives its counts through OnPerft and no result.
//   - The run ends (Session.run = nil) when its result has been given.
type run struct {
	cancel context.CancelFunc
	// endless: the search has no limit of its own (a bare go, infinite,
	// ponder): the end of input stops it rather than waiting for it.
	endless bool
	// line is the number of the command line that started the run.
	line  uint64
	perft bool
	// hold keeps a finished result until stop or ponderhit.
	hold bool
	// stopped: stop came, so the result goes out as soon as it exists.
	stopped bool
	// pondering until ponderhit, with the clock the go command gave.
	pondering   bool
	ponderClock search.Limits
	ponderSide  engine.Colour
	// result is the finished search's answer while it is held.
	result *search.Result
	// timer ends the search when a ponderhit's budget is spent;
	// nodeBudget takes its place when nodestime counts it in nodes.
	timer      *time.Timer
	nodeBudget *search.NodeBudget
}

// finished is what a search goroutine reports when it ends.
type finished struct {
	result  search.Result
	entries []engine.DivideEntry
}

// ErrBusy is the error of a command refused because a search that ends
// only on stop (go infinite, go ponder) is running.
var ErrBusy = errors.New("an infinite or ponder search is running; send stop first")

// errClosing refuses a search asked for while the session shuts down.
var errClosing = errors.New("the engine is quitting")

func errBusy(command string) error { return fmt.Errorf("%s while searching: %w", command, ErrBusy) }

// Busy reports whether a search or perft is running (or holds its result).
func (s *Session) Busy() bool { return s.run != nil }

// Go starts a search of the current position with the given limits (the
// MultiPV option applies). With ponder it searches without limit until
// ponderhit or stop, and keeps limits' clock for ponderhit.
func (s *Session) Go(limits search.Limits, ponder bool) error {
	s.readyToSearch()
	if s.closing {
		return errClosing
	}
	pos := s.pos.Clone()
	s.lag.started(limits, pos.SideToMove(), ponder, time.Now())
	s.searcher.SetMoveOverhead(s.overhead())
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel, hold: limits.Infinite || ponder, pondering: ponder,
		// A mate search without a depth (USI's go mate infinite) is
		// endless too: without a mate it would search to the last ply.
		endless: limits.Infinite || ponder || (limits.Depth == 0 && limits.Nodes == 0 &&
			limits.MoveTime == 0 && limits.WTime == 0 && limits.BTime == 0)}
	limits = s.withOptions(limits)
	if ponder {
		// The clock does not run while pondering; a depth, node or mate
		// limit still ends the search, whose result is then held until
		// ponderhit or stop (as Stockfish does).
		r.ponderClock, r.ponderSide = limits, pos.SideToMove()
		limits = search.Limits{Depth: limits.Depth, Nodes: limits.Nodes, Mate: limits.Mate,
			SearchMoves: limits.SearchMoves, MultiPV: limits.MultiPV, Skill: limits.Skill, Analysis: limits.Analysis}
		limits.Infinite = limits.Depth == 0 && limits.Nodes == 0 && limits.Mate == 0
		if s.values.nodesTime > 0 {
			r.nodeBudget = new(search.NodeBudget)
			limits.Later = r.nodeBudget
		}
	}
	r.line = s.handling
	s.run = r
	think := s.searchOf(pos, limits)
	go func() { s.done <- finished{result: think(ctx)} }()
	s.stopBefore(0) // a stop already read behind this go
	return nil
}

// withOptions applies the options that shape a search's limits: MultiPV,
// Slow Mover and UCI_AnalyseMode (nodestime applies in searchOf, after
// the tables).
func (s *Session) withOptions(l search.Limits) search.Limits {
	l.MultiPV, l.SlowMover = s.values.multiPV, s.values.slowMover
	l.Analysis = l.Analysis || s.values.analyse // a protocol's own analysis mode, or the option
	l.Skill = s.skill()
	return l
}

// readyToSearch gets the session ready for a search or perft: a running
// one is finished first (see awaitIdle), so every go is answered, in
// order.
func (s *Session) readyToSearch() {
	s.awaitIdle(true)
	if s.pos == nil {
		// Before any position (or after a change of variant): the
		// variant's start position, as GUIs and people expect.
		s.pos = s.variant.StartPosition()
	}
}

// searchOf prepares the search of pos under limits (pausing the builder:
// see tablesForSearch) and returns it, to run in any goroutine: it first
// gets pos's table when the limits allow, then searches.
func (s *Session) searchOf(pos *engine.Position, limits search.Limits) func(context.Context) search.Result {
	await := s.tablesForSearch(pos, limits)
	onInfo := s.cfg.OnInfo
	var chances *winChances
	if s.values.showWDL {
		chances = newWinChances(pos, s.prober, s.resultProber())
		onInfo = chances.report(onInfo)
	}
	return func(ctx context.Context) search.Result {
		if await != nil {
			limits = await(ctx, limits)
		}
		if chances != nil {
			chances.probe() // before the search: it may change pos
		}
		// nodestime counts the clock in nodes only now: a table built
		// first is bounded by the real clock (a ponder search has none
		// until ponderhit). The option's overhead alone, not the lag
		// measured: nodes counted must not depend on a busy machine.
		limits = limits.CountNodes(pos.SideToMove(), s.values.moveOverhead(), s.values.nodesTime)
		return s.searcher.Search(ctx, pos, limits, onInfo)
	}
}

// tablesForSearch pauses the builder for a search of pos. When pos's own
// table is missing, it is built now if the limits clearly leave time for
// it (the returned function waits for it, at most the move's hard budget,
// in the search's goroutine, and returns the limits less the time spent),
// or else hurried: built during the search, for the next move, though the
// builder is paused (in its child process at the lowest OS priority, when
// it has a Command: see tbbuild.Builder).
func (s *Session) tablesForSearch(pos *engine.Position, limits search.Limits) func(context.Context, search.Limits) search.Limits {
	b := s.builder
	if b == nil {
		return nil
	}
	b.Pause()
	m, missing := b.Missing(pos)
	if !missing {
		return nil
	}
	v, side := pos.Variant(), pos.SideToMove()
	cost := b.Estimate(v, m)
	if !s.timeForBuild(limits, side, cost) {
		b.Hurry(v, m)
		return nil
	}
	return func(ctx context.Context, l search.Limits) search.Limits {
		start := time.Now()
		if _, hard := l.TimeBudget(side, s.overhead()); hard > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, hard)
			defer cancel()
		}
		verb := "building"
		if b.Readable(v, m) {
			verb = "reading" // its file: a build only if the read fails
		}
		s.cfg.OnMessage(fmt.Sprintf("tablebase: %s %s %s first (about %.1f s)", verb, v.Name, m, cost.Seconds()))
		if err := b.Await(ctx, v, m); err != nil {
			s.cfg.OnMessage(fmt.Sprintf("tablebase: searching without %s: %v", m, err))
		}
		return l.Less(side, time.Since(start))
	}
}

// timeForBuild reports whether a search with these limits can spend cost
// on building a table first: always without a clock (depth, nodes,
// infinite, ponder), half a fixed move time, or on a clock the move's
// hard budget and an eighth of the time left.
func (s *Session) timeForBuild(l search.Limits, side engine.Colour, cost time.Duration) bool {
	switch {
	case l.Infinite:
		return true
	case l.MoveTime > 0:
		return cost <= l.MoveTime/2
	case l.WTime <= 0 && l.BTime <= 0:
		return true
	}
	left := l.WTime
	if side == engine.Black {
		left = l.BTime
	}
	_, hard := l.TimeBudget(side, s.overhead())
	return cost <= hard && cost <= left/8
}

// Think searches the current position in the caller's goroutine, as Go
// does in the background, and returns the answer: for players inside this
// process (self-play), which have no protocol loop. The tables are handled
// as for Go.
func (s *Session) Think(ctx context.Context, limits search.Limits) search.Result {
	s.readyToSearch()
	pos := s.pos.Clone()
	r := s.searchOf(pos, s.withOptions(limits))(ctx)
	if s.builder != nil {
		s.builder.Resume()
	}
	return r
}

// Perft counts the leaves of the legal move tree of the current position
// to depth, move by move, in the background.
func (s *Session) Perft(depth int) {
	s.readyToSearch()
	pos := s.pos.Clone()
	s.run = &run{cancel: func() {}, perft: true, line: s.handling} // a perft runs to its end
	if s.builder != nil {
		s.builder.Pause()
	}
	go func() { s.done <- finished{entries: pos.Divide(depth)} }()
}

// Stop ends the running search; its result follows when it has returned.
func (s *Session) Stop() {
	r := s.run
	if r == nil {
		return
	}
	r.stopped, r.pondering = true, false
	r.cancel()
	if r.result != nil {
		s.deliver(*r.result)
	}
}

// PonderHit tells a ponder search that the expected move was played: it
// goes on as a normal search on the go command's clock.
func (s *Session) PonderHit() {
	r := s.run
	if r == nil || !r.pondering {
		return
	}
	r.pondering, r.hold = false, false
	if r.result != nil {
		s.deliver(*r.result)
		return
	}
	if r.nodeBudget != nil {
		// nodestime: the move's budget in nodes, as a search on the clock
		// gets it (the option's overhead alone).
		if n := r.ponderClock.CountNodes(r.ponderSide, s.values.moveOverhead(), s.values.nodesTime).Nodes; n > 0 {
			r.nodeBudget.Grant(n)
		}
		_, hard := r.ponderClock.TimeBudget(r.ponderSide, s.values.moveOverhead())
		if hard > 0 {
			// The grant is read by the search only: a table still being
			// built first is bounded by the clock's hard budget.
			r.timer = time.AfterFunc(hard, r.cancel)
		}
		return
	}
	soft, _ := r.ponderClock.TimeBudget(r.ponderSide, s.overhead())
	if soft > 0 {
		r.timer = time.AfterFunc(soft, r.cancel)
	}
}

// finish handles the end of the running search or perft.
func (s *Session) finish(f finished) {
	r := s.run
	r.cancel()
	if r.timer != nil {
		r.timer.Stop()
	}
	if r.perft {
		s.endRun()
		s.cfg.OnPerft(f.entries)
		return
	}
	if r.hold && !r.stopped {
		r.result = &f.result
		return
	}
	s.deliver(f.result)
}

// deliver gives the run's result and ends the run.
func (s *Session) deliver(result search.Result) {
	s.endRun()
	s.cfg.OnResult(result)
	s.lag.answered(time.Now())
}

// overhead is the time a move costs beyond the search: the Move Overhead
// option plus the lag measured in this game.
func (s *Session) overhead() time.Duration { return s.values.moveOverhead() + s.lag.estimate }

// endRun ends the run and lets the builder use the idle time.
func (s *Session) endRun() {
	s.run = nil
	if s.builder != nil {
		s.builder.Resume()
	}
}

// shutdown stops a running search, waits for it and gives its result.
func (s *Session) shutdown() {
	// A result given now may start another search (CECP's pondering
	// after its move): closing refuses it, so this loop ends.
	s.closing = true
	for s.run != nil {
		s.Stop()
		s.awaitIdle(false)
	}
}

// awaitIdle waits for the running search (or perft) to end and gives its
// result, as Stockfish does when a command arrives during a search, so
// commands piped without waiting run in order. A search held until stop
// (infinite, ponder) would never end: with stopHeld it is stopped (a new
// go replaces it), otherwise awaitIdle leaves it running and reports false.
func (s *Session) awaitIdle(stopHeld bool) bool {
	s.takeUrgent()
	for s.run != nil {
		// Checked each time round: a result given here may start a held
		// search (CECP ponders after its move).
		if r := s.run; r.hold && !r.stopped {
			if !stopHeld {
				return false
			}
			s.Stop()
			continue
		}
		select {
		case f := <-s.done:
			s.finish(f)
		case n := <-s.urgent: // nil outside Serve: never ready
			s.stopBefore(n)
		}
	}
	return true
}

// Finish answers the running search (or perft) first, as a new go would:
// one with limits is waited for, one held until stop (infinite, ponder)
// is stopped. A protocol whose next answer depends on the command (USI's
// go mate, a change of dialect) calls it before it changes its own state.
func (s *Session) Finish() { s.awaitIdle(true) }

// idleFor readies the session for a command that changes the searcher's
// setup: a running search is waited for, unless it is held until stop.
func (s *Session) idleFor(command string) error {
	if !s.awaitIdle(false) {
		return errBusy(command)
	}
	return nil
}
