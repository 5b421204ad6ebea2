package engine

// SEE returns the static exchange evaluation of move m: the material the
// side to move gains (in the units of values, by piece code) when both
// sides go on capturing on m's target square with their least valuable
// attacker for as long as it pays. It is generic over every atom the
// attack tables know (leapers, riders, blockable leaps, hoppers, cannons):
// the pieces that have captured are lifted off the board as the exchange
// goes, so x-ray attackers behind them and hurdles that vanish count as
// they would in play. Pins, checks and promotions on recapture are
// ignored, as every engine's SEE ignores them; a royal that recaptures
// onto a defended square loses its whole value, so the exchange never
// chooses that. Captures that do not land on their target (launches) and
// variants whose captures explode are not exchanges: SEE returns the
// victim's value for them.
func (p *Position) SEE(m Move, values *[64]int) int {
	victim := p.Captured(m)
	gain := values[victim]
	mover := p.MovedPiece(m) // a drop's piece comes from the hand
	onTarget := values[mover]
	if t := m.Promotion(); t != 0 {
		promoted := MakePiece(t, p.stm)
		gain += values[promoted] - values[mover]
		onTarget = values[promoted]
	}
	if m.Kind() == Launch || m.isCastle() || p.v.BlastOnCapture {
		return gain
	}
	s := m.To()
	// Lift the pieces that have moved, and put them back at the end.
	var lifted [32]Square
	var liftedPiece [32]Piece
	n := 0
	// occupied mirrors the board on small boards, for leastAttacker's
	// masks; the position's own occupancy is left alone.
	occupied := p.occupancy[White] | p.occupancy[Black]
	lift := func(sq Square) {
		liftedPiece[n], lifted[n] = p.board[sq], sq
		p.board[sq] = NoPiece
		occupied &^= p.v.squareBit[sq]
		n++
	}
	lift(m.From())
	if m.Kind() == EnPassant {
		lift(p.epVictim)
	}
	var swap [32]int
	swap[0] = gain
	depth := 0
	side := p.stm.Other()
	for depth < len(swap)-1 && n < len(lifted) {
		from, ok := p.leastAttacker(s, side, values, occupied)
		if !ok {
			break
		}
		depth++
		// What side gains by capturing the piece on s, if nothing follows.
		swap[depth] = onTarget - swap[depth-1]
		onTarget = values[p.board[from]]
		lift(from)
		side = side.Other()
	}
	for i := n - 1; i >= 0; i-- {
		p.board[lifted[i]] = liftedPiece[i]
	}
	// Each side may stop capturing: fold the list back from its end.
	for ; depth > 0; depth-- {
		swap[depth-1] = -max(-swap[depth-1], swap[depth])
	}
	return swap[0]
}

// leastAttacker returns the square of by's least valuable piece that
// attacks s, scanning like attackedBy but through every atom; occupied is
// the board's pieces as a small-board mask (unread on larger boards).
func (p *Position) leastAttacker(s Square, by Colour, values *[64]int, occupied uint64) (Square, bool) {
	at := &p.v.attacks[by]
	best, bestValue := NoSquare, 0
	consider := func(from Square, pieces uint64) {
		pc := p.board[from]
		if pc != NoPiece && pieces>>pc&1 != 0 && (best == NoSquare || values[pc] < bestValue) {
			best, bestValue = from, values[pc]
		}
	}
	for _, a := range at.leaps[s] {
		consider(a.from, a.pieces)
	}
lame:
	for _, a := range at.lame[s] {
		if a.screen {
			continue // a cannon's palace jump: too rare to weigh
		}
		for _, t := range a.path {
			if p.board[t] != NoPiece {
				continue lame
			}
		}
		consider(a.from, a.pieces)
	}
	if sb := p.v.small; sb != nil {
		rays := sb.checks[by][s].rays
		for i := range rays {
			if t, ok := sb.first(&rays[i].ray, occupied); ok {
				consider(t, rays[i].pieces)
			}
		}
	} else {
		for _, d := range at.rayDirs {
			for _, t := range p.v.rays[d.ray][s] {
				if p.board[t] != NoPiece {
					consider(t, d.pieces)
					break
				}
			}
		}
	}
	for _, d := range at.hopDirs {
		ray := p.v.rays[d.ray][s]
		if len(ray) < 2 || p.board[ray[0]] == NoPiece {
			continue
		}
		for _, t := range ray[1:] {
			if p.board[t] != NoPiece {
				consider(t, d.pieces)
				break
			}
		}
	}
	for _, d := range at.cannonDirs {
		hurdle := false
		for _, t := range p.v.rays[d.ray][s] {
			if p.board[t] == NoPiece {
				continue
			}
			if hurdle {
				consider(t, d.pieces)
				break
			}
			hurdle = true
		}
	}
	return best, best != NoSquare
}
