package search

import (
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
)

// worker is one search thread: its own position, move buffers, killers
// and histories, sharing only the transposition table (and the stop flag)
// with the others. Worker 0 is the main thread, which reports and decides
// when to stop; the helpers of Lazy SMP search the same root to fill the
// shared table, each a little differently (depth offsets, their own
// histories), and the main thread profits from what they store.
type worker struct {
	s  *Searcher
	id int

	pos  *engine.Position
	eval eval.Evaluator
	// track follows the line for an evaluation that keeps state along
	// it (eval.Incremental), nil for the others: told of every move made
	// and unmade in the tree (makeMove, unmakeMove).
	track  eval.Tracker
	values [64]int // piece values by piece code, for exchanges
	evals  evalCache
	hist   histories

	killers [MaxPly + 1][2]engine.Move
	stack   [MaxPly + 2]frame
	moves   [MaxPly + 1][]engine.Move
	scores  [MaxPly + 1][]int32
	quiets  [MaxPly + 1][]engine.Move
	later   []engine.Move // LegalQuiets' list, before the picker takes it
	pv      [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen   [MaxPly + 1]int

	// nodes is this thread's count, its own to write; published is what
	// the main thread reads of it while it runs, refreshed every 1024
	// nodes and when the thread stops (an atomic write a node would cost
	// a locked instruction each).
	nodes     uint64
	published atomic.Uint64
	tbHits    atomic.Uint64
	selDepth  int
	stopped   bool // this worker has seen the stop
	rootBest  engine.Move
	rootScore Score // the score of the root's PV move, when it last changed
	// searching, when set (the main thread's, with a listener), is told
	// each root move as its search starts, and its number from 1.
	searching func(depth int, m engine.Move, number int)
	// excluded are the root moves reported on earlier MultiPV lines (the
	// main thread's; helpers search every root move).
	excluded []engine.Move
	lmr      *[64][64]int8
	// used: a search has run since the worker was made or cleared, so
	// its evaluation cache, killers and histories may hold something.
	// Until then they are zero and clear leaves them be: they are over
	// 4 MiB, and a new session cleared them three times (its variant,
	// its new game, its first search's variant) before searching once,
	// once a game in self-play, tuning and data generation.
	used bool
}

// frame is what a ply of the current line remembers for the plies below
// it: its static evaluation, and the move made from it (with the piece
// that moved) for counter-moves and continuation histories.
type frame struct {
	eval  Score
	move  engine.Move
	piece engine.Piece
}

// noEval marks a frame whose side to move was in check: no static
// evaluation was taken.
const noEval Score = -Infinity - 1

func newWorker(s *Searcher, id int) *worker {
	w := &worker{s: s, id: id, lmr: &s.lmr, later: make([]engine.Move, 0, engine.MaxMoves)}
	for i := range w.moves {
		w.moves[i] = make([]engine.Move, 0, engine.MaxMoves)
		w.scores[i] = make([]int32, engine.MaxMoves)
		w.quiets[i] = make([]engine.Move, 0, 64)
	}
	return w
}

// clear forgets everything the worker learnt.
func (w *worker) clear() {
	if !w.used {
		return // still zero (see used)
	}
	w.evals.clear()
	w.killers = [MaxPly + 1][2]engine.Move{}
	w.hist = histories{}
	w.used = false
}

// setVariant prepares the worker for a new variant.
func (w *worker) setVariant(e eval.Evaluator) {
	w.eval, w.track = e, nil
	if inc, ok := e.(eval.Incremental); ok {
		w.track = inc.NewTracker()
	}
	for pc := range w.values {
		w.values[pc] = e.Value(engine.Piece(pc))
	}
	w.clear()
}

// prepare resets the per-search state for root.
func (w *worker) prepare(root *engine.Position) {
	w.used = true // what follows may fill the caches and histories
	w.pos = root.Clone()
	if w.track != nil {
		w.track.Reset(w.pos)
	}
	w.nodes = 0
	w.published.Store(0)
	w.tbHits.Store(0)
	w.selDepth, w.stopped, w.rootBest = 0, false, engine.NoMove
	for i := range w.hist.main {
		for j := range w.hist.main[i] {
			w.hist.main[i][j] /= 2 // keep some of what the last search learnt
		}
	}
	w.killers = [MaxPly + 1][2]engine.Move{}
	w.stack = [MaxPly + 2]frame{}
}

// visit counts a node.
func (w *worker) visit() {
	w.nodes++
	if w.nodes&1023 == 0 {
		w.published.Store(w.nodes)
	}
}

// checkStop polls the stop conditions every few thousand nodes.
func (w *worker) checkStop() bool {
	if w.stopped {
		return true
	}
	s := w.s
	if s.stop.Load() {
		w.stopped = true
		return true
	}
	nodes := w.nodes
	if w.id != 0 {
		return false // helpers stop when the main thread says
	}
	if s.limits.Later != nil && !s.granted {
		if more := s.limits.Later.more.Load(); more > 0 {
			s.granted = true
			if end := s.totalNodes() + more; s.nodeLimit == 0 || end < s.nodeLimit {
				s.nodeLimit = end
			}
		}
	}
	if s.nodeLimit > 0 && s.totalNodes() >= s.nodeLimit {
		w.stopped = true
		return true
	}
	if nodes&2047 != 0 {
		return false
	}
	select {
	case <-s.ctx.Done():
		w.stopped = true
	default:
		if !s.hardStop.IsZero() && time.Now().After(s.hardStop) {
			w.stopped = true
		}
	}
	return w.stopped
}

// evaluate returns the static evaluation of p for the side to move.
func (w *worker) evaluate(p *engine.Position) Score {
	key := p.Key()
	i := key & (evalCacheSize - 1)
	// A zero key would match an empty slot; such positions are just not
	// cached.
	if key != 0 && w.evals.keys[i] == key {
		return Score(w.evals.scores[i])
	}
	var score int
	if w.track != nil {
		score = w.track.Evaluate(p)
	} else {
		score = w.eval.Evaluate(p)
	}
	w.evals.keys[i], w.evals.scores[i] = key, int32(score)
	return Score(score)
}

// makeMove plays m in the tree, telling the tracker.
func (w *worker) makeMove(m engine.Move) {
	w.pos.Make(m)
	if w.track != nil {
		w.track.Push(w.pos)
	}
}

// unmakeMove takes back the last move of the tree.
func (w *worker) unmakeMove() {
	w.pos.Unmake()
	if w.track != nil {
		w.track.Pop()
	}
}

// makeNull passes in the tree (the null move), telling the tracker.
func (w *worker) makeNull() {
	w.pos.MakeNull()
	if w.track != nil {
		w.track.Push(w.pos)
	}
}

// unmakeNull takes back the pass.
func (w *worker) unmakeNull() {
	w.pos.UnmakeNull()
	if w.track != nil {
		w.track.Pop()
	}
}

// iterate is a helper thread's search: iterative deepening from its own
// first depth (so the helpers do not all search the same depth at once),
// until the stop. The main thread's loop is Searcher.Search.
func (w *worker) iterate(maxDepth int) {
	prev := Score(0)
	for depth := 1 + w.id%2; depth <= maxDepth && !w.stopped; depth++ {
		prev = w.aspiration(depth, prev, nil)
	}
	w.published.Store(w.nodes)
}

// aspiration searches the root with a window around the last score,
// widening it on failure; failed, when set, is told each failure's bound
// (low: the score is at most bound; else at least).
func (w *worker) aspiration(depth int, prev Score, failed func(bound Score, low bool)) Score {
	if depth < 4 || w.s.opts.test.pure || prev.IsDecisive() || w.s.evalBlind {
		return w.negamax(depth, -Infinity, Infinity, 0, true)
	}
	delta := Score(30)
	alpha, beta := max(prev-delta, -Infinity), min(prev+delta, Infinity)
	for {
		score := w.negamax(depth, alpha, beta, 0, true)
		if w.stopped {
			return score
		}
		low := score <= alpha
		switch {
		case low:
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -Infinity)
		case score >= beta:
			beta = min(score+delta, Infinity)
		default:
			return score
		}
		if failed != nil {
			failed(score, low)
		}
		delta += delta
		if delta > 1000 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// negamax is the principal variation search. It returns the score of the
// node for the side to move, searched to depth (plus extensions).
func (w *worker) negamax(depth int, alpha, beta Score, ply int, pvNode bool) Score {
	s, p := w.s, w.pos
	test := &s.opts.test
	w.pvLen[ply] = 0
	root := ply == 0
	if !root {
		if w.checkStop() {
			return 0
		}
		// A rule's end first: two passes in janggi repeat a position
		// but end the game by material points.
		if r, over := p.ImmediateEnd(); over {
			return outcomeScore(r, ply)
		}
		if !test.pure && p.Repeated() {
			if r, lost := p.PerpetualCheck(); lost {
				return outcomeScore(r, ply) // the perpetual checker loses
			}
			return 0
		}
		if !test.pure && !s.opts.IgnoreMoveRule && p.MoveRuleReached() {
			return 0
		}
		if !test.pure {
			// Mate-distance pruning: no line from here beats a mate
			// already found closer to the root.
			alpha, beta = max(alpha, MatedIn(ply)), min(beta, MateIn(ply+1))
			if alpha >= beta {
				return alpha
			}
		}
		if s.opts.Prober != nil {
			if wdl, dtm, _, ok := s.opts.Prober.Probe(p, false); ok {
				w.tbHits.Add(1)
				return tablebaseScore(wdl, dtm, ply)
			}
		}
		if s.opts.ResultProber != nil {
			if wdl, ok := s.opts.ResultProber.ProbeResult(p, depth); ok {
				w.tbHits.Add(1)
				return resultScore(wdl, ply)
			}
		}
	}
	inCheck := p.InCheck()
	if inCheck && ply < MaxPly/2 {
		depth++ // check extension
	}
	if depth <= 0 || ply >= MaxPly-1 {
		return w.quiesce(alpha, beta, ply, 0)
	}
	w.selDepth = max(w.selDepth, ply)

	// The table: a cut-off, or at least a move to try first.
	ttMove, ttHit := engine.NoMove, false
	var tt ttEntry
	if !test.noTT {
		if tt, ttHit = s.tt.probe(p.Key()); ttHit {
			ttMove = tt.move
			usable := int(tt.depth) >= depth
			if test.exactDepthTT {
				usable = int(tt.depth) == depth
			}
			if usable && !pvNode && !root {
				score := fromTT(Score(tt.score), ply)
				switch {
				case tt.bound == BoundExact,
					tt.bound == BoundLower && score >= beta,
					tt.bound == BoundUpper && score <= alpha:
					return score
				}
			}
		}
	}

	// The static evaluation, and whether it improved on two plies ago
	// (our last turn): pruning is bolder where it has not.
	here := &w.stack[ply]
	here.eval = noEval
	staticEval, improving := Score(0), false
	// Only pruning and the null move read the evaluation here: where both
	// are off (compulsory captures) the mobility count is not paid for.
	if !inCheck && (s.prune || s.nullOK) {
		staticEval = w.evaluate(p)
		here.eval = staticEval
		improving = ply >= 2 && w.stack[ply-2].eval != noEval && staticEval > w.stack[ply-2].eval
		if ttHit && !Score(tt.score).IsDecisive() {
			// A searched bound is a better guess than the static one.
			ts := Score(tt.score)
			if tt.bound == BoundExact || (tt.bound == BoundLower && ts > staticEval) || (tt.bound == BoundUpper && ts < staticEval) {
				staticEval = ts
			}
		}
	}
	w.killers[ply+1] = [2]engine.Move{}

	if !pvNode && !inCheck && !root && s.prune {
		// Reverse futility: so far above beta that a quiet reply will
		// not bring it back.
		if depth <= 7 && staticEval < DecisiveBound && beta > -DecisiveBound &&
			staticEval-Score(80*depth)+Score(btoi(improving)*40) >= beta {
			return staticEval
		}
		// Razoring: so far below alpha that only captures could help.
		if depth <= 3 && s.materialPruning && staticEval+Score(250*depth) < alpha {
			if score := w.quiesce(alpha-1, alpha, ply, 0); score < alpha {
				return score
			}
		}
	}

	// Null-move pruning: if passing still fails high, a real move will too.
	if !pvNode && !inCheck && s.nullOK && depth >= 3 && !root && w.stack[ply-1].move != engine.NoMove &&
		p.HasNonPawnMaterial(p.SideToMove()) && beta < DecisiveBound && staticEval >= beta {
		r := 3 + depth/4 + min(int(staticEval-beta)/200, 3)
		if s.evalBlind {
			r = 2 + depth/6 // the evaluation's margin over beta means little
		}
		here.move, here.piece = engine.NoMove, engine.NoPiece
		w.makeNull()
		w.visit()
		score := -w.negamax(depth-1-r, -beta, -beta+1, ply+1, false)
		w.unmakeNull()
		if w.stopped {
			return 0
		}
		if score >= beta {
			if score >= DecisiveBound {
				score = beta // an unproven mate or table win
			}
			return score
		}
	}

	// Internal iterative reduction: a node the table knows nothing about
	// is searched a ply shallower (its move ordering is a guess).
	if ttMove == engine.NoMove && depth >= 4 && !root && s.prune && !test.noTT {
		depth--
	}

	var rootMoves []engine.Move
	if root {
		rootMoves = w.moves[0][:0] // the root moves: SearchMoves, less earlier MultiPV lines
		for _, m := range s.rootMoves {
			if !slices.Contains(w.excluded, m) {
				rootMoves = append(rootMoves, m)
			}
		}
		if w.rootBest != engine.NoMove && len(w.excluded) == 0 {
			ttMove = w.rootBest
		}
	}
	picker := w.newPicker(ply, ttMove, false, root, rootMoves)

	quiets := w.quiets[ply][:0]
	us := p.SideToMove()
	best, bestMove, bound := -Infinity, engine.NoMove, BoundUpper
	i := -1 // the number of moves handed out before m
	for {
		m, order, ok := picker.nextMove()
		if !ok {
			break
		}
		i++
		tactical := p.IsCapture(m) || m.Promotion() != 0
		pruneable := !root && s.prune && !inCheck && best > -DecisiveBound
		if pruneable && tactical && s.materialPruning && depth <= 6 && order < orderGoodCapture &&
			p.SEE(m, &w.values) < -90*depth {
			continue // a capture that loses too much to matter here
		}
		// Late-move pruning (enough quiet moves have failed here) and
		// futility pruning (a quiet move from far below alpha at low
		// depth) spare the moves that give check: in variants that count
		// checks, or where a quiet check mates, they are the tactics.
		late, futile := false, false
		if pruneable && !tactical {
			late = len(quiets) >= (3+depth*depth)/(2-btoi(improving))
			lmrDepth := max(depth-1-int(w.lmr[min(depth, 63)][min(i, 63)]), 0)
			futile = lmrDepth <= 6 && staticEval+Score(100+90*lmrDepth) <= alpha
			if !late && !futile {
				futile = w.hopelessQuiet(p, m, lmrDepth, ply)
			}
		}

		if root && w.searching != nil {
			w.searching(depth, m, len(w.excluded)+i+1)
		}
		here.move, here.piece = m, p.MovedPiece(m)
		w.makeMove(m)
		givesCheck := p.InCheck()
		if (late || futile) && !givesCheck {
			w.unmakeMove()
			quiets = append(quiets, m)
			continue
		}
		w.visit() // a node is a position visited, as Stockfish counts
		// A pawn one step from promoting is searched a ply deeper, and not
		// reduced: its threat is a tactic the evaluation cannot see.
		newDepth := depth - 1
		pawnPush := !givesCheck && ply < MaxPly/2 && w.threatensPromotion(m, here.piece, us)
		if pawnPush {
			newDepth++
		}
		var score Score
		if i == 0 {
			score = -w.negamax(newDepth, -beta, -alpha, ply+1, pvNode)
		} else {
			reduction := 0
			// Late-move reductions, off (like the null move) where the
			// variant makes zugzwang common.
			if s.nullOK && depth >= 3 && i >= 2 && !inCheck && !pawnPush && (!tactical || order < orderKiller2) {
				reduction = w.reduction(depth, i, pvNode, improving, givesCheck, tactical, order)
			}
			score = -w.negamax(newDepth-reduction, -alpha-1, -alpha, ply+1, false)
			if score > alpha && reduction > 0 && !w.stopped {
				score = -w.negamax(newDepth, -alpha-1, -alpha, ply+1, false)
			}
			if score > alpha && score < beta && !w.stopped {
				score = -w.negamax(newDepth, -beta, -alpha, ply+1, true)
			}
		}
		w.unmakeMove()
		if w.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha, bound = score, BoundExact
				w.updatePV(ply, m)
				if root {
					w.rootScore = score
				}
				if score >= beta {
					bound = BoundLower
					if !tactical {
						w.rewardQuiet(p, m, quiets, depth, ply)
					}
					break
				}
			}
		}
		if !tactical {
			quiets = append(quiets, m)
		}
	}
	w.quiets[ply] = quiets[:0]
	if i < 0 {
		return outcomeScore(p.NoMoveResult(), ply) // no legal move
	}
	if best == -Infinity {
		return alpha // every move was pruned (never at the root)
	}
	if !test.noTT && (!root || len(w.excluded) == 0) {
		// A root searched without some of its moves is not the position's
		// value: it is not stored.
		s.tt.store(p.Key(), bestMove, toTT(best, ply), depth, bound)
	}
	return best
}

// threatensPromotion reports whether move m of piece pc (colour us's) is
// a pawn stepping next to its promotion zone (a drop there is not: it
// would extend every drop on the rank before the zone). Not where the
// evaluation is blind to the goal: a new queen is no gain in giveaway.
func (w *worker) threatensPromotion(m engine.Move, pc engine.Piece, us engine.Colour) bool {
	return !w.s.evalBlind && w.s.nearPromotion[us].Has(m.To()) && w.s.variant.IsPawn(pc) && m.Kind() != engine.Drop
}

// rootLine returns the first two moves of the main line at the root: the
// move to play and the reply expected (NoMove if the line is one move).
func (w *worker) rootLine() (best, ponder engine.Move) {
	best, ponder = w.pv[0][0], engine.NoMove
	if w.pvLen[0] > 1 {
		ponder = w.pv[0][1]
	}
	return best, ponder
}

// hopelessQuiet reports whether a quiet move near the horizon (lmrDepth:
// the depth it would be searched to after its reduction) is not worth
// searching: both continuation histories say it has failed after the
// last two moves, or it puts the piece where the exchange loses it.
func (w *worker) hopelessQuiet(p *engine.Position, m engine.Move, lmrDepth, ply int) bool {
	if lmrDepth < 3 {
		cont := w.pairEntries(p.MovedPiece(m), m.To(), ply)
		if cont[0] != nil && cont[1] != nil && *cont[0] < 0 && *cont[1] < 0 {
			return true
		}
	}
	if !w.s.materialPruning || lmrDepth >= 8 {
		return false
	}
	return p.SEE(m, &w.values) < -(32-lmrDepth)*lmrDepth*lmrDepth*100/128
}

// reduction returns how many plies shallower the i-th move (ordering
// score order) is searched at depth.
func (w *worker) reduction(depth, i int, pvNode, improving, givesCheck, tactical bool, order int32) int {
	if w.s.evalBlind {
		// The mild rule of old: where the evaluation is blind to the
		// goal, it cannot tell which late moves are bad.
		if tactical || givesCheck || i < 3 || order >= orderCounter {
			return 0
		}
		if i >= 8 && depth >= 6 {
			return 2
		}
		return 1
	}
	r := int(w.lmr[min(depth, 63)][min(i, 63)])
	if pvNode {
		r--
	}
	if !improving {
		r++
	}
	if givesCheck || order >= orderCounter {
		r--
	}
	if !tactical {
		r -= int(order) / 8192
	}
	return max(min(r, depth-2), 0)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lmrTable returns the late-move reductions by depth and move number: the
// logarithmic formula of the strongest engines (deeper and later moves
// are reduced more).
func lmrTable() [64][64]int8 {
	var t [64][64]int8
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.8 + math.Log(float64(d))*math.Log(float64(i))/2.4)
		}
	}
	return t
}

// scoreBuffer returns the ordering-score buffer of ply with room for n.
func (w *worker) scoreBuffer(ply, n int) []int32 {
	if cap(w.scores[ply]) < n {
		w.scores[ply] = make([]int32, n)
	}
	return w.scores[ply][:n]
}

// updatePV makes m followed by the child's line the principal variation of
// ply.
func (w *worker) updatePV(ply int, m engine.Move) {
	w.pv[ply][0] = m
	n := w.pvLen[ply+1]
	copy(w.pv[ply][1:], w.pv[ply+1][:n])
	w.pvLen[ply] = n + 1
}

// maxQuiescence bounds the capture sequence searched beyond the depth
// limit (the documents' capture extension, up to six plies there; here
// with stand-pat, so most lines end far sooner).
const maxQuiescence = 8

// deltaMargin is how much beyond a capture's victim a position may gain
// positionally (mobility) in quiescence.
const deltaMargin = 200

// quiesce searches captures (and promotions; all evasions when in check)
// until the position is quiet, letting the side to move stand pat on the
// static evaluation. Captures that lose material by static exchange, or
// that cannot bring the score up to alpha, are not searched.
func (w *worker) quiesce(alpha, beta Score, ply, qply int) Score {
	s, p := w.s, w.pos
	w.pvLen[ply] = 0
	if w.checkStop() {
		return 0
	}
	w.selDepth = max(w.selDepth, ply)
	if r, over := p.ImmediateEnd(); over {
		return outcomeScore(r, ply)
	}
	useTT := !s.opts.test.noTT && !s.opts.test.pure && !s.evalBlind
	ttMove := engine.NoMove
	if useTT {
		if tt, ok := s.tt.probe(p.Key()); ok {
			ttMove = tt.move
			score := fromTT(Score(tt.score), ply)
			switch {
			case tt.bound == BoundExact,
				tt.bound == BoundLower && score >= beta,
				tt.bound == BoundUpper && score <= alpha:
				return score
			}
		}
	}
	inCheck := p.InCheck()
	best := -Infinity
	standPat := !inCheck || qply >= maxQuiescence || ply >= MaxPly-1
	staticEval := Score(0)
	if standPat {
		// Standing pat before generating moves saves the generation at most
		// quiescence nodes; the rare stalemate among them is missed.
		staticEval = w.evaluate(p)
		best = staticEval
		if best >= beta || qply >= maxQuiescence || ply >= MaxPly-1 {
			return best
		}
		alpha = max(alpha, best)
	}
	// Only captures where the side to move may stand pat; every move in
	// check.
	picker := w.newPicker(ply, ttMove, standPat, false, nil)
	origAlpha := alpha
	bestMove := engine.NoMove
	searched := false // a move was handed out
	for {
		m, order, ok := picker.nextMove()
		if !ok {
			break
		}
		searched = true
		if standPat && s.prune && m != ttMove {
			if order < 0 {
				continue // loses material by exchange
			}
			gain := w.values[p.Captured(m)]
			if t := m.Promotion(); t != 0 {
				gain += w.values[engine.MakePiece(t, p.SideToMove())]
			}
			if s.materialPruning && staticEval+Score(gain+deltaMargin) <= alpha {
				continue // cannot reach alpha
			}
		}
		w.stack[ply].move, w.stack[ply].piece = m, p.MovedPiece(m)
		w.makeMove(m)
		w.visit()
		score := -w.quiesce(-beta, -alpha, ply+1, qply+1)
		w.unmakeMove()
		if w.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha, bestMove = score, m
				w.updatePV(ply, m)
				if score >= beta {
					break
				}
			}
		}
	}
	if !searched && !standPat {
		return outcomeScore(p.NoMoveResult(), ply) // in check with no legal move
	}
	if useTT {
		bound := BoundUpper
		switch {
		case best >= beta:
			bound = BoundLower
		case best > origAlpha:
			bound = BoundExact
		}
		s.tt.store(p.Key(), bestMove, toTT(best, ply), 0, bound)
	}
	return best
}
