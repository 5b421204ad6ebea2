// Package search is Chimera's searcher: iterative-deepening negamax
// alpha-beta with principal variation search, aspiration windows, a
// transposition table that stores bounds with its scores, quiescence search
// over captures with stand-pat, check extension, null-move pruning and
// late-move reductions, killer and history move ordering, mate-distance
// pruning and draw detection inside the tree. All state lives in a
// Searcher value; a search stops through its context.
package search

import (
	"context"
	"runtime/debug"
	"slices"
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
	// IgnoreMoveRule makes the search blind to the n-move rule (repetitions
	// still count), for measuring how it converts a won ending.
	IgnoreMoveRule bool

	// test holds switches only the package's tests set (export_test.go).
	test testSwitches
}

// testSwitches make the search's results exact for tests. pure turns off
// everything that makes the result depend on move order (null move,
// reductions, aspiration windows, mate-distance pruning and draws by
// in-tree repetition), so the fixed-depth score is the exact minimax value;
// exactDepthTT reuses stored scores only at exactly the stored depth; noTT
// disables the table.
type testSwitches struct {
	pure, exactDepthTT, noTT bool
}

// Prober answers a position from an endgame tablebase: for the side to
// move, win/draw/loss (1, 0, −1) and the signed plies to mate counted from
// the position (+p when it mates, −p when it is mated), and at the root a
// best move. It may decline (ok false), for instance for a table that is
// too dear to build in the middle of a search.
type Prober interface {
	Probe(p *engine.Position, root bool) (wdl, dtm int, best engine.Move, ok bool)
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
}

// Result is a search's answer: the move to play (always legal when the
// position has one), the expected reply, and the score.
type Result struct {
	Best, Ponder engine.Move
	Score        Score
	Depth        int
	Nodes        uint64
}

// Searcher searches positions. It is reusable across moves and games; it is
// not safe for concurrent searches (run one at a time).
type Searcher struct {
	opts    Options
	tt      *table
	variant *engine.Variant
	eval    *eval.Evaluator

	evals evalCache

	killers [MaxPly + 1][2]engine.Move
	history [64][engine.NumSquares]int32
	moves   [MaxPly + 1][]engine.Move
	scores  [MaxPly + 1][]int32
	pv      [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen   [MaxPly + 1]int

	// Per search.
	pos       *engine.Position
	ctx       context.Context
	limits    Limits
	start     time.Time
	hardStop  time.Time
	nodes     uint64
	tbHits    uint64
	selDepth  int
	stopped   bool
	noNull    bool // no null move or reductions: Pure, or zugzwang is common
	rootMoves []engine.Move
	rootBest  engine.Move   // best move of the last iteration, searched first
	excluded  []engine.Move // root moves already reported on earlier MultiPV lines
}

// New returns a searcher with the given options.
func New(opts Options) *Searcher {
	if opts.HashMB <= 0 {
		opts.HashMB = 16
	}
	if opts.MoveOverhead == 0 {
		opts.MoveOverhead = 30 * time.Millisecond
	}
	s := &Searcher{opts: opts, tt: newTable(opts.HashMB)}
	for i := range s.moves {
		s.moves[i] = make([]engine.Move, 0, engine.MaxMoves)
		s.scores[i] = make([]int32, engine.MaxMoves)
	}
	return s
}

// SetHash resizes (and clears) the transposition table. The old table
// is given back first, so a big table never needs its old size on top.
func (s *Searcher) SetHash(mb int) {
	s.opts.HashMB = max(mb, 1)
	if len(s.tt.entries)*ttEntrySize > 64<<20 {
		s.tt = nil
		debug.FreeOSMemory()
	}
	s.tt = newTable(s.opts.HashMB)
}

// SetProber installs or removes (nil) a tablebase prober.
func (s *Searcher) SetProber(p Prober) { s.opts.Prober = p }

// SetMoveOverhead changes the time kept back for communication.
func (s *Searcher) SetMoveOverhead(d time.Duration) { s.opts.MoveOverhead = d }

// Clear forgets everything learnt (a new game).
func (s *Searcher) Clear() {
	s.tt.clear()
	s.evals.clear()
	s.killers = [MaxPly + 1][2]engine.Move{}
	s.history = [64][engine.NumSquares]int32{}
}

// Search searches pos (which it does not modify) within the limits and
// returns the best move. onInfo, when not nil, is called after every
// completed iteration. The search stops when ctx is done; the move it
// returns is then the best of the last completed iteration, or of the
// first iteration so far, or the first legal move.
func (s *Searcher) Search(ctx context.Context, pos *engine.Position, limits Limits, onInfo func(Info)) Result {
	s.prepare(ctx, pos, limits)
	root := s.pos
	if len(s.rootMoves) == 0 {
		return Result{Score: s.terminalScore(root)}
	}
	if s.opts.Prober != nil && len(limits.SearchMoves) == 0 {
		if wdl, dtm, best, ok := s.opts.Prober.Probe(root, true); ok && best != engine.NoMove && s.isRootMove(best) {
			s.tbHits++
			score := tablebaseScore(wdl, dtm, 0)
			if onInfo != nil {
				onInfo(Info{Depth: 1, SelDepth: 1, MultiPV: 1, Score: score, Nodes: s.nodes, TBHits: s.tbHits,
					Time: time.Since(s.start), PV: []engine.Move{best}})
			}
			return Result{Best: best, Score: score, Depth: 1, Nodes: s.nodes}
		}
	}
	soft, hard := limits.budget(root.SideToMove(), s.opts.MoveOverhead)
	if hard > 0 {
		s.hardStop = s.start.Add(hard)
	}
	maxDepth := MaxPly - 1
	if limits.Depth > 0 {
		maxDepth = min(limits.Depth, maxDepth)
	}
	res := Result{Best: s.rootMoves[0]}
	lines := min(max(limits.MultiPV, 1), len(s.rootMoves))
	prev := make([]Score, lines)
	for depth := 1; depth <= maxDepth; depth++ {
		s.excluded = s.excluded[:0]
		var infos []Info
		for line := 0; line < lines; line++ {
			score := s.aspiration(depth, prev[line])
			if s.stopped {
				break
			}
			prev[line] = score
			if line == 0 {
				res = Result{Best: s.pv[0][0], Score: score, Depth: depth, Nodes: s.nodes}
				s.rootBest = res.Best
				if s.pvLen[0] > 1 {
					res.Ponder = s.pv[0][1]
				}
			}
			info := s.info(depth, score)
			info.MultiPV = line + 1
			infos = append(infos, info)
			s.excluded = append(s.excluded, s.pv[0][0])
		}
		if s.stopped {
			// An interrupted first iteration still beats no move at all.
			if res.Depth == 0 && s.pvLen[0] > 0 {
				res.Best = s.pv[0][0]
			}
			break
		}
		if onInfo != nil {
			for _, info := range infos {
				onInfo(info)
			}
		}
		if s.doneAfterIteration(depth, res.Score, soft) {
			break
		}
	}
	res.Nodes = s.nodes
	return res
}

// prepare resets the per-search state.
func (s *Searcher) prepare(ctx context.Context, pos *engine.Position, limits Limits) {
	s.start = time.Now()
	s.ctx, s.limits = ctx, limits
	s.pos = pos.Clone()
	if s.variant != pos.Variant() {
		s.variant = pos.Variant()
		s.eval = eval.New(s.variant)
		s.Clear()
	}
	v := s.variant
	s.noNull = s.opts.test.pure || v.MustCapture || (v.StalemateValue != engine.NoValue && v.StalemateValue != engine.DrawValue)
	s.nodes, s.tbHits, s.selDepth, s.stopped = 1, 0, 0, false // the root
	s.hardStop, s.rootBest = time.Time{}, engine.NoMove
	s.tt.newSearch()
	for i := range s.history {
		for j := range s.history[i] {
			s.history[i][j] /= 4 // keep a little of what the last search learnt
		}
	}
	s.rootMoves = s.pos.LegalMoves(s.rootMoves[:0])
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

func (s *Searcher) isRootMove(m engine.Move) bool {
	for _, r := range s.rootMoves {
		if r == m {
			return true
		}
	}
	return false
}

// doneAfterIteration decides whether to start another iteration.
func (s *Searcher) doneAfterIteration(depth int, score Score, soft time.Duration) bool {
	l := s.limits
	if l.Infinite {
		return false
	}
	if l.Mate > 0 && score.IsMate() && score > 0 && score.MateMoves() <= l.Mate {
		return true
	}
	if soft > 0 && time.Since(s.start) >= soft {
		return true
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

func abs(s Score) Score {
	if s < 0 {
		return -s
	}
	return s
}

// info builds the report of a completed iteration.
func (s *Searcher) info(depth int, score Score) Info {
	elapsed := time.Since(s.start)
	nps := uint64(0)
	if elapsed > 0 {
		nps = uint64(float64(s.nodes) / elapsed.Seconds())
	}
	return Info{Depth: depth, SelDepth: s.selDepth, Score: score, Nodes: s.nodes, NPS: nps, Time: elapsed,
		HashFull: s.tt.hashfull(), TBHits: s.tbHits, PV: append([]engine.Move(nil), s.pv[0][:s.pvLen[0]]...)}
}

// aspiration searches the root with a window around the last score,
// widening it on failure.
func (s *Searcher) aspiration(depth int, prev Score) Score {
	if depth < 4 || s.opts.test.pure || prev.IsMate() {
		return s.negamax(depth, -Infinity, Infinity, 0, true)
	}
	delta := Score(50)
	alpha, beta := max(prev-delta, -Infinity), min(prev+delta, Infinity)
	for {
		score := s.negamax(depth, alpha, beta, 0, true)
		if s.stopped {
			return score
		}
		switch {
		case score <= alpha:
			alpha = max(score-delta, -Infinity)
		case score >= beta:
			beta = min(score+delta, Infinity)
		default:
			return score
		}
		delta *= 3
		if delta > 1000 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// checkStop polls the stop conditions every few thousand nodes.
func (s *Searcher) checkStop() bool {
	if s.stopped {
		return true
	}
	if s.limits.Nodes > 0 && s.nodes >= s.limits.Nodes {
		s.stopped = true
		return true
	}
	if s.nodes&2047 != 0 {
		return false
	}
	select {
	case <-s.ctx.Done():
		s.stopped = true
	default:
		if !s.hardStop.IsZero() && time.Now().After(s.hardStop) {
			s.stopped = true
		}
	}
	return s.stopped
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

// negamax is the principal variation search. It returns the score of the
// node for the side to move, searched to depth (plus extensions).
func (s *Searcher) negamax(depth int, alpha, beta Score, ply int, pvNode bool) Score {
	p := s.pos
	s.pvLen[ply] = 0
	if ply > 0 {
		if s.checkStop() {
			return 0
		}
		if !s.opts.test.pure && (p.Repeated() || (!s.opts.IgnoreMoveRule && p.MoveRuleReached())) {
			return 0
		}
		if r, over := p.ImmediateEnd(); over {
			return outcomeScore(r, ply)
		}
		if !s.opts.test.pure {
			// Mate-distance pruning: no line from here beats a mate
			// already found closer to the root.
			alpha, beta = max(alpha, MatedIn(ply)), min(beta, MateIn(ply+1))
			if alpha >= beta {
				return alpha
			}
		}
		if s.opts.Prober != nil {
			if wdl, dtm, _, ok := s.opts.Prober.Probe(p, false); ok {
				s.tbHits++
				return tablebaseScore(wdl, dtm, ply)
			}
		}
	}
	inCheck := p.InCheck()
	if inCheck && ply < MaxPly/2 {
		depth++ // check extension
	}
	if depth <= 0 || ply >= MaxPly-1 {
		return s.quiesce(alpha, beta, ply, 0)
	}
	s.selDepth = max(s.selDepth, ply)

	ttMove := engine.NoMove
	if !s.opts.test.noTT {
		if e, ok := s.tt.probe(p.Key()); ok {
			ttMove = e.move
			usable := int(e.depth) >= depth
			if s.opts.test.exactDepthTT {
				usable = int(e.depth) == depth
			}
			if usable && !pvNode && ply > 0 {
				score := fromTT(Score(e.score), ply)
				switch {
				case e.bound == BoundExact,
					e.bound == BoundLower && score >= beta,
					e.bound == BoundUpper && score <= alpha:
					return score
				}
			}
		}
	}

	// Null-move pruning: if passing still fails high, a real move will too.
	if !pvNode && !inCheck && !s.noNull && depth >= 3 && ply > 0 && p.HasNonPawnMaterial(p.SideToMove()) &&
		beta < MateBound && s.evaluate(p) >= beta {
		r := 2 + depth/6
		p.MakeNull()
		s.nodes++
		score := -s.negamax(depth-1-r, -beta, -beta+1, ply+1, false)
		p.UnmakeNull()
		if s.stopped {
			return 0
		}
		if score >= beta {
			return beta
		}
	}

	var moves []engine.Move
	if ply == 0 {
		moves = s.moves[0][:0] // the root moves: SearchMoves, less earlier MultiPV lines
		for _, m := range s.rootMoves {
			if !slices.Contains(s.excluded, m) {
				moves = append(moves, m)
			}
		}
		if s.rootBest != engine.NoMove && len(s.excluded) == 0 {
			ttMove = s.rootBest
		}
	} else {
		moves = p.LegalMoves(s.moves[ply])
	}
	s.moves[ply] = moves[:0]
	if len(moves) == 0 {
		return outcomeScore(p.NoMoveResult(), ply)
	}
	scores := s.scoreBuffer(ply, len(moves))
	s.scoreMoves(p, moves, scores, ttMove, ply)

	best, bestMove, bound := -Infinity, engine.NoMove, BoundUpper
	for i := range moves {
		pickNext(moves, scores, i)
		m := moves[i]
		tactical := p.IsCapture(m) || m.Promotion() != 0
		p.Make(m)
		s.nodes++ // a node is a position visited, as Stockfish counts
		var score Score
		if i == 0 {
			score = -s.negamax(depth-1, -beta, -alpha, ply+1, pvNode)
		} else {
			reduction := 0
			// Late-move reductions, off (like the null move) where the
			// variant makes zugzwang common.
			if !s.noNull && depth >= 3 && i >= 3 && !inCheck && !tactical && scores[i] < orderKiller2 && !p.InCheck() {
				reduction = 1
				if i >= 8 && depth >= 6 {
					reduction = 2
				}
			}
			score = -s.negamax(depth-1-reduction, -alpha-1, -alpha, ply+1, false)
			if score > alpha && reduction > 0 && !s.stopped {
				score = -s.negamax(depth-1, -alpha-1, -alpha, ply+1, false)
			}
			if score > alpha && score < beta && !s.stopped {
				score = -s.negamax(depth-1, -beta, -alpha, ply+1, true)
			}
		}
		p.Unmake()
		if s.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha, bound = score, BoundExact
				s.updatePV(ply, m)
				if score >= beta {
					bound = BoundLower
					if !tactical {
						s.rewardQuiet(p, m, moves[:i], depth, ply)
					}
					break
				}
			}
		}
	}
	if !s.opts.test.noTT && (ply > 0 || len(s.excluded) == 0) {
		// A root searched without some of its moves is not the position's
		// value: it is not stored.
		s.tt.store(p.Key(), bestMove, toTT(best, ply), depth, bound)
	}
	return best
}

// scoreBuffer returns the ordering-score buffer of ply with room for n.
func (s *Searcher) scoreBuffer(ply, n int) []int32 {
	if cap(s.scores[ply]) < n {
		s.scores[ply] = make([]int32, n)
	}
	return s.scores[ply][:n]
}

// updatePV makes m followed by the child's line the principal variation of
// ply.
func (s *Searcher) updatePV(ply int, m engine.Move) {
	s.pv[ply][0] = m
	n := s.pvLen[ply+1]
	copy(s.pv[ply][1:], s.pv[ply+1][:n])
	s.pvLen[ply] = n + 1
}

// maxQuiescence bounds the capture sequence searched beyond the depth
// limit (the documents' capture extension, up to six plies there; here
// with stand-pat, so most lines end far sooner).
const maxQuiescence = 8

// quiesce searches captures (and promotions; all evasions when in check)
// until the position is quiet, letting the side to move stand pat on the
// static evaluation.
func (s *Searcher) quiesce(alpha, beta Score, ply, qply int) Score {
	p := s.pos
	s.pvLen[ply] = 0
	if s.checkStop() {
		return 0
	}
	s.selDepth = max(s.selDepth, ply)
	if r, over := p.ImmediateEnd(); over {
		return outcomeScore(r, ply)
	}
	inCheck := p.InCheck()
	best := -Infinity
	standPat := !inCheck || qply >= maxQuiescence || ply >= MaxPly-1
	if standPat {
		// Standing pat before generating moves saves the generation at most
		// quiescence nodes; the rare stalemate among them is missed.
		best = s.evaluate(p)
		if best >= beta || qply >= maxQuiescence || ply >= MaxPly-1 {
			return best
		}
		alpha = max(alpha, best)
	}
	var moves []engine.Move
	if standPat {
		moves = p.LegalCaptures(s.moves[ply])
	} else {
		moves = p.LegalMoves(s.moves[ply])
		if len(moves) == 0 {
			return outcomeScore(p.NoMoveResult(), ply)
		}
	}
	s.moves[ply] = moves[:0]
	scores := s.scoreBuffer(ply, len(moves))
	s.scoreMoves(p, moves, scores, engine.NoMove, ply)
	for i := range moves {
		pickNext(moves, scores, i)
		p.Make(moves[i])
		s.nodes++
		score := -s.quiesce(-beta, -alpha, ply+1, qply+1)
		p.Unmake()
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.updatePV(ply, moves[i])
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}
