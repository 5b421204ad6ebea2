package tablebase

import "github.com/chimera-chess/chimera/engine"

// Data is a table's entries: its geometry, and by side to move (0 White)
// each entry's value and distance to zeroing. A Table embeds it; the
// generator fills it.
type Data struct {
	geo *geometry
	val [2][]byte // by side to move (0 White), by entry index
	// dtz holds each entry's distance to zeroing in plies (dtz.go), its
	// sign the one of val's outcome; nil where the variant has no move
	// rule.
	dtz [2][]byte
}

// Entry values, per side to move: 0 is a draw, notPosition marks indices
// that are no legal canonical position, and any other v is a decided
// position with v−1 plies to mate: odd plies mean the side to move mates,
// even plies that it is mated (0: checkmated now).
const notPosition = 255

// maxDTZ bounds a stored distance to zeroing: one byte per entry.
const maxDTZ = 254

// outcome is a position's value for its side to move: wdl 1, 0 or −1 and
// the distance to zeroing.
type outcome struct{ wdl, d int }

// terminal sums up a position's zeroing moves.
type terminal struct {
	zwin, zloss int
	draw        bool
}

// add counts a zeroing move into a position the opponent moves in, worth
// o for the opponent.
func (z *terminal) add(o outcome, limit int) {
	at := 1
	if o.d > limit {
		at = limit + 1 // beyond the rule: a cursed win or a blessed loss
	}
	switch {
	case o.wdl == 0:
		z.draw = true
	case o.wdl < 0:
		if z.zwin == 0 || at < z.zwin {
			z.zwin = at
		}
	default:
		z.zloss = max(z.zloss, at)
	}
}

// valueOf returns the entry value of a placement given as pieces with
// compact squares and the side to move, whichever colour holds the strong
// side: a mirrored placement (colours swapped, ranks mirrored) is looked
// up as the position it is. It returns notPosition when the pieces do not
// fit the table.
func (t *Data) valueOf(pieces []engine.Piece, squares []int, stm int) byte {
	side, idx, ok := t.entryOf(pieces, squares, stm)
	if !ok {
		return notPosition
	}
	return t.val[side][idx]
}

// entryOf returns the side to move and the entry of a placement given as
// in valueOf; false when the pieces do not fit the table.
func (t *Data) entryOf(pieces []engine.Piece, squares []int, stm int) (side, idx int, ok bool) {
	m, ok := t.match(pieces)
	if !ok {
		return 0, 0, false
	}
	var sq [MaxPieces]int
	side = m.place(t.geo, squares, stm, sq[:])
	if t.geo.banned(sq[:len(pieces)]) {
		return 0, 0, false // a pawn where it never stands
	}
	return side, t.geo.canonical(sq[:len(pieces)]), true
}

// slotMatch says where a list of pieces goes in a table: the piece for
// each slot, and whether colours are swapped (and ranks mirrored).
type slotMatch struct {
	from [MaxPieces]int // by slot: the index in the list
	swap bool
}

// match finds the slots of a list of pieces, as it stands or with colours
// swapped; it reports false when the pieces do not fit the table.
func (t *Data) match(pieces []engine.Piece) (slotMatch, bool) {
	g := t.geo
	if len(pieces) != len(g.pieces) {
		return slotMatch{}, false
	}
	for _, swap := range []bool{false, true} {
		m := slotMatch{swap: swap}
		var used [MaxPieces]bool
		ok := true
		for slot, want := range g.pieces {
			found := -1
			for j, pc := range pieces {
				c := pc.Colour()
				if swap {
					c = c.Other()
				}
				if !used[j] && pc.Type() == want.Type() && c == want.Colour() {
					found = j
					break
				}
			}
			if found < 0 {
				ok = false
				break
			}
			used[found] = true
			m.from[slot] = found
		}
		if ok {
			return m, true
		}
	}
	return slotMatch{}, false
}

// place fills sq (by slot) from the list's squares and returns the side to
// move in the table's terms.
func (m slotMatch) place(g *geometry, squares []int, stm int, sq []int) int {
	for slot := range g.pieces {
		s := squares[m.from[slot]]
		if m.swap {
			s = (g.h-1-s/g.w)*g.w + s%g.w
		}
		sq[slot] = s
	}
	if m.swap {
		return 1 - stm
	}
	return stm
}

// position sets up a placement (compact squares in slot order) with side
// stm to move.
func (t *Data) position(v *engine.Variant, sq []int, stm int) (*engine.Position, error) {
	g := t.geo
	placed := make([]engine.Placement, len(sq))
	for i, c := range sq {
		placed[i] = engine.Placement{Square: engine.SquareAt(c%g.w, c/g.w), Piece: g.pieces[i]}
	}
	return v.SetUp(placed, engine.Colour(stm))
}
