package engine

// This file holds Makruk's counting rules as Fairy-Stockfish 11.1 keeps
// them: once no pawn is left (and the side that just moved has more than
// a king), a count starts; when it runs past its limit the game is drawn.

// CountingRule names a rule that limits how long an ending may take.
type CountingRule uint8

// The counting rules.
const (
	// NoCounting: no such rule.
	NoCounting CountingRule = iota
	// MakrukCounting: the board's honour (64 moves while the side to
	// move has more than its king) and the pieces' honour (against a
	// bare king: 8 moves with two rooks, 16 with one, 22 with two khons,
	// 32 with two knights, 44 with one khon, else 64), counted in plies
	// from the count's start; a bare king's count starts at the number of
	// pieces on the board.
	MakrukCounting
	// AseanCounting (ASEAN chess, sittuyin): only against a bare king,
	// counted from zero: 16 moves while the stronger side has a rook, 44
	// with a khon and a met, 64 with a knight and a met; no count
	// otherwise.
	AseanCounting
)

// countState is the running count: the limit and the count so far, both
// in plies; limit 0 means no count has started.
type countState struct{ limit, ply int16 }

// CountingLimit returns the running count's limit and its current count
// in plies (0, 0 before a count starts).
func (p *Position) CountingLimit() (limit, ply int) {
	return int(p.counting.limit), int(p.counting.ply)
}

// countingRunOut reports whether the count has passed its limit: the game
// is drawn unless the side to move is mated.
func (p *Position) countingRunOut() bool {
	return p.counting.limit != 0 && p.counting.ply > p.counting.limit
}

// advanceCount moves the count on after a move (captured: it took a
// piece); p.stm is already the side to move next. A count starts when none
// runs, and starts again when a capture bares the side to move.
func (p *Position) advanceCount(captured bool) {
	if p.counting.limit != 0 {
		p.counting.ply++
	}
	if p.counting.limit != 0 && !(captured && p.count[p.stm] == 1) {
		return
	}
	limit := p.countingMoves()
	if limit == 0 {
		return
	}
	p.counting.limit = int16(2 * limit)
	p.counting.ply = 0
	if p.v.Counting == MakrukCounting && p.count[p.stm] == 1 {
		p.counting.ply = int16(2 * p.PieceCount())
	}
}

// countingMoves is the limit in full moves a count would start with now,
// 0 for none: no count while pawns remain or the side that just moved has
// only its king.
func (p *Position) countingMoves() int {
	v, us, them := p.v, p.stm, p.stm.Other()
	if v.Counting == AseanCounting {
		return p.aseanCountingMoves()
	}
	if p.count[them] == 1 {
		return 0
	}
	for t := 1; t <= len(v.Pieces); t++ {
		if v.Pieces[t-1].Role == RolePawn && p.pieceCount[MakePiece(t, White)]+p.pieceCount[MakePiece(t, Black)] > 0 {
			return 0
		}
	}
	if p.count[us] > 1 {
		return 64
	}
	rooks, knights, khons := p.countRole(them, RoleRook), p.countRole(them, RoleKnight), 0
	if v.countingKhon != 0 {
		khons = int(p.pieceCount[MakePiece(int(v.countingKhon), them)])
	}
	switch {
	case rooks > 1:
		return 8
	case rooks == 1:
		return 16
	case khons > 1:
		return 22
	case knights > 1:
		return 32
	case khons == 1:
		return 44
	}
	return 64
}

// countRole counts c's pieces of a role.
func (p *Position) countRole(c Colour, r Role) int {
	n := 0
	for t := 1; t <= len(p.v.Pieces); t++ {
		if p.v.Pieces[t-1].Role == r {
			n += int(p.pieceCount[MakePiece(t, c)])
		}
	}
	return n
}

// aseanCountingMoves is AseanCounting's limit in full moves for a count
// starting now, 0 for none.
func (p *Position) aseanCountingMoves() int {
	v, them := p.v, p.stm.Other()
	if p.count[p.stm] > 1 {
		return 0
	}
	count := func(letter uint8) int {
		if letter == 0 {
			return 0
		}
		return int(p.pieceCount[MakePiece(int(letter), them)])
	}
	khons, mets := count(v.countingKhon), count(v.countingMet)
	switch {
	case p.countRole(them, RoleRook) > 0:
		return 16
	case khons > 0 && mets > 0:
		return 44
	case p.countRole(them, RoleKnight) > 0 && mets > 0:
		return 64
	}
	return 0
}
