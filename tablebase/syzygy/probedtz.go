package syzygy

import "github.com/chimera-chess/chimera/engine"

// This file is the DTZ probing: what turns a DTZ file's entry into a
// position's distance to zeroing is what the file leaves out. A DTZ file stores one
// side to move (the other's distance is one ply of search away), holds
// nothing meaningful where a capture or a pawn move zeroes best (those
// are found by search before the file is read), and assumes no
// en-passant right.

// ProbeDTZ returns the position's distance to zeroing (DTZ50″), in
// plies, signed by the side to move's outcome, as Syzygy's probers
// (python-chess's probe_dtz) report it, assuming the move counter at
// zero:
//
//	WDL           DTZ
//	Loss          −100 … −1: a zeroing move is forced within −n plies
//	BlessedLoss   below −100: −n or −n − 100 plies (a later phase may
//	              be the one the fifty-move rule saves)
//	Draw          0
//	CursedWin     above 100: n or n − 100 plies
//	Win           1 … 100: a winning zeroing move within n plies
//
// A value ±n may stand for n + 1 plies: where a file keeps moves rather
// than plies it cannot tell the two apart (files do so only where that
// cannot change the outcome under the fifty-move rule). A zeroing move
// itself counts, and mate counts as zeroing: a position whose best move
// wins by a capture, a pawn move or mate is 1 (101 for a cursed win), a
// checkmated side's −1. pos is used to make and unmake moves and is as
// it was on return. Both the WDL and the DTZ tables are needed; the
// errors are ProbeWDL's.
func (t *Tables) ProbeDTZ(pos *engine.Position) (int, error) {
	if err := t.checkPosition(pos); err != nil {
		return 0, err
	}
	return t.probeDTZ(pos)
}

// probeDTZ is ProbeDTZ without the position checks, with the
// en-passant captures the tables leave out.
func (t *Tables) probeDTZ(pos *engine.Position) (int, error) {
	v, err := t.dtzWithoutEnPassant(pos)
	if err != nil || pos.EnPassant() == engine.NoSquare {
		return v, err
	}
	wdl, found, err := t.bestEnPassant(pos)
	if err != nil || !found {
		return v, err
	}
	// An en-passant capture zeroes: its distance is the zeroing one.
	ep := zeroingDTZ(wdl)
	better := false
	switch {
	case v < -100: // a blessed loss: anything not lost is better
		better = ep >= 0
	case v < 0: // a loss: a draw, a win or a blessed loss is better
		better = ep >= 0 || ep < -100
	case v > 100: // a cursed win: any win by the capture, which zeroes now
		better = ep > 0
	case v > 0: // a win: only winning at once
		better = ep == 1
	case ep >= 0: // a draw: anything not lost
		better = true
	default: // a draw the table sees as a stalemate without the capture
		better = onlyEnPassant(pos)
	}
	if better {
		return ep, nil
	}
	return v, nil
}

// zeroingDTZ is the distance of a position of value wdl whose best move
// zeroes the counter: 1 ply for a win, 101 for a cursed win (the
// counter's 100 plies past), negated for losses, 0 for a draw.
func zeroingDTZ(wdl WDL) int {
	switch wdl {
	case Win:
		return 1
	case CursedWin:
		return 101
	case BlessedLoss:
		return -101
	case Loss:
		return -1
	}
	return 0
}

// dtzWithoutEnPassant is the distance ignoring en-passant rights: the
// captures' search and the winning pawn moves first (they zero), then
// the file, then, where the file keeps the other side to move, one ply
// of search.
func (t *Tables) dtzWithoutEnPassant(pos *engine.Position) (int, error) {
	wdl, byCapture, err := t.searchCaptures(pos, Loss, Win)
	if err != nil || wdl == Draw {
		return 0, err
	}
	if byCapture {
		return zeroingDTZ(wdl), nil
	}
	if wdl > Draw {
		zeroes, err := t.winningPawnMove(pos, wdl)
		if err != nil || zeroes {
			return zeroingDTZ(wdl), err
		}
	}
	var b board
	readBoard(pos, &b)
	dtz, stored, err := t.tableDTZ(&b, wdl)
	switch {
	case err != nil:
		return 0, err
	case stored && wdl > Draw:
		return zeroingDTZ(wdl) + dtz, nil
	case stored:
		return zeroingDTZ(wdl) - dtz, nil
	case wdl > Draw:
		return t.winnerSearch(pos)
	default:
		return t.loserSearch(pos, wdl)
	}
}

// winningPawnMove reports whether a pawn move that captures nothing
// keeps the value wdl (> Draw): it zeroes, so the distance is the
// zeroing one. Captures were searched already.
func (t *Tables) winningPawnMove(pos *engine.Position, wdl WDL) (bool, error) {
	v := pos.Variant()
	var buf [engine.MaxMoves]engine.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		if !v.IsPawn(pos.At(m.From())) || m.Kind() == engine.EnPassant || pos.At(m.To()) != engine.NoPiece {
			continue
		}
		pos.Make(m)
		after, err := t.probeWDL(pos)
		pos.Unmake()
		if err != nil {
			return false, err
		}
		if -after == wdl {
			return true, nil
		}
	}
	return false, nil
}

// winnerSearch is the winning side's distance where the file keeps the
// other side to move: one more than the best reply-distance among the
// moves of pieces (not pawns) to empty squares (captures and pawn moves
// were tried before the file). A mate in one is 1.
func (t *Tables) winnerSearch(pos *engine.Position) (int, error) {
	v := pos.Variant()
	best := 0xffff // no such move: python-chess answers this too
	var buf [engine.MaxMoves]engine.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		if v.IsPawn(pos.At(m.From())) || pos.At(m.To()) != engine.NoPiece {
			continue
		}
		pos.Make(m)
		d, err := t.probeDTZ(pos)
		mates := d == -1 && pos.InCheck() && !pos.HasLegalMove()
		pos.Unmake()
		if err != nil {
			return 0, err
		}
		switch d = -d; {
		case mates:
			best = 1
		case d > 0 && d+1 < best:
			best = d + 1
		}
	}
	return best, nil
}

// loserSearch is the losing side's distance where the file keeps the
// other side to move: the longest resistance over every move. A zeroing
// move loses at once (−1) in a loss; in a blessed loss it is −101 unless
// it walks into a real loss, which the loser avoids (0 takes no part in
// the minimum).
func (t *Tables) loserSearch(pos *engine.Position, wdl WDL) (int, error) {
	v := pos.Variant()
	best := -1
	var buf [engine.MaxMoves]engine.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		zeroing := v.IsPawn(pos.At(m.From())) || pos.IsCapture(m)
		pos.Make(m)
		var d int
		var err error
		switch {
		case !zeroing:
			var reply int
			reply, err = t.probeDTZ(pos)
			d = -reply - 1
		case wdl == Loss:
			d = -1
		default:
			var after WDL
			after, _, err = t.searchCaptures(pos, CursedWin, Win)
			if d = -101; after == Win {
				d = 0
			}
		}
		pos.Unmake()
		if err != nil {
			return 0, err
		}
		best = min(best, d)
	}
	return best, nil
}
