package engine

// Mobility returns the number of squares c's pieces can move to, by their
// atoms, on the current board: the pseudo-legal moves of the evaluation,
// counted without building a move list. Promotions count once, and
// castling and en passant not at all: mobility measures activity, not an
// exact move count.
func (p *Position) Mobility(c Colour) int {
	white, black := p.Mobilities()
	if c == White {
		return white
	}
	return black
}

// Mobilities returns both sides' mobility (see Mobility). With drops,
// every drop counts as a move.
func (p *Position) Mobilities() (white, black int) {
	if sb := p.v.small; sb != nil {
		white, black = sb.mobilities(p)
	} else {
		for _, from := range p.Pieces(White) {
			white += p.countPiece(from, White)
		}
		for _, from := range p.Pieces(Black) {
			black += p.countPiece(from, Black)
		}
	}
	if p.v.PieceDrops {
		white, black = white+p.countDrops(White), black+p.countDrops(Black)
	}
	return white, black
}

// countDrops counts colour c's drops (as genDrops makes them).
func (p *Position) countDrops(c Colour) int {
	n := 0
	for range p.drops(c) {
		n++
	}
	return n
}

// countPiece counts one piece's targets square by square: genPiece's
// counting twin, kept separate so that neither pays for the other in its
// hot loop. Boards of at most 64 squares count with bit masks instead.
func (p *Position) countPiece(from Square, us Colour) int {
	sm := &p.v.moves[p.board[from]][from]
	n := 0
	for _, t := range sm.quiet {
		if p.board[t] == NoPiece {
			n++
		}
	}
	for _, t := range sm.both {
		if q := p.board[t]; q == NoPiece || q.Colour() != us {
			n++
		}
	}
	for _, t := range sm.capt {
		if q := p.board[t]; q != NoPiece && q.Colour() != us {
			n++
		}
	}
	for i := range sm.rays {
		if r := &sm.rays[i]; r.plain {
			n += p.countRay(r, us)
		}
	}
	return n + p.countSpecial(sm, from, us)
}

// countRay counts a plain rider's targets along one line.
func (p *Position) countRay(r *moveRay, us Colour) int {
	n := 0
	for _, t := range r.squares {
		q := p.board[t]
		if q == NoPiece {
			n++
			continue
		}
		if q.Colour() != us {
			n++
		}
		break
	}
	return n
}

// countSpecial counts what neither the leap lists nor plain rays cover:
// rays with skipped squares or one mode only, lame leaps and hops. The
// small-board count handles lame leaps itself and passes noLame.
func (p *Position) countSpecial(sm *squareMoves, from Square, us Colour) int {
	return p.countSpecialExcept(sm, from, us, false)
}

func (p *Position) countSpecialExcept(sm *squareMoves, from Square, us Colour, noLame bool) int {
	n := 0
	for i := range sm.rays {
		r := &sm.rays[i]
		if r.plain {
			continue
		}
		for k, t := range r.squares {
			q := p.board[t]
			if q == NoPiece {
				if r.quiet && r.skip>>k&1 == 0 {
					n++
				}
				continue
			}
			if r.capture && q.Colour() != us && r.skip>>k&1 == 0 {
				n++
			}
			break
		}
	}
	if (len(sm.lame) > 0 && !noLame) || len(sm.hops) > 0 {
		var buf [64]Move
		moves := buf[:0]
		for i := range sm.lame {
			if !noLame {
				moves = p.genLame(moves, from, &sm.lame[i], false)
			}
		}
		for i := range sm.hops {
			moves = p.genHop(moves, from, &sm.hops[i], false)
		}
		n += len(moves)
	}
	return n
}
