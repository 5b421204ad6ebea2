package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

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
	if p.v.Counting == AseanCounting {
		return p.aseanCountingMoves()
	}
	return p.makrukCountingMoves(p.stm)
}

// makrukCountingMoves is MakrukCounting's limit in full moves for a count
// starting now with us to move (the side that just moved is the other):
// 0 while pawns remain or the other side has only its king, the board's
// honour while us has more than its king, else the pieces' honour of the
// other side's material.
func (p *Position) makrukCountingMoves(us Colour) int {
	v, them := p.v, us.Other()
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

// countingLimits names a counting rule and lists the limits, in plies, a
// count of it can start with: twice the full moves of the cases of
// makrukCountingMoves (the board's honour and the pieces' honour) and of
// aseanCountingMoves.
func countingLimits(r CountingRule) (name string, plies []int) {
	switch r {
	case MakrukCounting:
		return "makruk", []int{16, 32, 44, 64, 88, 128}
	case AseanCounting:
		return "ASEAN", []int{32, 88, 128}
	}
	return "", nil
}

// checkCount refuses a running count, read from a FEN, that the rules
// could never have started, since a search trusts the limit to say how
// many plies are left to mate in. The limit must be one the variant's
// counting rule gives. Where material only leaves the board, one piece at
// a time (no hands, piece promotions, blasts or missiles), the board says
// more: a bare king stays bare, and a count against it started (or started
// again, when the capture bared it) with at least the material its
// opponent has now, so its limit is at most the limit of that material
// (more material, a shorter count); a makruk count while both sides have
// pieces is the board's honour, which starts only once the last pawn is
// gone; an ASEAN count runs only against a bare king. (When both kings are
// bare any limit may have outlived the last capture.)
func (p *Position) checkCount() error {
	v, limit := p.v, int(p.counting.limit)
	if limit == 0 {
		return nil
	}
	name, limits := countingLimits(v.Counting)
	if len(limits) == 0 {
		return fmt.Errorf("counting limit %d: variant %s has no counting rule", limit, v.Name)
	}
	if !slices.Contains(limits, limit) {
		words := make([]string, len(limits))
		for i, n := range limits {
			words[i] = strconv.Itoa(n)
		}
		return fmt.Errorf("counting limit %d: %s counting starts counts of %s or %s plies",
			limit, name, strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
	}
	if v.HasHands() || len(v.PiecePromotion) > 0 || v.BlastOnCapture || v.missileType != 0 {
		return nil
	}
	bare := [2]bool{p.count[White] == 1, p.count[Black] == 1}
	switch {
	case bare[White] && bare[Black]:
		return nil
	case v.Counting == AseanCounting && !bare[White] && !bare[Black]:
		return fmt.Errorf("counting limit %d: ASEAN counting runs only against a bare king", limit)
	case v.Counting != MakrukCounting:
		return nil
	}
	weak := p.stm // the side with only its king, if any
	if bare[White] {
		weak = White
	} else if bare[Black] {
		weak = Black
	}
	want := 2 * p.makrukCountingMoves(weak)
	switch {
	case want == 0:
		return fmt.Errorf("counting limit %d: a count starts only once the last pawn is gone", limit)
	case !bare[weak] && limit != want:
		return fmt.Errorf("counting limit %d: while both sides have pieces only the board's honour runs, %d plies", limit, want)
	case limit > want:
		return fmt.Errorf("counting limit %d: against a bare king this material counts at most %d plies", limit, want)
	}
	return nil
}
