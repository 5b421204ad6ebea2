package search

import (
	"slices"

	"github.com/chimera-chess/chimera/engine"
)

// picker hands a node its moves one at a time, best first, in stages, as
// Stockfish's staged move picker does, generating each kind of move only
// when the node needs it (most nodes cut off on the table move or a
// capture, and never pay for the quiet moves):
//
//  1. the table move, before any move is generated;
//  2. the captures and promotions (LegalCaptures) that do not lose
//     material, by MVV-LVA, each capture's exchange weighed when it comes
//     up;
//  3. the killer moves of the ply and the counter-move to the opponent's
//     last move, each tested for legality (IsLegal) rather than found in a
//     list;
//  4. then the rest (LegalQuiets) is generated and handed out with the
//     captures that lose material: the quiet moves by their histories,
//     scored when the first comes up, the losing captures last.
//
// Each move is handed out once, with the score full scoring would give
// it (scoreMoves, pick). The order is full scoring's too but for moves of
// equal score, which come in the order their stage's list holds them,
// and for the promotions LegalCaptures leaves out (a shogi piece's
// promotion on a quiet move), which come with the quiet moves, ahead of
// them.
//
// At the root (the moves are given), in quiescence (captures only) and
// where the variant's captures cannot be generated apart from its quiet
// moves (compulsory captures), everything is generated at once and
// picked by score.
type picker struct {
	w      *worker
	p      *engine.Position
	ply    int
	ttMove engine.Move
	// captures: the node searches only LegalCaptures (quiescence not in
	// check); root: moves are given (the root's list) and nothing is
	// generated; staged: neither, and the variant generates its captures
	// apart from its quiet moves (engine.Variant.QuietsApart): otherwise
	// every move is generated at once and picked by score.
	captures, root, staged bool

	// refutations are the killers and the counter-move, read when the
	// node starts (before the table move's subtree can rewrite the
	// counter-move's slot); tried counts those looked at, and handedOut
	// has bit k set for refutations[k] handed out.
	refutations [3]engine.Move
	tried       int
	handedOut   uint8

	stage   pickStage
	ttFirst bool // the table move was handed out before generating
	moves   []engine.Move
	scores  []int32
	next    int // index in moves of the next move to hand out
}

// pickStage is where a picker stands.
type pickStage uint8

const (
	stageTT           pickStage = iota // the table move, if legal here
	stageCaptures                      // generate and score the captures (or all moves)
	stageGoodCaptures                  // hand out those that do not lose material
	stageRefutations                   // the killers and the counter-move
	stageQuiets                        // generate and score the other moves
	stageRest                          // hand out what is left, by score
)

// refutationScores are the ordering scores of the killers and the
// counter-move, in refutations' order.
var refutationScores = [3]int32{orderKiller1, orderKiller2, orderCounter}

// newPicker returns the picker of a node at ply. With root, moves holds
// the root's moves (w.moves[0]); otherwise the node generates them into
// w.moves[ply], only the captures where captures is set.
func (w *worker) newPicker(ply int, ttMove engine.Move, captures, root bool, moves []engine.Move) picker {
	mp := picker{w: w, p: w.pos, ply: ply, ttMove: ttMove, captures: captures, root: root, moves: moves,
		staged: !captures && !root && w.s.quietsApart}
	mp.refutations[0], mp.refutations[1] = w.killers[ply][0], w.killers[ply][1]
	if slot := w.counterSlot(ply); slot != nil {
		mp.refutations[2] = *slot
	}
	if root {
		mp.stage = stageCaptures
	}
	return mp
}

// nextMove returns the next move and its ordering score, or ok false when
// the node's moves are exhausted.
func (mp *picker) nextMove() (m engine.Move, score int32, ok bool) {
	switch mp.stage {
	case stageTT:
		mp.stage = stageCaptures
		if mp.ttMove != engine.NoMove && mp.ttLegal() {
			mp.ttFirst = true
			return mp.ttMove, orderTT, true
		}
		fallthrough
	case stageCaptures:
		mp.generate()
		mp.stage = stageGoodCaptures
		if !mp.staged {
			mp.stage = stageRest // everything is generated: pick by score
			break
		}
		fallthrough
	case stageGoodCaptures:
		if i := mp.next; i < len(mp.moves) {
			if best := mp.w.bestWeighed(mp.p, mp.moves, mp.scores, i); mp.scores[best] >= orderGoodCapture {
				swap(mp.moves, mp.scores, i, best)
				mp.next++
				return mp.moves[i], mp.scores[i], true
			}
		}
		mp.stage = stageRefutations
		fallthrough
	case stageRefutations:
		if m, score, ok := mp.nextRefutation(); ok {
			return m, score, true
		}
		mp.stage = stageQuiets
		fallthrough
	case stageQuiets:
		mp.generateQuiets()
		mp.stage = stageRest
	}
	if mp.next >= len(mp.moves) {
		return engine.NoMove, 0, false
	}
	i := mp.next
	mp.next++
	mp.w.pick(mp.p, mp.moves, mp.scores, i, mp.ply)
	return mp.moves[i], mp.scores[i], true
}

// ttLegal reports whether the table move is among the moves the node
// would generate (a stale or colliding entry's move is not): a capture
// where only captures are searched.
func (mp *picker) ttLegal() bool {
	if mp.captures {
		return mp.p.IsLegalCapture(mp.ttMove)
	}
	return mp.p.IsLegal(mp.ttMove)
}

// generate fills and scores the node's first list: the captures and
// promotions, or all its moves where it is not staged (the root's are
// given). A table move already handed out is put first, where pick would
// have put it, and not handed out again.
func (mp *picker) generate() {
	w, p := mp.w, mp.p
	switch {
	case mp.root:
	case mp.captures || mp.staged:
		mp.moves = p.LegalCaptures(w.moves[mp.ply])
	default:
		mp.moves = p.LegalMoves(w.moves[mp.ply])
	}
	if !mp.root {
		w.moves[mp.ply] = mp.moves[:0] // keep a grown buffer
	}
	mp.scores = w.scoreBuffer(mp.ply, len(mp.moves))
	w.scoreMoves(p, mp.moves, mp.scores, mp.ttMove, mp.killers(), mp.refutations[2])
	if !mp.ttFirst {
		return
	}
	// A table move handed out in a staged node may be a quiet move,
	// which this list does not hold; otherwise IsLegal's (or
	// IsLegalCapture's) answer makes it one of them (the picker's test
	// checks that it is).
	if i := slices.Index(mp.moves, mp.ttMove); i >= 0 {
		swap(mp.moves, mp.scores, 0, i)
		mp.next = 1
	}
}

// killers returns the ply's killer moves as the node read them.
func (mp *picker) killers() [2]engine.Move {
	return [2]engine.Move{mp.refutations[0], mp.refutations[1]}
}

// nextRefutation hands out the next killer or counter-move that is a
// legal quiet move here, not the table move and not one handed out
// already. One the captures' list holds (a pawn's step into the
// promotion zone left unpromoted) is taken out of it.
func (mp *picker) nextRefutation() (engine.Move, int32, bool) {
	for mp.tried < len(mp.refutations) {
		k := mp.tried
		m := mp.refutations[k]
		mp.tried++
		if m == engine.NoMove || m == mp.ttMove || slices.Contains(mp.refutations[:k], m) ||
			mp.p.IsCapture(m) || m.Promotion() != 0 || !mp.p.IsLegal(m) {
			continue
		}
		if i := slices.Index(mp.moves[mp.next:], m); i >= 0 {
			i += mp.next
			mp.moves = slices.Delete(mp.moves, i, i+1)
			mp.scores = slices.Delete(mp.scores, i, i+1)
		}
		mp.handedOut |= 1 << k
		return m, refutationScores[k], true
	}
	return engine.NoMove, 0, false
}

// refuted reports whether m was handed out as a refutation.
func (mp *picker) refuted(m engine.Move) bool {
	for k, r := range mp.refutations {
		if mp.handedOut>>k&1 != 0 && r == m {
			return true
		}
	}
	return false
}

// generateQuiets adds the moves LegalCaptures left out to those not yet
// handed out, less the table move and the refutations handed out, and
// scores them.
func (mp *picker) generateQuiets() {
	w, p := mp.w, mp.p
	quiets := p.LegalQuiets(w.later[:0])
	w.later = quiets[:0] // keep a grown buffer
	n := len(mp.moves)
	for _, m := range quiets {
		if m != mp.ttMove && !mp.refuted(m) {
			mp.moves = append(mp.moves, m)
		}
	}
	w.moves[mp.ply] = mp.moves[:0]
	if len(mp.moves) > cap(mp.scores) {
		mp.scores = append(make([]int32, 0, len(mp.moves)), mp.scores...)
		w.scores[mp.ply] = mp.scores
	}
	mp.scores = mp.scores[:len(mp.moves)]
	w.scoreMoves(p, mp.moves[n:], mp.scores[n:], mp.ttMove, mp.killers(), mp.refutations[2])
}
