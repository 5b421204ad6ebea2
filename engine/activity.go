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

// TypeZones are squares by piece type: for CheckZones, where a piece of
// each type gives check. Boards of at most 64 squares keep them as masks,
// larger ones as square sets: each form is all PieceActivity reads on its
// boards.
type TypeZones struct {
	mask [MaxPieceTypes + 1]uint64
	set  [MaxPieceTypes + 1]SquareSet
}

// add adds s to the zone of each piece type in pieces, a piece-code set.
func (z *TypeZones) add(v *Variant, pieces uint64, s Square) {
	for ; pieces != 0; pieces &= pieces - 1 {
		t := Piece(bits.TrailingZeros64(pieces)).Type()
		if v.small != nil {
			z.mask[t] |= v.squareBit[s]
		} else {
			z.set[t].Add(s)
		}
	}
}

// AttackMap is where one side's pieces attack, by piece type, in the
// board's form (masks on boards of at most 64 squares, square sets
// beyond): PieceActivity fills it, AttackedIn reads it. The zero value is
// empty.
type AttackMap struct {
	mask [MaxPieceTypes + 1]uint64
	set  [MaxPieceTypes + 1]SquareSet
}

// AttackedIn reports whether a piece of one of types (a bit per piece
// type) attacks s in a.
func (p *Position) AttackedIn(a *AttackMap, s Square, types uint32) bool {
	if p.v.small != nil {
		bit := p.v.squareBit[s]
		for ; types != 0; types &= types - 1 {
			if a.mask[bits.TrailingZeros32(types)]&bit != 0 {
				return true
			}
		}
		return false
	}
	for ; types != 0; types &= types - 1 {
		if a.set[bits.TrailingZeros32(types)].Has(s) {
			return true
		}
	}
	return false
}

// CheckZones sets zones to, for each piece type of colour by, the squares
// from which a piece of that type would attack one of the royal squares as
// the board stands: its leaps, its blockable leaps whose path is empty,
// and its rides up to the first piece met, that one included (hoppers and
// cannons are left out). A move onto one of its type's squares gives
// check; PieceActivity counts those moves. A piece already giving check
// stands on the first square of its line, so its moves along that line
// away from the royal piece, which check too, are not counted: only the
// side not to move, while the side to move is in check, loses them.
func (p *Position) CheckZones(royals []Square, by Colour, zones *TypeZones) {
	v := p.v
	at := &v.attacks[by]
	sb := v.small
	if sb != nil {
		zones.mask = [MaxPieceTypes + 1]uint64{}
	} else {
		*zones = TypeZones{}
	}
	for _, s := range royals {
		if sb != nil {
			sb.checkMasks(p, s, by, zones)
		} else {
			for _, a := range at.leaps[s] {
				zones.add(v, a.pieces, a.from)
			}
			for _, d := range at.rayDirs {
				for _, t := range v.rays[d.ray][s] {
					zones.add(v, d.pieces, t)
					if p.board[t] != NoPiece {
						break
					}
				}
			}
		}
		for i := range at.lame[s] {
			if a := &at.lame[s][i]; !a.screen && p.pathEmpty(a.path) {
				zones.add(v, a.pieces, a.from)
			}
		}
	}
}

// checkMasks is CheckZones's leaps and rides with the small board's masks.
func (sb *smallBoard) checkMasks(p *Position, s Square, by Colour, zones *TypeZones) {
	all := p.occupancy[0] | p.occupancy[1]
	sc := &sb.checks[by][s]
	for _, l := range sc.leaps {
		zones.mask[l.typ] |= l.from
	}
	for i := range sc.rays {
		r := &sc.rays[i]
		reach := sb.reach(&r.ray, all)
		for t := r.types; t != 0; t &= t - 1 {
			zones.mask[bits.TrailingZeros32(t)] |= reach
		}
	}
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
// move to (what Mobility counts for it); the number of squares of zone it
// attacks: squares it could capture on were an enemy piece there,
// whatever stands there now, by its leaps, blockable leaps and rides; and
// the number of its moves that land on its type's squares of checks
// (CheckZones: moves that give check; nil checks: none counted). Hoppers,
// cannons and rides with skipped squares or one mode count in neither the
// zone nor the checks (their moves count), nor do special moves (castling,
// drops) count among the checks, on any board. When attacked is not nil,
// the squares the piece attacks (those the zone's count is taken from,
// on the whole board) are added to it under the piece's type.
func (p *Position) PieceActivity(s Square, zone *Zone, checks *TypeZones, attacked *AttackMap) (moves, attacks, checking int) {
	pc := p.board[s]
	us := pc.Colour()
	if sb := p.v.small; sb != nil {
		var mask uint64
		if checks != nil {
			mask = checks.mask[pc.Type()]
		}
		var into *uint64
		if attacked != nil {
			into = &attacked.mask[pc.Type()]
		}
		return sb.activity(p, s, us, zone, mask, into)
	}
	if checks == nil && attacked == nil {
		moves, attacks = p.zoneActivity(s, us, zone)
		return moves, attacks, 0
	}
	var none SquareSet
	squares := &none // where its moves would give check
	if checks != nil {
		squares = &checks.set[pc.Type()]
	}
	// hits: the squares it attacks, for attacked (their count in the zone
	// is taken as they come, as before attacked existed).
	var hits SquareSet
	record := attacked != nil
	sm := &p.v.moves[pc][s]
	for _, t := range sm.quiet {
		if p.board[t] == NoPiece {
			moves++
			if squares.Has(t) {
				checking++
			}
		}
	}
	for _, t := range sm.both {
		if q := p.board[t]; q == NoPiece || q.Colour() != us {
			moves++
			if squares.Has(t) {
				checking++
			}
		}
		if zone.set.Has(t) {
			attacks++
		}
		if record {
			hits.Add(t)
		}
	}
	for _, t := range sm.capt {
		if q := p.board[t]; q != NoPiece && q.Colour() != us {
			moves++
			if squares.Has(t) {
				checking++
			}
		}
		if zone.set.Has(t) {
			attacks++
		}
		if record {
			hits.Add(t)
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
			if record {
				hits.Add(t)
			}
			q := p.board[t]
			if q != NoPiece && q.Colour() == us {
				break
			}
			moves++
			if squares.Has(t) {
				checking++
			}
			if q != NoPiece {
				break
			}
		}
	}
	for i := range sm.lame {
		l := &sm.lame[i]
		inZone, gives, hit := l.capture && zone.set.Has(l.to), squares.Has(l.to), l.capture && record
		if l.screen || !inZone && !gives && !hit || !p.pathEmpty(l.path) {
			continue
		}
		if inZone {
			attacks++
		}
		if hit {
			hits.Add(l.to)
		}
		if q := p.board[l.to]; gives && (l.quiet && q == NoPiece || l.capture && q != NoPiece && q.Colour() != us) {
			checking++
		}
	}
	if record {
		set := &attacked.set[pc.Type()]
		for i := range set {
			set[i] |= hits[i]
		}
	}
	return moves + p.countSpecial(sm, s, us), attacks, checking
}

// zoneActivity is PieceActivity on a board beyond 64 squares with
// neither checks nor an attack map: countPiece's loops with the zone's
// count beside, the twin the evaluations without check or threat weights
// (every shipped one of those boards) use, so that they do not pay for
// the others' tests square by square. One pass on purpose: countPiece for
// the moves and a second walk for the zone measured 13% slower a shipped
// evaluation (capablanca, xiangqi, shogi; benchstat, 6 runs each), all of
// this loop's gain.
func (p *Position) zoneActivity(s Square, us Colour, zone *Zone) (moves, attacks int) {
	sm := &p.v.moves[p.board[s]][s]
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
		l := &sm.lame[i]
		if l.capture && !l.screen && zone.set.Has(l.to) && p.pathEmpty(l.path) {
			attacks++
		}
	}
	return moves + p.countSpecial(sm, s, us), attacks
}

// activity is PieceActivity with the small board's masks; the attacked
// squares are added to *attacked when it is not nil.
func (sb *smallBoard) activity(p *Position, s Square, us Colour, zone *Zone, checkSquares uint64, attacked *uint64) (moves, attacks, checking int) {
	occ := &p.occupancy
	own, enemy := occ[us], occ[us^1]
	all := own | enemy
	m := &sb.masks[p.board[s]][s]
	targets := m.both&^own | m.quiet&^all | m.capt&enemy
	moves = bits.OnesCount64(m.both&^own) + bits.OnesCount64(m.quiet&^all) + bits.OnesCount64(m.capt&enemy)
	hit := m.both | m.capt // every square it attacks
	for i := range m.rays {
		reach := sb.reach(&m.rays[i], all)
		moves += bits.OnesCount64(reach &^ own)
		targets |= reach &^ own
		hit |= reach
	}
	for _, l := range m.lame {
		if l.path&all != 0 {
			continue
		}
		if l.quiet && l.target&all == 0 || l.capture && l.target&enemy != 0 {
			moves++
			targets |= l.target
		}
		if l.capture {
			hit |= l.target
		}
	}
	if m.special {
		moves += p.countSpecialExcept(&p.v.moves[p.board[s]][s], s, us, true)
	}
	if attacked != nil {
		*attacked |= hit
	}
	return moves, bits.OnesCount64(hit & zone.mask), bits.OnesCount64(targets & checkSquares)
}
