package engine

// This file holds Cambodian chess's first moves (Fairy-Stockfish 11.1's
// cambodianMoves): while the king and the met (neang) stand unmoved on
// their start squares, marked as gates in the FEN's castling field
// ("DEde"), the king may leap like a knight to the rank in front of it
// (not out of check, never capturing), and the met may jump two squares
// straight ahead, capturing there too, so it also attacks that square.

// forwardStep returns the rank step that is forward for colour c.
func forwardStep(c Colour) int {
	if c == Black {
		return -1
	}
	return 1
}

// cambodianMetAttack reports whether a met of colour by, unmoved on its
// gate, attacks s by its two-square jump.
func (p *Position) cambodianMetAttack(s Square, by Colour) bool {
	v := p.v
	r := s.Rank() - 2*forwardStep(by)
	if r < 0 || r >= v.Height {
		return false
	}
	from := SquareAt(s.File(), r)
	return p.board[from] == MakePiece(int(v.cambodianMet), by) && p.gates&v.gateBit(from) != 0 &&
		v.backRank(by) == r
}

// appendCambodianMoves appends the side to move's legal first leaps of
// king and met.
func (p *Position) appendCambodianMoves(dst []Move) []Move {
	v, us := p.v, p.stm
	fwd := forwardStep(us)
	for _, from := range p.Pieces(us) {
		if p.gates&v.gateBit(from) == 0 || from.Rank() != v.backRank(us) {
			continue
		}
		var targetBuf [2]Square
		targets := targetBuf[:0]
		switch pc := p.board[from]; {
		case v.royalTypes>>pc&1 != 0 && !p.InCheck():
			for _, df := range []int{-2, 2} {
				f, r := from.File()+df, from.Rank()+fwd
				if f >= 0 && f < v.Width && r >= 0 && r < v.Height && p.board[SquareAt(f, r)] == NoPiece {
					targets = append(targets, SquareAt(f, r))
				}
			}
		case pc.Type() == int(v.cambodianMet):
			if r := from.Rank() + 2*fwd; r >= 0 && r < v.Height {
				if q := p.board[SquareAt(from.File(), r)]; q == NoPiece || q.Colour() != us {
					targets = append(targets, SquareAt(from.File(), r))
				}
			}
		}
		for _, to := range targets {
			m := NewMove(from, to)
			p.Make(m)
			safe := !p.royalAttacked(us)
			p.Unmake()
			if safe {
				dst = append(dst, m)
			}
		}
	}
	return dst
}
