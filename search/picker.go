package search

import "github.com/chimera-chess/chimera/engine"

// picker hands a node its moves one at a time, best first, in stages, as
// Stockfish's staged move picker does: the table move, played before any
// move is generated (most nodes that have one cut off on it); then the
// generated moves in the order scoreMoves and pick give them (captures by
// MVV-LVA, their exchanges weighed when they come up, the killers and the
// counter-move, the quiet moves by their histories when the first comes
// up, the losing captures last).
//
// The rules core generates the quiet moves only with the rest (its rules
// on top of the moves — compulsory drops, gating, forbidden drops — weigh
// the list as a whole), so after the table move the picker generates all
// the node's moves at once. Their order is exactly the one a node that
// generated first would give: the table move is swapped to the front as
// pick would have put it there, and the killers and the counter-move are
// read when the node starts, before the table move's subtree can rewrite
// the counter-move's slot.
type picker struct {
	w      *worker
	p      *engine.Position
	ply    int
	ttMove engine.Move
	// captures: the node searches only LegalCaptures (quiescence not in
	// check); root: moves are given (the root's list) and nothing is
	// generated.
	captures, root bool

	killers [2]engine.Move
	counter engine.Move

	stage   pickStage
	ttFirst bool // the table move was handed out before generating
	moves   []engine.Move
	scores  []int32
	next    int // index in moves of the next move to hand out
}

// pickStage is where a picker stands.
type pickStage uint8

const (
	stageTT       pickStage = iota // the table move, if legal here
	stageGenerate                  // generate and score the moves
	stagePick                      // hand out the generated moves
)

// newPicker returns the picker of a node at ply. With root, moves holds
// the root's moves (w.moves[0]); otherwise the node generates them into
// w.moves[ply], only the captures where captures is set.
func (w *worker) newPicker(ply int, ttMove engine.Move, captures, root bool, moves []engine.Move) picker {
	mp := picker{w: w, p: w.pos, ply: ply, ttMove: ttMove, captures: captures, root: root, moves: moves,
		killers: w.killers[ply]}
	if slot := w.counterSlot(ply); slot != nil {
		mp.counter = *slot
	}
	if root {
		mp.stage = stageGenerate
	}
	return mp
}

// nextMove returns the next move and its ordering score, or ok false when
// the node's moves are exhausted.
func (mp *picker) nextMove() (m engine.Move, score int32, ok bool) {
	switch mp.stage {
	case stageTT:
		mp.stage = stageGenerate
		if mp.ttMove != engine.NoMove && mp.ttLegal() {
			mp.ttFirst = true
			return mp.ttMove, orderTT, true
		}
		fallthrough
	case stageGenerate:
		mp.generate()
		mp.stage = stagePick
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

// generate fills and scores the node's moves. A table move already handed
// out is put first, where pick would have put it, and not handed out
// again.
func (mp *picker) generate() {
	w, p := mp.w, mp.p
	switch {
	case mp.root:
	case mp.captures:
		mp.moves = p.LegalCaptures(w.moves[mp.ply])
	default:
		mp.moves = p.LegalMoves(w.moves[mp.ply])
	}
	w.moves[mp.ply] = mp.moves[:0] // keep a grown buffer
	mp.scores = w.scoreBuffer(mp.ply, len(mp.moves))
	w.scoreMoves(p, mp.moves, mp.scores, mp.ttMove, mp.killers, mp.counter)
	if !mp.ttFirst {
		return
	}
	// IsLegal's answer makes it one of them (the picker's test checks
	// that it is); were it not, every move would be handed out.
	for i, m := range mp.moves {
		if m == mp.ttMove {
			swap(mp.moves, mp.scores, 0, i)
			mp.next = 1
			return
		}
	}
}
