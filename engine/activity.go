package engine

import "math/bits"

// This file is what an evaluation reads of one piece: the squares it can
// move to (Mobility's count, piece by piece) and the squares of a zone it
// attacks (the squares around the enemy's royal piece). Like Mobility it
// counts without building a move list, with bit masks on boards of at most
// 64 squares.

// Zone is a set of squares whose attacks an evaluation counts, in both of
// the board's forms.
type Zone struct {
	set  SquareSet
	mask uint64 // the same squares as small-board bits (boards of ≤ 64 squares)
}

// RoyalZone returns s and the squares a king's step from it: where a royal
// piece on s is attacked or defended.
func (p *Position) RoyalZone(s Square) Zone {
	var z Zone
	z.add(p.v, s)
	for _, t := range p.v.neighbours[s] {
		z.add(p.v, t)
	}
	return z
}

func (z *Zone) add(v *Variant, s Square) {
	z.set.Add(s)
	z.mask |= v.squareBit[s]
}

// Merge adds the squares of o to the zone.
func (z *Zone) Merge(o *Zone) {
	for i := range z.set {
		z.set[i] |= o.set[i]
	}
	z.mask |= o.mask
}

// Has reports whether the zone holds s.
func (z *Zone) Has(s Square) bool { return z.set.Has(s) }

// Count returns the number of squares in the zone.
func (z *Zone) Count() int { return z.set.Count() }

// PieceActivity returns, for the piece on s, the number of squares it can
// move to (what Mobility counts for it) and the number of squares of zone
// it attacks: squares it could capture on were an enemy piece there,
// whatever stands there now, by its leaps, blockable leaps and rides.
// Attacks by hoppers, cannons and rides with skipped squares or one mode
// are not counted in the zone (their moves are), on any board.
func (p *Position) PieceActivity(s Square, zone *Zone) (moves, attacks int) {
	pc := p.board[s]
	us := pc.Colour()
	if sb := p.v.small; sb != nil {
		return sb.activity(p, s, us, zone)
	}
	sm := &p.v.moves[pc][s]
	for _, t := range sm.quiet {
		if p.board[t] == NoPiece {
			moves++
		}
	}
	for _, t := range sm.both {
		if q := p.board[t]; q == NoPiece || q.Colour() != us {
			moves++
		}
		if zone.set.Has(t) {
			attacks++
		}
	}
	for _, t := range sm.capt {
		if q := p.board[t]; q != NoPiece && q.Colour() != us {
			moves++
		}
		if zone.set.Has(t) {
			attacks++
		}
	}
	for i := range sm.rays {
		r := &sm.rays[i]
		if !r.plain {
			continue
		}
		for _, t := range r.squares {
			if zone.set.Has(t) {
				attacks++
			}
			q := p.board[t]
			if q == NoPiece {
				moves++
				continue
			}
			if q.Colour() != us {
				moves++
			}
			break
		}
	}
	for i := range sm.lame {
		if l := &sm.lame[i]; l.capture && !l.screen && zone.set.Has(l.to) && p.pathEmpty(l.path) {
			attacks++
		}
	}
	return moves + p.countSpecial(sm, s, us), attacks
}

// activity is PieceActivity with the small board's masks.
func (sb *smallBoard) activity(p *Position, s Square, us Colour, zone *Zone) (moves, attacks int) {
	occ := &p.occupancy
	own, enemy := occ[us], occ[us^1]
	all := own | enemy
	m := &sb.masks[p.board[s]][s]
	moves = bits.OnesCount64(m.both&^own) + bits.OnesCount64(m.quiet&^all) + bits.OnesCount64(m.capt&enemy)
	hit := (m.both | m.capt) & zone.mask
	for i := range m.rays {
		reach := sb.reach(&m.rays[i], all)
		moves += bits.OnesCount64(reach &^ own)
		hit |= reach & zone.mask
	}
	for _, l := range m.lame {
		if l.path&all != 0 {
			continue
		}
		if l.quiet && l.target&all == 0 || l.capture && l.target&enemy != 0 {
			moves++
		}
		if l.capture {
			hit |= l.target & zone.mask
		}
	}
	if m.special {
		moves += p.countSpecialExcept(&p.v.moves[p.board[s]][s], s, us, true)
	}
	return moves, bits.OnesCount64(hit)
}
