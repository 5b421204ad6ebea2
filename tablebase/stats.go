package tablebase

import (
	"slices"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// Stats are a table's figures over every legal placement, without
// symmetry reduction (identical pieces counted once per unordered
// placement), for one side to move, as the reference figures count them.
type Stats struct {
	Legal, Win, Draw, Loss int
	Checkmated, Stalemate  int
	// WinPlies and LossPlies count positions by distance to mate in plies.
	WinPlies, LossPlies map[int]int
	// DTZ counts positions by signed distance to zeroing (ProbeDTZ's
	// numbers); nil for a table without them.
	DTZ map[int]int
	// Longest are up to maxLongest positions of the longest win, the
	// side to move winning: the ones an explorer links to.
	Longest []*engine.Position
}

// maxLongest is how many positions of the longest win Stats keeps.
const maxLongest = 5

// MaxWin returns the longest win in plies and how many positions have it.
func (s Stats) MaxWin() (plies, count int) { return maxKey(s.WinPlies) }

// MaxLoss returns the longest loss in plies and how many positions have it.
func (s Stats) MaxLoss() (plies, count int) { return maxKey(s.LossPlies) }

func maxKey(m map[int]int) (int, int) {
	best := -1
	for k := range m {
		best = max(best, k)
	}
	if best < 0 {
		return 0, 0
	}
	return best, m[best]
}

// Stats enumerates every placement for side to move stm (0 White) and
// counts results. filter, when not nil, chooses placements (squares in
// slot order), e.g. by the bishop's colour. A table read from a damaged
// file gives partial figures: StatsUntil says why.
func (t *Table) Stats(stm int, filter func(sq []int) bool) Stats {
	st, _ := t.StatsUntil(stm, filter, nil)
	return st
}

// statsPoll is how many placements the count walks between two calls of
// its go-on function: a few milliseconds' work.
const statsPoll = 1 << 14

// StatsUntil is Stats with a way to stop: goOn, when not nil, is asked
// every few thousand placements, and the count ends with ErrAbandoned (and
// partial figures) once it says no (a server shutting down, a client
// gone). It may be asked from several goroutines at once (a side whose
// distances are searched is rebuilt on every processor first).
func (t *Table) StatsUntil(stm int, filter func(sq []int) bool, goOn func() bool) (Stats, error) {
	if t.dropped(stm) {
		// The side's distances are searched for, all at once: far
		// quicker than a search per placement (the walk does not fold
		// symmetric placements).
		d, err := t.denseUntil(goOn)
		if err != nil {
			return Stats{}, err
		}
		t = d
	}
	g := t.Geo
	st := Stats{WinPlies: map[int]int{}, LossPlies: map[int]int{}}
	if t.HasDTZ() {
		st.DTZ = map[int]int{}
	}
	var readErr error
	b := g.NewBoard()
	sq := make([]int, len(g.Pieces))
	var longest [][]int // placements of the longest win so far, top plies
	top := 0
	placements, stopped := 0, false
	var walk func(i int)
	walk = func(i int) {
		if stopped {
			return
		}
		if i == len(sq) {
			if placements++; goOn != nil && placements%statsPoll == 0 && !goOn() {
				stopped = true
				return
			}
			for _, pair := range g.Same {
				if sq[pair[0]] >= sq[pair[1]] {
					return
				}
			}
			if (filter != nil && !filter(sq)) || g.Banned(sq) {
				return
			}
			if !b.Place(sq) {
				return
			}
			defer b.Clear()
			if !b.Legal(stm) {
				return
			}
			st.Legal++
			v, dtz, err := t.valueDTZ(stm, g.Canonical(sq))
			if err != nil {
				readErr, stopped = err, true
				return
			}
			r := Decode(v)
			if st.DTZ != nil {
				st.DTZ[r.WDL*int(dtz)]++
			}
			switch {
			case r.WDL > 0:
				st.Win++
				st.WinPlies[r.DTM]++
				switch {
				case r.DTM > top:
					top, longest = r.DTM, append(longest[:0], slices.Clone(sq))
				case r.DTM == top && len(longest) < maxLongest:
					longest = append(longest, slices.Clone(sq))
				}
			case r.WDL < 0:
				st.Loss++
				st.LossPlies[-r.DTM]++
				if r.DTM == 0 {
					st.Checkmated++
				}
			default:
				st.Draw++
				if !b.HasMove(stm) {
					st.Stalemate++
				}
			}
			return
		}
		for s := 0; s < g.N; s++ {
			sq[i] = s
			walk(i + 1)
		}
	}
	walk(0)
	switch {
	case readErr != nil:
		return st, readErr
	case stopped:
		return st, ErrAbandoned
	}
	for _, sq := range longest {
		if p, err := t.Position(t.Variant, sq, stm); err == nil {
			st.Longest = append(st.Longest, p)
		}
	}
	return st, nil
}

// SlotsOf returns the slots (index order, as Stats filters see squares)
// holding pieces with the given letter, of either colour.
func (t *Table) SlotsOf(letter byte) []int {
	var out []int
	for i, pc := range t.Geo.Pieces {
		if t.Variant.PieceType(pc).Letter == letter {
			out = append(out, i)
		}
	}
	return out
}

// Symmetries names the board symmetries the table folds out besides the
// identity ("file mirror" once pawns are on the board; "all 8 of the
// square" for pawnless chess material), or says "none".
func (t *Table) Symmetries() string {
	switch len(t.Geo.SymNames) {
	case 0, 1:
		return "none"
	case 8:
		return "all 8 of the square"
	}
	return strings.Join(t.Geo.SymNames[1:], ", ")
}

// Generator names the generator that makes the table, and why the
// per-entry one when it is not the bit-parallel one.
func (t *Table) Generator() string {
	g := t.Geo
	switch {
	case g.BitParallel():
		return "bit-parallel"
	case g.N > 64:
		return "per-entry: a board over 64 squares"
	}
	return "per-entry"
}

// Entries returns the number of entries per side to move.
func (t *Table) Entries() int { return t.Geo.Size }
