package engine

// This file is the small-board layer: on boards of at most 64 squares each
// square is a bit and each piece's targets from each square are masks, so
// the legal-move generator finds captures (genTactical), attack detection
// rejects leaps (Position.occupancy) and the evaluation counts mobility
// (mobilities) with a few AND and popcount instructions instead of loops.

import "math/bits"

// smallBoard holds, for boards of at most 64 squares, each square as a bit
// and each piece's targets as masks, so mobility is a few popcounts.
type smallBoard struct {
	bit    [NumSquares]uint64 // square → its bit
	square [64]Square         // bit index → its square
	zone   [2]uint64          // promotion zones
	flag   [2]uint64          // flag regions
	masks  [64][]smallMoves   // by piece code, then square
	// checks[c][s]: where colour c's pieces attack s from (CheckZones).
	checks [2][NumSquares]smallChecks
}

// smallChecks are the squares one colour's pieces attack one square from,
// as masks: the plain leaps by piece type, and the rides outward from the
// square with the types that ride them (the blockable leaps stay in the
// attack tables).
type smallChecks struct {
	leaps []typeLeaps
	rays  []typeRay
}

// typeLeaps: a piece of type typ on any square of from attacks the square.
type typeLeaps struct {
	typ  int
	from uint64
}

// typeRay: the pieces of the types in types (a bit per type) attack the
// square along ray, from the squares up to and including the first piece;
// pieces holds the same as piece codes, for attack detection.
type typeRay struct {
	ray    smallRay
	types  uint32
	pieces uint64
}

// smallMoves are one piece's targets from one square as masks.
type smallMoves struct {
	quiet, both, capt uint64
	rays              []smallRay  // plain rays
	lame              []smallLame // blockable leaps
	special           bool        // has targets countSpecial must count
}

// smallRay is a plain ray from one square: line holds every square of it,
// and up says it runs to higher bits (a square's bit is rank·width+file,
// so every straight ray runs one way through the bits).
type smallRay struct {
	line uint64
	up   bool
}

// reach returns the squares the rider reaches along the ray: up to and
// including the first occupied square.
//
// Without a branch on whether the ray is blocked, nor a table: along a ray
// to higher bits, blockers ^ (blockers-1) is every bit up to and including
// the lowest blocker (all of them when there is none); along one to lower
// bits, the bits from the highest blocker up (blockers|1 makes an empty
// ray's "highest blocker" bit 0, which keeps every bit).
func (sb *smallBoard) reach(ray *smallRay, occupied uint64) uint64 {
	blockers := ray.line & occupied
	if ray.up {
		return ray.line & (blockers ^ (blockers - 1))
	}
	highest := uint64(1) << 63 >> bits.LeadingZeros64(blockers|1)
	return ray.line &^ (highest - 1)
}

// first returns the first occupied square along the ray, false when there
// is none: the one square a rider along it can attack from.
func (sb *smallBoard) first(ray *smallRay, occupied uint64) (Square, bool) {
	blockers := ray.line & occupied
	if blockers == 0 {
		return NoSquare, false
	}
	if ray.up {
		return sb.square[bits.TrailingZeros64(blockers)], true
	}
	return sb.square[63-bits.LeadingZeros64(blockers)], true
}

// smallLame is a blockable leap as masks: the target counts when path is
// empty (and the target empty for a quiet move, an enemy for a capture).
type smallLame struct {
	target, path   uint64
	quiet, capture bool
}

func (v *Variant) buildSmallBoard() *smallBoard {
	if v.Width*v.Height > 64 {
		return nil
	}
	sb := &smallBoard{}
	for f := 0; f < v.Width; f++ {
		for r := 0; r < v.Height; r++ {
			sb.bit[SquareAt(f, r)] = 1 << (r*v.Width + f)
			sb.square[r*v.Width+f] = SquareAt(f, r)
		}
	}
	for s := 0; s < NumSquares; s++ {
		for c := range sb.zone {
			if v.PromotionZone[c].Has(Square(s)) {
				sb.zone[c] |= sb.bit[s]
			}
			if v.FlagRegion[c].Has(Square(s)) {
				sb.flag[c] |= sb.bit[s]
			}
		}
	}
	set := func(squares []Square) uint64 {
		var m uint64
		for _, s := range squares {
			m |= sb.bit[s]
		}
		return m
	}
	for pc := range v.moves {
		if v.moves[pc] == nil {
			continue
		}
		sb.masks[pc] = make([]smallMoves, NumSquares)
		for s := range v.moves[pc] {
			sm := &v.moves[pc][s]
			m := smallMoves{quiet: set(sm.quiet), both: set(sm.both), capt: set(sm.capt), special: len(sm.hops) > 0}
			for _, l := range sm.lame {
				if l.screen {
					return nil // a cannon's palace jump: the masks cannot say it
				}
				m.lame = append(m.lame, smallLame{target: sb.bit[l.to], path: set(l.path), quiet: l.quiet, capture: l.capture})
			}
			for _, r := range sm.rays {
				if !r.plain {
					m.special = true
					continue
				}
				m.rays = append(m.rays, sb.ray(Square(s), r.squares, set))
			}
			sb.masks[pc][s] = m
		}
	}
	sb.buildChecks(v, set)
	return sb
}

// buildChecks fills sb.checks from the attack tables.
func (sb *smallBoard) buildChecks(v *Variant, set func([]Square) uint64) {
	types := func(pieces uint64) uint32 {
		var t uint32
		for ; pieces != 0; pieces &= pieces - 1 {
			t |= 1 << Piece(bits.TrailingZeros64(pieces)).Type()
		}
		return t
	}
	for c := range sb.checks {
		at := &v.attacks[c]
		for s := range NumSquares {
			if !v.onBoard.Has(Square(s)) {
				continue
			}
			sc := &sb.checks[c][s]
			var from [MaxPieceTypes + 1]uint64
			for _, a := range at.leaps[s] {
				for t := types(a.pieces); t != 0; t &= t - 1 {
					from[bits.TrailingZeros32(t)] |= sb.bit[a.from]
				}
			}
			for t, m := range from {
				if m != 0 {
					sc.leaps = append(sc.leaps, typeLeaps{typ: t, from: m})
				}
			}
			for _, d := range at.rayDirs {
				line := v.rays[d.ray][s]
				if len(line) == 0 {
					continue // s is at the board's edge
				}
				sc.rays = append(sc.rays, typeRay{ray: sb.ray(Square(s), line, set), types: types(d.pieces), pieces: d.pieces})
			}
		}
	}
}

// ray returns the masks of the ray from from through squares.
func (sb *smallBoard) ray(from Square, squares []Square, set func([]Square) uint64) smallRay {
	return smallRay{line: set(squares), up: len(squares) > 0 && sb.bit[squares[0]] > sb.bit[from]}
}

// genTactical appends the captures and promotions of the piece on from,
// like genPiece in tactical mode, with the masks: the quiescence search's
// generator. occ is the position's occupancy.
func (sb *smallBoard) genTactical(p *Position, dst []Move, from Square, occ *[2]uint64) []Move {
	pc := p.board[from]
	m := &sb.masks[pc][from]
	pawn := p.v.pawnTypes>>pc&1 != 0
	if m.special || (pawn && len(m.rays) > 0) {
		return p.genPiece(dst, from)
	}
	us := pc.Colour()
	all, enemy := occ[0]|occ[1], occ[us^1]
	targets := (m.both | m.capt) & enemy
	if pawn {
		targets |= (m.quiet | m.both) &^ all & sb.zone[us]
	}
	for i := range m.rays {
		targets |= sb.reach(&m.rays[i], all) & enemy
	}
	for _, l := range m.lame {
		if l.path&all == 0 && (l.capture && l.target&enemy != 0 || pawn && l.quiet && l.target&^all&sb.zone[us] != 0) {
			targets |= l.target
		}
	}
	for targets != 0 {
		t := sb.square[bits.TrailingZeros64(targets)]
		targets &= targets - 1
		dst = p.push(dst, NewMove(from, t), pawn)
	}
	if p.ep[0] != NoSquare {
		for _, t := range p.v.moves[pc][from].epCapt {
			if p.ep.has(t) {
				dst = append(dst, newSpecialMove(from, t, EnPassant, 0))
			}
		}
	}
	return dst
}

// genFull appends all the moves of the piece on from, like genPiece, with
// the masks: for a side without a royal piece, whose pseudo-legal moves
// are its legal ones (clobber, breakthrough, antichess). Pawns and pieces
// the masks cannot describe go to genPiece.
func (sb *smallBoard) genFull(p *Position, dst []Move, from Square) []Move {
	pc := p.board[from]
	m := &sb.masks[pc][from]
	if m.special || p.v.pawnTypes>>pc&1 != 0 || len(p.v.moves[pc][from].epCapt) > 0 {
		return p.genPiece(dst, from)
	}
	us := pc.Colour()
	own, enemy := p.occupancy[us], p.occupancy[us^1]
	all := own | enemy
	targets := m.quiet&^all | m.both&^own | m.capt&enemy
	for i := range m.rays {
		targets |= sb.reach(&m.rays[i], all) &^ own
	}
	for _, l := range m.lame {
		if l.path&all == 0 && (l.quiet && l.target&^all != 0 || l.capture && l.target&enemy != 0) {
			targets |= l.target
		}
	}
	plain := !p.v.pieceRules // push would only append
	for targets != 0 {
		t := sb.square[bits.TrailingZeros64(targets)]
		targets &= targets - 1
		if plain {
			dst = append(dst, NewMove(from, t))
		} else {
			dst = p.push(dst, NewMove(from, t), false)
		}
	}
	return dst
}

// mobilities counts both sides' targets with the masks.
func (sb *smallBoard) mobilities(p *Position) (white, black int) {
	occ := &p.occupancy
	all := occ[White] | occ[Black]
	var n [2]int
	for c := White; c <= Black; c++ {
		own, enemy := occ[c], occ[c^1]
		for _, s := range p.Pieces(c) {
			m := &sb.masks[p.board[s]][s]
			k := bits.OnesCount64(m.both&^own) + bits.OnesCount64(m.quiet&^all) + bits.OnesCount64(m.capt&enemy)
			for i := range m.rays {
				k += bits.OnesCount64(sb.reach(&m.rays[i], all) &^ own)
			}
			for _, l := range m.lame {
				if l.path&all == 0 && (l.quiet && l.target&all == 0 || l.capture && l.target&enemy != 0) {
					k++
				}
			}
			if m.special {
				k += p.countSpecialExcept(&p.v.moves[p.board[s]][s], s, c, true)
			}
			n[c] += k
		}
	}
	return n[White], n[Black]
}
