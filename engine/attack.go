package engine

import "slices"

// Attacked reports whether any piece of colour by attacks square s: could
// capture on it if an enemy piece stood there. It scans outward from s with
// every atom of by's pieces reversed: leaps, blockable leaps, rider lines (the
// first piece met) and hopper lines (a hurdle next to s, then the hopper).
func (p *Position) Attacked(s Square, by Colour) bool { return p.attackedBy(s, by, ^uint64(0)) }

// attackedBy is Attacked counting only the pieces in allowed, a piece-code
// set (atomic chess leaves out the kings, which cannot capture).
func (p *Position) attackedBy(s Square, by Colour, allowed uint64) bool {
	at := &p.v.attacks[by]
	// On small boards a mask test skips the leap list when no piece of
	// the attacker stands on any of its squares, the usual case.
	if p.v.small == nil || at.leapFrom[s]&p.occupancy[by] != 0 {
		for _, a := range at.leaps[s] {
			if a.pieces&allowed>>p.board[a.from]&1 != 0 {
				return true
			}
		}
	}
	if sb := p.v.small; sb != nil {
		// Each ray's first piece by a mask, not a walk along the ray.
		all := p.occupancy[White] | p.occupancy[Black]
		rays := sb.checks[by][s].rays
		for i := range rays {
			if t, ok := sb.first(&rays[i].ray, all); ok && rays[i].pieces&allowed>>p.board[t]&1 != 0 {
				return true
			}
		}
	} else {
		for _, d := range at.rayDirs {
			for _, t := range p.v.rays[d.ray][s] {
				if pc := p.board[t]; pc != NoPiece {
					if d.pieces&allowed>>pc&1 != 0 {
						return true
					}
					break
				}
			}
		}
	}
	if len(at.lame[s]) > 0 || len(at.hopDirs) > 0 || len(at.cannonDirs) > 0 {
		return p.attackedSlow(s, by, allowed)
	}
	return p.v.CambodianMoves && p.cambodianMetAttack(s, by)
}

// attackedSlow covers the rarer atoms: blockable leaps, hoppers and cannons.
func (p *Position) attackedSlow(s Square, by Colour, allowed uint64) bool {
	at := &p.v.attacks[by]
	if p.lameAttack(s, by, allowed) {
		return true
	}
	for _, d := range at.hopDirs {
		if p.hopAttack(s, d, allowed) {
			return true
		}
	}
	for _, d := range at.cannonDirs {
		if p.cannonAttack(s, d, allowed) {
			return true
		}
	}
	return false
}

// lameAttack reports whether a blockable leaper in allowed attacks s: its
// path empty, or for a screen leap holding exactly one piece.
func (p *Position) lameAttack(s Square, by Colour, allowed uint64) bool {
	at := &p.v.attacks[by]
	for i := range at.lame[s] {
		a := &at.lame[s][i]
		pc := p.board[a.from]
		if a.pieces&allowed>>pc&1 == 0 {
			continue
		}
		if !a.screen {
			if p.pathEmpty(a.path) {
				return true
			}
			continue
		}
		if screen, ok := p.onlyPiece(a.path); ok && (!a.spares || (screen.Type() != pc.Type() && p.board[s].Type() != pc.Type())) {
			return true
		}
	}
	return false
}

// pathEmpty reports whether no piece stands on any square of path.
func (p *Position) pathEmpty(path []Square) bool {
	for _, t := range path {
		if p.board[t] != NoPiece {
			return false
		}
	}
	return true
}

// onlyPiece returns the one piece on path, if exactly one stands there.
func (p *Position) onlyPiece(path []Square) (Piece, bool) {
	found := NoPiece
	for _, t := range path {
		if pc := p.board[t]; pc != NoPiece {
			if found != NoPiece {
				return NoPiece, false
			}
			found = pc
		}
	}
	return found, found != NoPiece
}

// hopAttack reports whether a grasshopper of d, in allowed, attacks s: a
// hurdle next to s, the hopper just beyond.
func (p *Position) hopAttack(s Square, d attackDir, allowed uint64) bool {
	ray := p.v.rays[d.ray][s]
	if len(ray) < 2 || p.board[ray[0]] == NoPiece {
		return false
	}
	for _, t := range ray[1:] {
		if pc := p.board[t]; pc != NoPiece {
			return d.pieces&allowed>>pc&1 != 0
		}
	}
	return false
}

// cannonAttack reports whether a cannon of d, in allowed, attacks s over
// one screen; a cannon that spares its own kind neither uses one as the
// screen nor takes one.
func (p *Position) cannonAttack(s Square, d attackDir, allowed uint64) bool {
	hurdle := NoPiece
	for _, t := range p.v.rays[d.ray][s] {
		pc := p.board[t]
		if pc == NoPiece {
			continue
		}
		if hurdle == NoPiece {
			hurdle = pc
			continue
		}
		if d.pieces&allowed>>pc&1 == 0 {
			return false
		}
		return p.v.sparesOwn>>pc&1 == 0 || (hurdle.Type() != pc.Type() && p.board[s].Type() != pc.Type())
	}
	return false
}

// royalAttacked reports whether any royal piece of colour c is attacked.
func (p *Position) royalAttacked(c Colour) bool {
	switch p.royals[c] {
	case 0:
		return false
	case 1:
		return p.Attacked(p.royalSq[c], c.Other())
	}
	for _, s := range p.Pieces(c) {
		if p.v.royalTypes>>p.board[s]&1 != 0 && p.Attacked(s, c.Other()) {
			return true
		}
	}
	return false
}

// InCheck reports whether the side to move is in check by the variant's
// rules: a royal piece attacked (only the leftmost king in Two Kings; in
// atomic chess not by the king, nor when the kings touch).
func (p *Position) InCheck() bool { return p.royalInDanger(p.stm) }

// Checkers returns the squares of the pieces giving check to the side to
// move, in square order (what Stockfish's "d" lists as Checkers): the
// other side's pseudo-legal captures of a royal piece.
func (p *Position) Checkers() []Square {
	if !p.InCheck() {
		return nil
	}
	q := p.Clone()
	q.MakeNull()
	var out []Square
	for _, m := range q.PseudoLegalMoves(nil) {
		victim := p.board[m.To()]
		if victim != NoPiece && victim.Colour() == p.stm && p.v.royalTypes>>victim&1 != 0 && !slices.Contains(out, m.From()) {
			out = append(out, m.From())
		}
	}
	slices.Sort(out)
	return out
}
