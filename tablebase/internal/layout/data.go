package layout

import (
	"github.com/chimera-chess/chimera/engine"
)

// MaxPieces is the most pieces (kings included) a table may hold.
const MaxPieces = 5

// Data is a table's entries: its geometry, and by side to move (0 White)
// each entry's value and distance to zeroing. A Table embeds it; the
// generator fills it.
type Data struct {
	Geo *Geometry
	Val [2][]byte // by side to move (0 White), by entry index
	// DTZ holds each entry's distance to zeroing in plies (dtz.go), its
	// sign the one of Val's outcome; nil where the variant has no move
	// rule.
	DTZ [2][]byte
}

// NotPosition marks the entries that are no legal canonical position.
// The other entry values, per side to move: 0 is a draw, and any other v
// is a decided position with v−1 plies to mate: odd plies mean the side to move mates,
// even plies that it is mated (0: checkmated now).
const NotPosition = 255

// MaxDTZ bounds a stored distance to zeroing: one byte per entry.
const MaxDTZ = 254

// Outcome is a position's value for its side to move: wdl 1, 0 or −1 and
// the distance to zeroing.
type Outcome struct{ WDL, D int }

// Terminal sums up a position's zeroing moves.
type Terminal struct {
	ZWin, ZLoss int
	Draw        bool
}

// Add counts a zeroing move into a position the opponent moves in, worth
// o for the opponent.
func (z *Terminal) Add(o Outcome, limit int) {
	at := 1
	if o.D > limit {
		at = limit + 1 // beyond the rule: a cursed win or a blessed loss
	}
	switch {
	case o.WDL == 0:
		z.Draw = true
	case o.WDL < 0:
		if z.ZWin == 0 || at < z.ZWin {
			z.ZWin = at
		}
	default:
		z.ZLoss = max(z.ZLoss, at)
	}
}

// ValueOf returns the entry value of a placement given as pieces with
// compact squares and the side to move, whichever colour holds the strong
// side: a mirrored placement (colours swapped, ranks mirrored) is looked
// up as the position it is. It returns NotPosition when the pieces do not
// fit the table.
func (t *Data) ValueOf(pieces []engine.Piece, squares []int, stm int) byte {
	side, idx, ok := t.EntryOf(pieces, squares, stm)
	if !ok {
		return NotPosition
	}
	return t.Val[side][idx]
}

// EntryOf returns the side to move and the entry of a placement given as
// in valueOf; false when the pieces do not fit the table.
func (t *Data) EntryOf(pieces []engine.Piece, squares []int, stm int) (side, idx int, ok bool) {
	m, ok := t.Match(pieces)
	if !ok {
		return 0, 0, false
	}
	var sq [MaxPieces]int
	side = m.Place(t.Geo, squares, stm, sq[:])
	if t.Geo.Banned(sq[:len(pieces)]) {
		return 0, 0, false // a pawn where it never stands
	}
	return side, t.Geo.Canonical(sq[:len(pieces)]), true
}

// SlotMatch says where a list of pieces goes in a table: the piece for
// each slot, and whether colours are swapped (and ranks mirrored).
type SlotMatch struct {
	From [MaxPieces]int // by slot: the index in the list
	swap bool
}

// Match finds the slots of a list of pieces, as it stands or with colours
// swapped; it reports false when the pieces do not fit the table.
func (t *Data) Match(pieces []engine.Piece) (SlotMatch, bool) {
	g := t.Geo
	if len(pieces) != len(g.Pieces) {
		return SlotMatch{}, false
	}
	for _, swap := range []bool{false, true} {
		m := SlotMatch{swap: swap}
		var used [MaxPieces]bool
		ok := true
		for slot, want := range g.Pieces {
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
			m.From[slot] = found
		}
		if ok {
			return m, true
		}
	}
	return SlotMatch{}, false
}

// Place fills sq (by slot) from the list's squares and returns the side to
// move in the table's terms.
func (m SlotMatch) Place(g *Geometry, squares []int, stm int, sq []int) int {
	for slot := range g.Pieces {
		s := squares[m.From[slot]]
		if m.swap {
			s = (g.H-1-s/g.W)*g.W + s%g.W
		}
		sq[slot] = s
	}
	if m.swap {
		return 1 - stm
	}
	return stm
}

// Position sets up a placement (compact squares in slot order) with side
// stm to move.
func (t *Data) Position(v *engine.Variant, sq []int, stm int) (*engine.Position, error) {
	g := t.Geo
	placed := make([]engine.Placement, len(sq))
	for i, c := range sq {
		placed[i] = engine.Placement{Square: engine.SquareAt(c%g.W, c/g.W), Piece: g.Pieces[i]}
	}
	return v.SetUp(placed, engine.Colour(stm))
}
