// Package search is Chimera's searcher: iterative-deepening negamax
// alpha-beta with principal variation search and aspiration windows, on
// any number of threads (Lazy SMP: one shared lock-free transposition
// table). Around the documents' evaluation it has what the strongest open
// engines found worth having, each switched off where a variant breaks
// its assumption: quiescence search over captures with stand-pat, static
// exchange and delta pruning; check extension; null-move pruning, reverse
// futility, razoring, futility and late-move pruning, internal iterative
// reductions and logarithmic late-move reductions guided by an
// "improving" signal; killer, counter-move, history and continuation-
// history move ordering; mate-distance pruning and draw detection inside
// the tree; and time management that stops early on a stable best move
// and thinks longer when it changes or the score drops. All state lives
// in a Searcher value; a search stops through its context.
package search

import (
	"cmp"
	"context"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
)

// Options configure a Searcher.
type Options struct {
	// HashMB is the transposition table size in MiB (default 16).
	HashMB int
	// MoveOverhead is subtracted from every time budget (default 30 ms).
	MoveOverhead time.Duration
	// Prober, when set, answers positions from endgame tablebases.
	Prober Prober
	// ResultProber, when set, answers the positions Prober does not from
	// tables that know the result but not the distance to mate
	// (Syzygy's).
	ResultProber ResultProber
	// IgnoreMoveRule makes the search blind to the n-move rule (repetitions
	// still count), for measuring how it converts a won ending.
	IgnoreMoveRule bool
	// Evaluation gives the evaluator of a variant (nil: the documents'
	// evaluation, eval.NewDocuments).
	Evaluation func(*engine.Variant) eval.Evaluator

	// test holds switches only the package's tests set (export_test.go).
	test testSwitches
}

// detailed reports whether the search has run long enough for detailed
// reports (detailAfter).
func (s *Searcher) detailed() bool {
	return s.opts.test.detailAtOnce || time.Since(s.start) >= detailAfter
}

// testSwitches make the search's results exact for tests. pure turns off
// everything that makes the result depend on move order (null move,
// reductions, aspiration windows, mate-distance pruning and draws by
// in-tree repetition), so the fixed-depth score is the exact minimax value;
// exactDepthTT reuses stored scores only at exactly the stored depth; noTT
// disables the table; detailAtOnce reports failed root searches and root
// moves from the start (not after detailAfter).
type testSwitches struct {
	pure, exactDepthTT, noTT, detailAtOnce bool
}

// Prober answers a position from an endgame tablebase: for the side to
// move, win/draw/loss (1, 0, −1) and the signed plies to mate counted from
// the position (+p when it mates, −p when it is mated), and at the root a
// best move. It may decline (ok false), for instance for a table that is
// too dear to build in the middle of a search.
type Prober interface {
	Probe(p *engine.Position, root bool) (wdl, dtm int, best engine.Move, ok bool)
}

// ResultProber answers positions from tables that know their result but
// not their distance to mate (Syzygy's). It may decline (ok false).
type ResultProber interface {
	// ProbeResult returns, for the side to move, win/draw/loss (1, 0,
	// −1) inside the tree; depth is the depth left at the node, for a
	// prober that spares its tables near the leaves (SyzygyProbeDepth).
	ProbeResult(p *engine.Position, depth int) (wdl int, ok bool)
	// ProbeRoot returns the root's result and either best, a move to
	// play at once (a won or lost root: the table's way keeps a win
	// within the move rule and makes a loss last), or keep, the moves
	// that keep the root's result, among which the search chooses (a
	// drawn root).
	ProbeRoot(p *engine.Position) (wdl int, best engine.Move, keep []engine.Move, ok bool)
}

// resultScore converts a result prober's answer into a score relative to
// the node at ply.
func resultScore(wdl, ply int) Score {
	switch {
	case wdl > 0:
		return TableWinIn(ply)
	case wdl < 0:
		return TableLossIn(ply)
	}
	return 0
}

// tablebaseScore converts a probe into a score relative to the node at ply.
func tablebaseScore(wdl, dtm, ply int) Score {
	switch {
	case wdl > 0:
		return MateIn(ply + dtm)
	case wdl < 0:
		return MatedIn(ply - dtm)
	}
	return 0
}

// Info reports one completed iteration (one line of it with MultiPV).
type Info struct {
	// MultiPV numbers the line from 1, best first.
	MultiPV         int
	Depth, SelDepth int
	Score           Score
	Nodes           uint64
	NPS             uint64
	Time            time.Duration
	HashFull        int // permille
	TBHits          uint64
	PV              []engine.Move
	// LowerBound: Score is only a lower bound, from an iteration stopped
	// after PV's first move beat the previous best, or from a search of
	// the root that failed high (reported after a few seconds).
	LowerBound bool
	// UpperBound: Score is only an upper bound, from a search of the root
	// that failed low (reported after a few seconds).
	UpperBound bool
	// WDL, when the session was asked for it (UCI_ShowWDL), holds the side
	// to move's chances of a win, a draw and a loss in per mille (summing
	// to 1000); all zero otherwise. The search leaves it zero.
	WDL [3]int
	// CurrMove, when set, makes this a report of the root move being
	// searched (the CurrMoveNumber-th, from 1, at Depth), not of a line:
	// sent once a search has run a few seconds, so that a GUI shows
	// progress within a long iteration.
	CurrMove       engine.Move
	CurrMoveNumber int
}

// detailAfter is how long a search runs before a root search that fails
// high or low, and each root move searched, are reported (as Stockfish
// does): in a long analysis a GUI shows at once that the best move is
// changing and how far an iteration has got, while the short searches of
// games are not flooded with such lines.
const detailAfter = 3 * time.Second

// Result is a search's answer: the move to play (always legal when the
// position has one), the expected reply, and the score.
type Result struct {
	Best, Ponder engine.Move
	Score        Score
	Depth        int
	Nodes        uint64
}

// Searcher searches positions. It is reusable across moves and games; it
// runs one search at a time (on Threads threads).
type Searcher struct {
	opts    Options
	tt      *table
	variant *engine.Variant
	eval    eval.Evaluator
	workers []*worker // workers[0] is the main thread
	lmr     [64][64]int8

	// Per search; the helpers only read these.
	ctx      context.Context
	limits   Limits
	start    time.Time
	hardStop time.Time
	// nodeLimit is the node count the search stops at (0: none): the
	// limits' Nodes, or where Limits.Later's grant ends it once the main
	// thread sees the grant (granted records that). The main thread's.
	nodeLimit uint64
	granted   bool
	stop      atomic.Bool // set by the main thread: helpers stop too
	nullOK    bool        // null move and reductions: not where zugzwang is common
	prune     bool        // the forward pruning family: not where captures are forced
	// evalBlind: the variant's goal is not what material measures
	// (compulsory captures, extinction of a kind): the mild search of old,
	// no forward pruning, aspiration windows or exchange ordering.
	evalBlind bool
	// pairHistories: counter-move and continuation histories order quiet
	// moves. Not where the evaluation is blind: they learn noise there
	// (giveaway against the old binary: 39% with them, 49% without).
	pairHistories bool
	// quietsApart: the variant generates its captures apart from its
	// quiet moves, and nodes generate them in stages (see picker).
	quietsApart bool
	// materialPruning: razoring, pruning captures by exchange and delta
	// pruning, which count what a capture takes: not where checks win the
	// game, nor where a capture blows up more than its victim.
	materialPruning bool
	// nearPromotion[c]: the squares one step short of colour c's promotion
	// zone. A pawn arriving there is searched a ply deeper: the material
	// evaluation does not see a pawn about to promote until it does.
	nearPromotion [2]engine.SquareSet
	rootMoves     []engine.Move
}

// MaxThreads is the most search threads a Searcher runs.
const MaxThreads = 256

// New returns a searcher with the given options, on one thread.
func New(opts Options) *Searcher {
	if opts.HashMB <= 0 {
		opts.HashMB = 16
	}
	if opts.MoveOverhead == 0 {
		opts.MoveOverhead = 30 * time.Millisecond
	}
	s := &Searcher{opts: opts, tt: newTable(opts.HashMB), lmr: lmrTable()}
	s.workers = []*worker{newWorker(s, 0)}
	return s
}

// SetHash resizes (and clears) the transposition table. The old table
// is given back first, so a big table never needs its old size on top;
// a table that already has the size is cleared in place (a session
// applying its default to the table its searcher was made with).
func (s *Searcher) SetHash(mb int) {
	s.opts.HashMB = max(mb, 1)
	if s.tt != nil && len(s.tt.slots) == tableSlots(s.opts.HashMB) {
		s.tt.clear()
		return
	}
	if len(s.tt.slots)*ttEntrySize > 64<<20 {
		s.tt = nil
		debug.FreeOSMemory()
	}
	s.tt = newTable(s.opts.HashMB)
}

// SetThreads sets the number of search threads (1 to MaxThreads).
func (s *Searcher) SetThreads(n int) {
	n = max(min(n, MaxThreads), 1)
	for len(s.workers) < n {
		w := newWorker(s, len(s.workers))
		if s.eval != nil {
			w.setVariant(s.eval)
		}
		s.workers = append(s.workers, w)
	}
	s.workers = s.workers[:n]
}

// Threads returns the number of search threads.
func (s *Searcher) Threads() int { return len(s.workers) }

// SetEvaluation chooses how positions are evaluated from the next search
// on (nil: the documents' evaluation). The transposition table is
// cleared: its scores are the other evaluation's.
func (s *Searcher) SetEvaluation(f func(*engine.Variant) eval.Evaluator) {
	s.opts.Evaluation = f
	s.variant = nil // the next search builds its evaluator afresh
}

// evaluatorFor returns the evaluator of a variant under the options.
func (s *Searcher) evaluatorFor(v *engine.Variant) eval.Evaluator {
	if s.opts.Evaluation == nil {
		return eval.NewDocuments(v)
	}
	return s.opts.Evaluation(v)
}

// SetResultProber installs or removes (nil) a prober of tables without
// distances to mate (Syzygy's), asked where the Prober has no answer.
// Every search after it uses it.
func (s *Searcher) SetResultProber(p ResultProber) { s.opts.ResultProber = p }

// SetProber installs or removes (nil) a tablebase prober. Every search
// thread probes it: it must be safe for concurrent use.
func (s *Searcher) SetProber(p Prober) { s.opts.Prober = p }

// SetMoveOverhead changes the time kept back for communication.
func (s *Searcher) SetMoveOverhead(d time.Duration) { s.opts.MoveOverhead = d }

// Clear forgets everything learnt (a new game).
func (s *Searcher) Clear() {
	s.tt.clear()
	for _, w := range s.workers {
		w.clear()
	}
}

// totalNodes returns the nodes all threads have searched so far: the main
// thread's exactly (only it calls this), the helpers' as last published.
func (s *Searcher) totalNodes() uint64 {
	n := s.workers[0].nodes
	for _, w := range s.workers[1:] {
		n += w.published.Load()
	}
	return n
}

// totalTBHits returns the tablebase hits of all threads so far.
func (s *Searcher) totalTBHits() uint64 {
	n := uint64(0)
	for _, w := range s.workers {
		n += w.tbHits.Load()
	}
	return n
}

// Search searches pos (which it does not modify) within the limits and
// returns the best move. onInfo, when not nil, is called after every
// completed iteration. The search stops when ctx is done; the move it
// returns is then the best of the last completed iteration, or of the
// first iteration so far, or the first legal move.
func (s *Searcher) Search(ctx context.Context, pos *engine.Position, limits Limits, onInfo func(Info)) Result {
	s.prepare(ctx, pos, limits)
	main := s.workers[0]
	root := main.pos
	if len(s.rootMoves) == 0 {
		return Result{Score: s.terminalScore(root)}
	}
	// A weakened search chooses among its lines even in a table's ending
	// (a player does not play perfectly there either); an analysis
	// searches them all.
	if len(limits.SearchMoves) == 0 && !limits.Analysis && limits.Skill == nil {
		if best, score, ok := s.tableMove(root); ok {
			main.tbHits.Add(1)
			if onInfo != nil {
				onInfo(Info{Depth: 1, SelDepth: 1, MultiPV: 1, Score: score, Nodes: s.totalNodes(), TBHits: s.totalTBHits(),
					Time: time.Since(s.start), PV: []engine.Move{best}})
			}
			return Result{Best: best, Score: score, Depth: 1, Nodes: s.totalNodes()}
		}
	}
	clock := newTimeManager(limits, root.SideToMove(), s.opts.MoveOverhead)
	clock.fixed = s.evalBlind
	if clock.hard > 0 {
		s.hardStop = s.start.Add(clock.hard)
	}
	maxDepth := MaxPly - 1
	if limits.Depth > 0 {
		maxDepth = min(limits.Depth, maxDepth)
	}
	lines := min(max(limits.MultiPV, 1), len(s.rootMoves))
	skill := newSkillChooser(limits.Skill)
	if skill != nil {
		lines = min(max(lines, skillLines), len(s.rootMoves))
	}
	var helpers sync.WaitGroup
	if lines == 1 { // helpers search the whole root: one line only
		for _, w := range s.workers[1:] {
			helpers.Go(func() { w.iterate(maxDepth) })
		}
	}
	res := s.iterate(main, maxDepth, lines, clock, onInfo, skill)
	s.stop.Store(true)
	helpers.Wait()
	res.Nodes = s.totalNodes()
	return res
}

// tableMove returns the root's move from a table that names one: the
// Prober's (it knows the distance to mate), else the ResultProber's.
func (s *Searcher) tableMove(root *engine.Position) (best engine.Move, score Score, ok bool) {
	if s.opts.Prober != nil {
		if wdl, dtm, best, ok := s.opts.Prober.Probe(root, true); ok && best != engine.NoMove && s.isRootMove(best) {
			return best, tablebaseScore(wdl, dtm, 0), true
		}
	}
	if s.opts.ResultProber != nil {
		wdl, best, keep, ok := s.opts.ResultProber.ProbeRoot(root)
		switch {
		case !ok:
		case best != engine.NoMove && s.isRootMove(best):
			return best, resultScore(wdl, 0), true
		case len(keep) > 0:
			s.keepRootMoves(keep)
		}
	}
	return engine.NoMove, 0, false
}

// keepRootMoves narrows the root to the moves in keep (those that keep a
// table's result), unless none of them is a root move.
func (s *Searcher) keepRootMoves(keep []engine.Move) {
	kept := make([]engine.Move, 0, len(s.rootMoves))
	for _, m := range s.rootMoves {
		if slices.Contains(keep, m) {
			kept = append(kept, m)
		}
	}
	if len(kept) > 0 {
		s.rootMoves = append(s.rootMoves[:0], kept...)
	}
}

// Quiesce runs the quiescence search alone from pos (which it does not
// modify), on the main thread: captures and promotions (every move in
// check) until standing pat is best. It returns the score for the side to
// move and the line that reaches it, the captures the evaluation would
// make: the way to the position the Texel method judges a static
// evaluation on (package tune). The line is empty when standing pat is
// best at once, and when ctx ends the search (score 0). It is not the
// whole truth: quiescence stops after a few plies, passes over captures
// that lose by exchange or cannot reach alpha, and the line stops short
// where the transposition table answers (Clear first for a line that
// depends on the position alone; a search from the line's end may go on).
func (s *Searcher) Quiesce(ctx context.Context, pos *engine.Position) (Score, []engine.Move) {
	s.prepare(ctx, pos, Limits{})
	main := s.workers[0]
	score := main.quiesce(-Infinity, Infinity, 0, 0)
	if main.stopped {
		return 0, nil
	}
	return score, slices.Clone(main.pv[0][:main.pvLen[0]])
}

// iterate is the main thread's iterative deepening: it reports every
// completed iteration and decides when to stop.
func (s *Searcher) iterate(main *worker, maxDepth, lines int, clock *timeManager, onInfo func(Info), skill *skillChooser) Result {
	res := Result{Best: s.rootMoves[0]}
	prev := make([]Score, lines)
	var reported []Info // the last completed iteration's lines
	if onInfo != nil {
		main.searching = func(depth int, m engine.Move, number int) {
			if s.detailed() {
				onInfo(Info{Depth: depth, CurrMove: m, CurrMoveNumber: number})
			}
		}
		defer func() { main.searching = nil }()
	}
	for depth := 1; depth <= maxDepth; depth++ {
		main.excluded = main.excluded[:0]
		var infos []Info
		for line := 0; line < lines; line++ {
			var failed func(Score, bool)
			if onInfo != nil {
				failed = func(bound Score, low bool) {
					if !s.detailed() {
						return
					}
					info := s.info(main, depth, bound)
					if len(info.PV) == 0 {
						// A root that failed low has no line of its own:
						// the line's last one stands, now only a bound.
						if line >= len(reported) {
							return
						}
						info.PV = reported[line].PV
					}
					info.MultiPV, info.LowerBound, info.UpperBound = line+1, !low, low
					onInfo(info)
				}
			}
			score := main.aspiration(depth, prev[line], failed)
			if main.stopped {
				break
			}
			prev[line] = score
			if line == 0 {
				best, ponder := main.rootLine()
				main.rootBest = best // searched first next time
				// With several lines the move played is the ranked
				// iteration's line 1 (rankLines); an interrupted first
				// iteration's line 1 still beats none.
				if lines == 1 || res.Depth == 0 {
					res = Result{Score: score, Depth: depth, Best: best, Ponder: ponder}
				}
			}
			info := s.info(main, depth, score)
			info.MultiPV = line + 1
			infos = append(infos, info)
			main.excluded = append(main.excluded, main.pv[0][0])
		}
		if !main.stopped && lines > 1 {
			res = s.rankLines(main, infos, prev)
		}
		if main.stopped {
			// A root move that beat the window of the interrupted iteration
			// (after the last best was searched first) is the better
			// move; an interrupted first iteration still beats none.
			if main.pvLen[0] > 0 && lines == 1 && (res.Depth == 0 || main.pv[0][0] != res.Best) {
				res.Best, res.Ponder = main.rootLine()
				if onInfo != nil {
					// The GUI's last line should name the move played.
					info := s.info(main, depth, main.rootScore)
					info.MultiPV, info.LowerBound = 1, true
					onInfo(info)
				}
			} else if onInfo != nil {
				// The last word at a stop (or a node limit) is the last
				// iteration's lines again, with the nodes and time spent
				// in all, as Stockfish gives it before bestmove.
				s.reportAgain(reported, onInfo)
			}
			break
		}
		if onInfo != nil {
			for _, info := range infos {
				onInfo(info)
			}
		}
		reported = infos
		if skill != nil && skill.chosen == nil && depth >= skill.depth() {
			skill.choose(infos)
		}
		clock.iterationDone(res.Best, res.Score)
		if s.doneAfterIteration(depth, res.Score, clock) {
			break
		}
	}
	if skill != nil {
		// The move played is the one the weakened search chose: at its
		// depth, or from the last iteration completed if it stopped first.
		if skill.chosen == nil {
			skill.choose(reported)
		}
		res = skill.result(res)
	}
	return res
}

// reportAgain reports lines again with the search's nodes, time and hits
// now.
func (s *Searcher) reportAgain(lines []Info, onInfo func(Info)) {
	elapsed, nodes := time.Since(s.start), s.totalNodes()
	for _, info := range lines {
		info.Nodes, info.Time, info.HashFull, info.TBHits = nodes, elapsed, s.tt.hashfull(), s.totalTBHits()
		if elapsed > 0 {
			info.NPS = uint64(float64(nodes) / elapsed.Seconds())
		}
		onInfo(info)
	}
}

// rankLines orders a completed iteration's MultiPV lines best first, as
// GUIs expect: a later line, searched without the moves before it, can
// score higher than an earlier one (reductions and the table see each
// search differently), and is then the better move. It renumbers the
// lines, keeps their scores in prev in the new order (each line's next
// window) and returns the result of the best, the move played.
func (s *Searcher) rankLines(main *worker, infos []Info, prev []Score) Result {
	slices.SortStableFunc(infos, func(a, b Info) int { return cmp.Compare(b.Score, a.Score) })
	for i := range infos {
		infos[i].MultiPV = i + 1
		prev[i] = infos[i].Score
	}
	best := infos[0]
	res := Result{Score: best.Score, Depth: best.Depth, Best: best.PV[0]}
	if len(best.PV) > 1 {
		res.Ponder = best.PV[1]
	}
	main.rootBest = res.Best
	return res
}

// prepare resets the per-search state.
func (s *Searcher) prepare(ctx context.Context, pos *engine.Position, limits Limits) {
	s.start = time.Now()
	s.ctx, s.limits = ctx, limits
	if s.variant != pos.Variant() {
		s.variant = pos.Variant()
		s.eval = s.evaluatorFor(s.variant)
		s.nearPromotion = nearPromotion(s.variant)
		s.tt.clear()
		for _, w := range s.workers {
			w.setVariant(s.eval)
		}
	}
	v := s.variant
	pure := s.opts.test.pure
	s.nullOK = !pure && !v.MustCapture && (v.StalemateValue == engine.NoValue || v.StalemateValue == engine.DrawValue)
	// Where captures are forced or losing the last piece of a kind
	// decides, the material evaluation is blind to the goal: the
	// techniques that trust it (forward pruning, exchange ordering,
	// internal iterative reductions, deep null-move and late-move
	// reductions) give way to the mild ones of old. (Losing every piece,
	// extinction of "*", is what material measures.)
	s.evalBlind = v.MustCapture || (v.ExtinctionValue != engine.NoValue && slices.ContainsFunc(v.ExtinctionTypes, func(t byte) bool { return t != '*' }))
	s.prune = !pure && !s.evalBlind
	s.pairHistories = !s.evalBlind
	s.quietsApart = v.QuietsApart()
	s.materialPruning = s.prune && v.CheckCounting == 0 && !v.BlastOnCapture
	s.hardStop, s.nodeLimit, s.granted = time.Time{}, limits.Nodes, false
	s.stop.Store(false)
	s.tt.newSearch()
	for _, w := range s.workers {
		w.prepare(pos)
	}
	s.workers[0].nodes = 1 // the root
	s.rootMoves = pos.LegalMoves(s.rootMoves[:0])
	if len(limits.SearchMoves) > 0 {
		kept := s.rootMoves[:0]
		for _, m := range s.rootMoves {
			for _, want := range limits.SearchMoves {
				if m == want {
					kept = append(kept, m)
					break
				}
			}
		}
		s.rootMoves = kept
	}
}

// nearPromotion returns, per colour, the squares outside the promotion
// zone with a square of the zone just ahead (one rank further from the
// colour's own side): where a pawn threatens to promote next move. None
// where promoting gains less than a pawn (makruk's and shatranj's pawns
// become a ferz: their threat is no tactic, and makruk's pawns stand
// next to their zone from the second move on; 46% there with them), nor
// where promoting is optional or limited (grand chess: only to a piece
// already captured, so the step into the zone often threatens nothing;
// 39% there with them).
func nearPromotion(v *engine.Variant) [2]engine.SquareSet {
	var near [2]engine.SquareSet
	if v.OptionalPromotion || len(v.PromotionLimit) > 0 {
		return near
	}
	pawn, promoted := 0, 0
	for _, pt := range v.Pieces {
		if pt.Role == engine.RolePawn && (pawn == 0 || pt.Value < pawn) {
			pawn = pt.Value
		}
	}
	for _, l := range v.PromotionTypes {
		promoted = max(promoted, v.Pieces[v.TypeByLetter(l)-1].Value)
	}
	if pawn == 0 || promoted-pawn < pawn {
		return near
	}
	for c := range 2 {
		ahead := 1 - 2*c // White's pawns go up the ranks
		for r := range v.Height {
			for f := range v.Width {
				s, next := engine.SquareAt(f, r), r+ahead
				if next >= 0 && next < v.Height && !v.PromotionZone[c].Has(s) && v.PromotionZone[c].Has(engine.SquareAt(f, next)) {
					near[c].Add(s)
				}
			}
		}
	}
	return near
}

func (s *Searcher) isRootMove(m engine.Move) bool {
	for _, r := range s.rootMoves {
		if r == m {
			return true
		}
	}
	return false
}

// doneAfterIteration decides whether to start another iteration.
func (s *Searcher) doneAfterIteration(depth int, score Score, clock *timeManager) bool {
	l := s.limits
	if l.Infinite {
		return false
	}
	if l.Mate > 0 && score.IsMate() && score > 0 && score.MateMoves() <= l.Mate {
		return true
	}
	if clock.enough(time.Since(s.start)) {
		return true
	}
	if l.Analysis {
		return false // the limits alone end an analysis
	}
	// With a clock, one legal move needs no thought.
	if l.clock() && len(s.rootMoves) == 1 {
		return true
	}
	// A mate found within the depth searched cannot be improved on.
	if score.IsMate() && int(MateScore-abs(score)) < depth && l.Depth == 0 && l.Nodes == 0 && l.Mate == 0 && !l.Infinite {
		return true
	}
	return false
}

// info builds the report of a completed iteration.
func (s *Searcher) info(main *worker, depth int, score Score) Info {
	elapsed := time.Since(s.start)
	nodes := s.totalNodes()
	nps := uint64(0)
	if elapsed > 0 {
		nps = uint64(float64(nodes) / elapsed.Seconds())
	}
	return Info{Depth: depth, SelDepth: main.selDepth, Score: score, Nodes: nodes, NPS: nps, Time: elapsed,
		HashFull: s.tt.hashfull(), TBHits: s.totalTBHits(), PV: append([]engine.Move(nil), main.pv[0][:main.pvLen[0]]...)}
}

// outcomeScore converts a game result for the side to move into a score:
// winning sooner and losing later are better.
func outcomeScore(r engine.Result, ply int) Score {
	switch r.Outcome {
	case engine.Win:
		return MateIn(ply)
	case engine.Loss:
		return MatedIn(ply)
	}
	return 0
}

// terminalScore scores a root position that has no legal move.
func (s *Searcher) terminalScore(p *engine.Position) Score {
	if r, over := p.ImmediateEnd(); over {
		return outcomeScore(r, 0)
	}
	return outcomeScore(p.NoMoveResult(), 0)
}
