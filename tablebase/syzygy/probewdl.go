package syzygy

import "github.com/chimera-chess/chimera/engine"

// This file is the WDL probing: the searches the tables rely on, which
// turn a table's entry into a position's value. A table may hold any value
// ("don't care") for a position where a capture is best, so captures are
// searched first, with the tables' values at the leaves; and a table
// assumes no en-passant right, so en-passant captures are tried apart.

// ProbeWDL returns the position's value for the side to move, as if the
// move counter were at zero. pos is used to make and unmake moves and is
// as it was when ProbeWDL returns; it must not be used elsewhere
// meanwhile. Errors: ErrMissing (a table needed is not there: the value
// is unknown), ErrCorrupt, ErrCastling, ErrNotChess, ErrTooManyPieces,
// ErrClosed.
func (t *Tables) ProbeWDL(pos *engine.Position) (WDL, error) {
	if err := t.checkPosition(pos); err != nil {
		return 0, err
	}
	return t.probeWDL(pos)
}

// probeWDL is ProbeWDL without the position checks: the value, with the
// en-passant captures the tables leave out.
func (t *Tables) probeWDL(pos *engine.Position) (WDL, error) {
	v, _, err := t.searchCaptures(pos, Loss, Win)
	if err != nil || pos.EnPassant() == engine.NoSquare {
		return v, err
	}
	ep, found, err := t.bestEnPassant(pos)
	if err != nil || !found {
		return v, err
	}
	switch {
	case ep >= v:
		return ep, nil
	case v == Draw && onlyEnPassant(pos):
		// The table's draw is a stalemate without the en-passant
		// capture, which is then forced.
		return ep, nil
	}
	return v, nil
}

// searchCaptures is alpha-beta over captures (en passant left out) with
// the table's entry as the value of standing pat: the value of pos
// within (alpha, beta), a bound outside it. byCapture reports that a
// capture decides: one reached beta, or the best capture wins and is no
// worse than the entry (which may then be a "don't care" value).
func (t *Tables) searchCaptures(pos *engine.Position, alpha, beta WDL) (v WDL, byCapture bool, err error) {
	var buf [engine.MaxMoves]engine.Move
	for _, m := range pos.LegalCaptures(buf[:0]) {
		if !takesOnTarget(pos, m) {
			continue
		}
		pos.Make(m)
		v, _, err := t.searchCaptures(pos, -beta, -alpha)
		pos.Unmake()
		if err != nil {
			return 0, false, err
		}
		if v = -v; v > alpha {
			if v >= beta {
				return v, true, nil
			}
			alpha = v
		}
	}
	var b board
	readBoard(pos, &b)
	entry, err := t.tableWDL(&b)
	if err != nil {
		return 0, false, err
	}
	if alpha >= entry {
		return alpha, alpha > Draw, nil
	}
	return entry, false, nil
}

// bestEnPassant returns the best value for the side to move among its
// legal en-passant captures; found is false when it has none.
func (t *Tables) bestEnPassant(pos *engine.Position) (best WDL, found bool, err error) {
	var buf [engine.MaxMoves]engine.Move
	for _, m := range pos.LegalCaptures(buf[:0]) {
		if m.Kind() != engine.EnPassant {
			continue
		}
		pos.Make(m)
		v, _, err := t.searchCaptures(pos, Loss, Win)
		pos.Unmake()
		if err != nil {
			return 0, false, err
		}
		if !found || -v > best {
			best, found = -v, true
		}
	}
	return best, found, nil
}

// takesOnTarget reports whether m captures the piece on its target
// square: a capture the tables' positions can follow, en passant apart.
func takesOnTarget(pos *engine.Position, m engine.Move) bool {
	return m.Kind() != engine.EnPassant && pos.At(m.To()) != engine.NoPiece
}

// onlyEnPassant reports whether every legal move of the side to move is
// an en-passant capture.
func onlyEnPassant(pos *engine.Position) bool {
	var buf [engine.MaxMoves]engine.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		if m.Kind() != engine.EnPassant {
			return false
		}
	}
	return true
}
