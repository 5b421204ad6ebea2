package search

import "github.com/chimera-chess/chimera/engine"

// Move ordering scores, best first: the transposition-table move; captures
// and promotions that do not lose material (by static exchange), by MVV-LVA
// (most valuable victim, least valuable attacker); the killer moves of the
// ply and the counter-move to the opponent's last move; the other quiet
// moves by their histories; last, the captures that lose material.
const (
	orderTT          = 1 << 30
	orderGoodCapture = 1 << 28
	orderKiller1     = 1 << 26
	orderKiller2     = orderKiller1 - 1
	orderCounter     = orderKiller1 - 2
	// orderQuiet marks a quiet move not yet scored: above every history
	// score, so that the first time the selection reaches one, the quiet
	// moves are scored (see pick). Most nodes cut off on the table move or
	// a capture and never pay for the histories' scattered reads.
	orderQuiet      = orderKiller1 - 3
	orderBadCapture = -(1 << 28)
)

// historyMax bounds every history value: updates move a value toward it
// by a share of the distance left (the "gravity" formula), so none
// overflows and old lessons fade.
const historyMax = 16384

// contBits sizes the continuation-history tables (entries per table as a
// power of two): indexed by a hash of (previous piece, its target, piece,
// target), which on a 16×16 board with 32 piece kinds would need 2^28.
const contBits = 20

// histories are what a search thread learns about quiet moves: the main
// history by piece and target square, the counter-move to each
// (piece, target) of the opponent, and the continuation histories one and
// two plies back.
type histories struct {
	main    [64][engine.NumSquares]int16
	counter [64][engine.NumSquares]engine.Move
	cont    [2][1 << contBits]int16
}

// contIndex hashes a move pair into a continuation-history index.
func contIndex(prev engine.Piece, prevTo engine.Square, pc engine.Piece, to engine.Square) uint32 {
	k := uint64(prev)<<24 | uint64(prevTo)<<16 | uint64(pc)<<8 | uint64(to)
	return uint32((k * 0x9E3779B97F4A7C15) >> (64 - contBits))
}

// gravity moves h by bonus, scaled down as h nears ±historyMax.
func gravity(h *int16, bonus int) {
	bonus = max(min(bonus, historyMax), -historyMax)
	v := int(*h)
	v += bonus - v*abs(bonus)/historyMax
	*h = int16(v)
}

func abs[T ~int | ~int32](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// pairEntries returns the continuation-history entries of a quiet move of
// pc to `to` at ply, one and two plies back (nil where there is no move
// there, or the variant keeps no pair histories).
func (w *worker) pairEntries(pc engine.Piece, to engine.Square, ply int) [2]*int16 {
	c := w.pairsAt(ply)
	return w.pairEntriesIn(&c, pc, to)
}

// pairs are the moves one and two plies back that a ply's continuation
// histories are indexed by: read once for all the quiet moves of a node.
type pairs struct {
	piece [2]engine.Piece
	to    [2]engine.Square
	ok    [2]bool // a move there, and pair histories kept
}

// pairsAt returns the moves before ply.
func (w *worker) pairsAt(ply int) pairs {
	var c pairs
	if !w.s.pairHistories {
		return c
	}
	for back := 1; back <= 2 && back <= ply; back++ {
		if prev := &w.stack[ply-back]; prev.move != engine.NoMove {
			c.piece[back-1], c.to[back-1], c.ok[back-1] = prev.piece, prev.move.To(), true
		}
	}
	return c
}

// pairEntriesIn is pairEntries with the moves before the ply read.
func (w *worker) pairEntriesIn(c *pairs, pc engine.Piece, to engine.Square) [2]*int16 {
	var out [2]*int16
	for i := range out {
		if c.ok[i] {
			out[i] = &w.hist.cont[i][contIndex(c.piece[i], c.to[i], pc, to)]
		}
	}
	return out
}

// counterSlot returns the counter-move entry answering the opponent's last
// move at ply, or nil (no move there, or no pair histories).
func (w *worker) counterSlot(ply int) *engine.Move {
	if ply == 0 || !w.s.pairHistories {
		return nil
	}
	prev := &w.stack[ply-1]
	if prev.move == engine.NoMove {
		return nil
	}
	return &w.hist.counter[prev.piece][prev.move.To()]
}

// quietScore is a quiet move's history score, the moves before its ply
// in c. It reads the entries itself rather than through pairEntriesIn:
// returning their addresses made the whole search 1.11× slower (3M nodes,
// 6 pairs), this being its hottest loop.
func (w *worker) quietScore(c *pairs, pc engine.Piece, to engine.Square) int32 {
	score := int32(w.hist.main[pc][to])
	for i := range c.ok {
		if c.ok[i] {
			score += int32(w.hist.cont[i][contIndex(c.piece[i], c.to[i], pc, to)])
		}
	}
	return score
}

// scoreMoves fills scores for moves, given the ply's killers and
// counter-move.
func (w *worker) scoreMoves(p *engine.Position, moves []engine.Move, scores []int32, ttMove engine.Move, killers [2]engine.Move, counter engine.Move) {
	for i, m := range moves {
		switch {
		case m == ttMove:
			scores[i] = orderTT
		case p.IsCapture(m) || m.Promotion() != 0:
			scores[i] = w.captureScore(p, m)
		case m == killers[0]:
			scores[i] = orderKiller1
		case m == killers[1]:
			scores[i] = orderKiller2
		case m == counter:
			scores[i] = orderCounter
		default:
			scores[i] = orderQuiet
		}
	}
}

// pick moves the best remaining move to position i. Two parts of the
// ordering are worked out only when needed, as most nodes cut off after a
// few moves: a capture whose attacker is worth more than its victim is
// first taken to win (by MVV-LVA) and its exchange weighed only when it
// comes up, going behind the quiet moves if it loses material; and the
// quiet moves are scored by their histories the first time one comes up.
// The order is the one full scoring would give: a capture is demoted in
// place, before anything moves.
func (w *worker) pick(p *engine.Position, moves []engine.Move, scores []int32, i, ply int) {
	swap(moves, scores, i, w.bestWeighed(p, moves, scores, i))
	if scores[i] != orderQuiet {
		return
	}
	c := w.pairsAt(ply)
	for j := i; j < len(moves); j++ {
		if scores[j] == orderQuiet {
			scores[j] = w.quietScore(&c, p.MovedPiece(moves[j]), moves[j].To())
		}
	}
	swap(moves, scores, i, bestFrom(scores, i))
}

// bestWeighed returns the index of the best move from i on, a capture
// first taken to win having its exchange weighed: demoted in place if it
// loses material, and the best looked for again.
func (w *worker) bestWeighed(p *engine.Position, moves []engine.Move, scores []int32, i int) int {
	for {
		best := bestFrom(scores, i)
		if sc := scores[best]; sc < orderGoodCapture || sc >= orderTT || !w.exchangeMayLose(p, moves[best]) ||
			p.SEE(moves[best], &w.values) >= 0 {
			return best
		}
		scores[best] += orderBadCapture - orderGoodCapture
	}
}

// captureScore orders a capture or promotion: MVV-LVA among the captures
// that do not lose material, which come before the quiet moves, and the
// losing ones after them. The exchange is left to pick, which weighs it
// when the capture comes up (see exchangeMayLose).
func (w *worker) captureScore(p *engine.Position, m engine.Move) int32 {
	victim, attacker := w.exchangeValues(p, m)
	return orderGoodCapture + int32(victim)*32 - int32(min(attacker, 20000)/16)
}

// exchangeValues returns what capture or promotion m wins outright (the
// victim, and the piece promoted to) and the value of the piece that moves.
func (w *worker) exchangeValues(p *engine.Position, m engine.Move) (victim, attacker int) {
	victim = w.values[p.Captured(m)]
	if t := m.Promotion(); t != 0 {
		victim += w.values[engine.MakePiece(t, p.SideToMove())]
	}
	return victim, w.values[p.MovedPiece(m)]
}

// exchangeMayLose reports whether capture m needs its exchange weighed:
// only when the attacker is worth more than the victim (otherwise it
// cannot lose), and not where material does not decide (a capture that
// "loses" a queen may take the last knight and win).
func (w *worker) exchangeMayLose(p *engine.Position, m engine.Move) bool {
	victim, attacker := w.exchangeValues(p, m)
	return attacker > victim && !w.s.evalBlind
}

// bestFrom returns the index of the first best score from i on.
func bestFrom(scores []int32, i int) int {
	best := i
	for j := i + 1; j < len(scores); j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	return best
}

// swap exchanges moves i and j with their scores.
func swap(moves []engine.Move, scores []int32, i, j int) {
	moves[i], moves[j] = moves[j], moves[i]
	scores[i], scores[j] = scores[j], scores[i]
}

// rewardQuiet records a quiet move that caused a cut-off: as a killer of
// the ply, the counter to the opponent's last move, and in the histories;
// the quiet moves tried before it are penalised.
func (w *worker) rewardQuiet(p *engine.Position, m engine.Move, tried []engine.Move, depth, ply int) {
	if w.killers[ply][0] != m {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = m
	}
	if slot := w.counterSlot(ply); slot != nil {
		*slot = m
	}
	bonus := min(depth*depth*16+32*depth, 1600)
	w.addQuietHistory(p, m, bonus, ply)
	for _, q := range tried {
		if q != m {
			w.addQuietHistory(p, q, -bonus, ply)
		}
	}
}

// addQuietHistory updates a quiet move's main and continuation histories.
func (w *worker) addQuietHistory(p *engine.Position, m engine.Move, bonus, ply int) {
	pc, to := p.MovedPiece(m), m.To()
	gravity(&w.hist.main[pc][to], bonus)
	for _, h := range w.pairEntries(pc, to, ply) {
		if h != nil {
			gravity(h, bonus)
		}
	}
}
