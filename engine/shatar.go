package engine

import "slices"

// This file holds shatar's mate rules (Fairy-Stockfish 11.1's
// shatarMateRule): a mate given by knights alone is forbidden, and the
// side mated so wins; otherwise a mate counts only when some check of the
// series of checks that led to it was a shak, a check by one of
// ShatarShak's pieces (knight, rook, bers); a mate without one is niol, a
// draw.

// shatarMate is the result of a checkmate on the board under those rules.
func (p *Position) shatarMate() Result {
	result := func(reason Reason, o Outcome) Result { return Result{Reason: reason, Outcome: o, Side: p.stm} }
	if !slices.ContainsFunc(p.Checkers(), func(s Square) bool { return p.v.PieceType(p.board[s]).Role != RoleKnight }) {
		return result(Checkmate, Win)
	}
	q := p.Clone()
	for q.InCheck() {
		if q.shak() {
			return result(Checkmate, p.v.CheckmateValue.Outcome(Loss))
		}
		n := len(q.history)
		if n < 2 || q.history[n-1].move == NoMove || q.history[n-2].move == NoMove {
			break // the series goes back no further than we know
		}
		q.Unmake()
		q.Unmake()
	}
	return result(Niol, Draw)
}

// shak reports whether a check on the board is given by a shak piece.
func (p *Position) shak() bool {
	return slices.ContainsFunc(p.Checkers(), func(s Square) bool {
		return slices.Contains(p.v.ShatarShak, p.v.Pieces[p.board[s].Type()-1].Letter)
	})
}
