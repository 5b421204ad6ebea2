// Package gen generates endgame tablebases by retrograde analysis: start
// from the mates, walk un-moves, and count for every defending position
// the replies not yet proven lost. Captures and promotions lead into
// smaller tables, generated first. The bit-parallel generator takes every
// table on up to 64 squares, the per-entry one the larger boards; both
// fold out the board's symmetries and leave en-passant rights to the
// prober. The distances to zeroing follow in a second walk: bit-parallel
// after the bit-parallel generator (bitdtz.go), per entry after the other
// (dtz.go).
// Verify checks a table against the rules core, GenerationCost says what
// a generation takes, and Generator is what a tablebase.Store is handed
// to build the tables it lacks (NewStore).
package gen

import (
	"fmt"
	"runtime"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// generation is the working state of one generation.
type generation struct {
	t    *tablebase.Table
	g    *layout.Geometry
	sub  tablebase.Subtables
	subs map[int]*tablebase.Table // by captured slot
	// promos[i][victim+1][k] is the table after the piece in slot i
	// promotes to its k-th promotion piece, taking victim (or -1).
	promos     [][][]*tablebase.Table
	promoTypes []int // the variant's promotion piece types
	// twins are the positions just after a double step that can be taken
	// en passant (nil when the material has none).
	twins *epTwins
	// state is each entry's working state, by side to move, packed so
	// that informing an entry touches one cache line besides its value.
	state [2][]entryState
	// known has a bit per entry, by side to move, set once its value is
	// known: a bitmap small enough to stay in cache, so the many un-moves
	// into positions already won are dropped without touching val.
	known   [2][]uint64
	buckets [][]uint32 // by plies: entries resolved at that distance (stm<<31 | index)
	// eager[c]: count colour c's replies when first examined, since its
	// opponent has more than a royal piece and c may well lose; a side
	// facing a lone royal, or with more material than the other, is
	// counted lazily, when a reply is first lost.
	eager [2]bool
	hooks tablebase.Hooks
	// unmoveSkip has a bit for each slot whose moves are not walked back
	// (the pawns, whose moves zero the move-rule count, in dtz.go).
	unmoveSkip uint32
}

// maxPlies bounds distances to mate; values are stored in a byte.
const maxPlies = layout.NotPosition - 2

// Generate builds the table for a material by retrograde analysis; sub
// supplies the smaller tables captures lead into. progress, when not nil,
// is told the fraction done.
func Generate(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables, progress func(float64)) (*tablebase.Table, error) {
	return GenerateWith(v, m, sub, tablebase.Hooks{Progress: progress})
}

// GenerateWith is Generate with hooks to follow, pause and prioritise the
// work.
func GenerateWith(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables, hooks tablebase.Hooks) (*tablebase.Table, error) {
	return generate(v, m, sub, hooks, genOptions{})
}

// genOptions chooses a generation's walks, for tests that compare them.
type genOptions struct {
	perEntry    bool // the per-entry generator where the bit-parallel one would do
	noDTZ       bool // the distances to mate alone
	dtzPerEntry bool // dtz.go's walk where the bit-parallel one would do
}

// generate is GenerateWith with the walks opts chooses.
func generate(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables, hooks tablebase.Hooks, opts genOptions) (*tablebase.Table, error) {
	g, err := newGeometry(v, m)
	if err != nil {
		return nil, err
	}
	t := tablebase.Generated(v, m, layout.Data{Geo: g}, sub)
	// With distances to zeroing the distances to mate are the first
	// part of the work, the walk for zeroing the rest.
	dtmHooks := hooks
	withDTZ := !opts.noDTZ && tablebase.HasDTZ(v)
	if report := hooks.Progress; report != nil && withDTZ {
		dtmHooks.Progress = func(f float64) { report(dtmShare * f) }
	}
	gen := &generation{t: t, g: g, sub: sub, subs: map[int]*tablebase.Table{}, buckets: make([][]uint32, maxPlies+2), hooks: dtmHooks}
	if err := gen.loadSubtables(v, m); err != nil {
		return nil, err
	}
	bitParallel := !opts.perEntry && g.BitParallel()
	dtzBits := withDTZ && bitParallel && !opts.dtzPerEntry
	if bitParallel {
		bg, err := gen.bitParallelDTM(runtime.NumCPU(), dtzBits)
		if err != nil {
			return nil, err
		}
		gen.hooks = hooks
		if dtzBits {
			if err := bg.walkDTZ(); err != nil {
				return nil, err
			}
		}
		if !bg.readOut() {
			return nil, tablebase.ErrAbandoned
		}
	} else if !gen.generatePerEntry(runtime.NumCPU()) {
		return nil, tablebase.ErrAbandoned
	}
	gen.hooks = hooks
	if withDTZ && !dtzBits {
		if err := gen.generateDTZ(runtime.NumCPU()); err != nil {
			return nil, err
		}
	}
	hooks.Report(1)
	return t, nil
}

// loadSubtables gets the tables that captures and promotions lead into.
func (gen *generation) loadSubtables(v *engine.Variant, m tablebase.Material) error {
	g := gen.g
	for _, l := range v.PromotionTypes {
		gen.promoTypes = append(gen.promoTypes, v.TypeByLetter(l))
	}
	gen.promos = make([][][]*tablebase.Table, len(g.Pieces))
	for _, c := range children(g, v, m) {
		child, err := c.m.Normalised(v)
		if err != nil {
			return err
		}
		st, err := gen.sub(child)
		if err != nil {
			return err
		}
		// The generation looks up captures' positions at random: its
		// subtables' entries all in memory, not block by block.
		if st, err = st.Dense(); err != nil {
			return err
		}
		if !c.promotes {
			gen.subs[c.slot] = st
			continue
		}
		if gen.promos[c.slot] == nil {
			gen.promos[c.slot] = make([][]*tablebase.Table, len(g.Pieces)+1)
		}
		gen.promos[c.slot][c.victim+1] = append(gen.promos[c.slot][c.victim+1], st)
	}
	return nil
}

// child is a table a table's captures or promotions lead into.
type child struct {
	m        tablebase.Material // not normalised
	slot     int                // the captured piece's slot, or the promoting one's
	promotes bool
	victim   int // a promotion's capture: its slot, or -1
}

// children lists the tables m's captures and promotions lead into, in the
// order the generator looks them up: captures by slot, then promotions by
// slot, victim and promotion type. A capture that leaves bare royal
// pieces leads into none (a draw).
func children(g *layout.Geometry, v *engine.Variant, m tablebase.Material) []child {
	var out []child
	for i := range g.Pieces {
		if isRoyal(v, g.Pieces[i]) {
			continue
		}
		if c := m.Without(i); len(c.Strong)+len(c.Weak) > 2 {
			out = append(out, child{m: c, slot: i, victim: -1})
		}
	}
	for i := range g.Pieces {
		if g.Kind[i].Promotes == nil {
			continue
		}
		for victim := -1; victim < len(g.Pieces); victim++ {
			if victim >= 0 && (g.Colour[victim] == g.Colour[i] || isRoyal(v, g.Pieces[victim])) {
				continue
			}
			for _, l := range v.PromotionTypes {
				c := m.Replaced(i, l)
				if victim >= 0 {
					c = c.Without(victim)
				}
				out = append(out, child{m: c, slot: i, promotes: true, victim: victim})
			}
		}
	}
	return out
}

// Needs returns the tables a material's table is valued through: the
// ones its captures and promotions lead into, normalised, each once.
func Needs(v *engine.Variant, m tablebase.Material) ([]tablebase.Material, error) {
	m, err := m.Normalised(v)
	if err != nil {
		return nil, err
	}
	g, err := newGeometry(v, m)
	if err != nil {
		return nil, err
	}
	var out []tablebase.Material
	seen := map[tablebase.Material]bool{}
	for _, c := range children(g, v, m) {
		n, err := c.m.Normalised(v)
		if err != nil {
			return nil, err
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func isRoyal(v *engine.Variant, pc engine.Piece) bool { return v.PieceType(pc).Royal }

// captureResults sums up what a position's legal captures lead to.
type captureResults struct {
	n             int  // legal captures
	winBy, lossBy int  // fastest mate by a capture, slowest loss; -1 if none
	draw          bool // some capture draws
	// For the distances to zeroing (addZeroing): a capture into a loss
	// for the opponent within the move rule, one beyond it, and a
	// capture into a win for the opponent beyond it.
	lostNear, lostFar, wonFar bool
}

// add counts a capture into a child of value v (the opponent to move).
func (c *captureResults) add(v byte) {
	c.n++
	switch {
	case v == 0:
		c.draw = true
	case (v-1)%2 == 0: // the opponent is mated in v−1 plies: we mate in v
		if w := int(v); c.winBy < 0 || w < c.winBy {
			c.winBy = w
		}
	default:
		c.lossBy = max(c.lossBy, int(v)) // we are mated in v plies
	}
}

// addZeroing records a capture into a child of value v and distance to
// zeroing dtz (the opponent to move), limit the rule's plies.
func (c *captureResults) addZeroing(v, dtz byte, limit int) {
	far := int(dtz) > limit
	switch {
	case v == 0:
	case (v-1)%2 == 0:
		c.lostNear, c.lostFar = c.lostNear || !far, c.lostFar || far
	default:
		c.wonFar = c.wonFar || far
	}
}

// newGeometry checks a material against the rules the generator models
// (CheckMaterial) and builds its geometry.
func newGeometry(v *engine.Variant, m tablebase.Material) (*layout.Geometry, error) {
	if err := tablebase.CheckMaterial(v, m); err != nil {
		return nil, err
	}
	g, err := layout.NewGeometry(v, m.Pieces(v))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m, err)
	}
	return g, nil
}
