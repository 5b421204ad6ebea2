package gen

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// secondsPerEntry is a generation's time per entry (both sides to move,
// distances to mate and to zeroing) on two cores, measured on a 2-core
// machine: KQRvKQ 0.9 µs (149 s), KBNvKN 1.6 µs, grand KRvKR 0.8 µs (per
// entry, with its smaller tables). The estimate takes the slower end.
const secondsPerEntry = 1.5e-6

// GenerationCost estimates what generating a material's table takes, by
// the generator that will make it.
func GenerationCost(v *engine.Variant, m tablebase.Material) (tablebase.Cost, error) {
	m, err := m.Normalised(v)
	if err != nil {
		return tablebase.Cost{}, err
	}
	g, err := newGeometry(v, m)
	if err != nil {
		return tablebase.Cost{}, err
	}
	c := tablebase.Cost{Entries: g.Size, File: tablebase.FileBytes(v, m, g.Size), Seconds: float64(g.Size) * secondsPerEntry}
	if g.BitParallel() {
		// The values, bitmaps by node (and by node for each pawn's
		// en-passant twins), and the nodes captures decide later (a few
		// bytes per entry at most).
		bitmaps := int64(2+len(twinDirections(g))) * bitmapsPerSide
		c.Memory = int64(g.Size)*2*bitBytesPerEntry + int64(g.BitNodes())*bitmaps/8
	} else {
		c.Memory = int64(g.Size) * 2 * bytesPerEntry
	}
	if tablebase.HasDTZ(v) {
		// The distances to zeroing are walked after the distances to mate,
		// whose working memory is freed by then.
		c.Memory = max(c.Memory, int64(g.Size)*2*dtzBytesPerEntry)
	}
	return c, nil
}

// dtzBytesPerEntry estimates the distance-to-zeroing walk's memory per
// entry and side to move: both metrics' values, the outcome being walked
// (two bytes), the state (five), the layer and a bucket share.
const dtzBytesPerEntry = 14

// bytesPerEntry estimates the per-entry generator's memory per entry and
// side to move: the value, reply counter, flags and bucket share.
const bytesPerEntry = 10

// bitBytesPerEntry estimates the bit-parallel generator's memory per
// entry and side to move besides its bitmaps: the value and a share of
// the nodes waiting for the level a capture decides them at.
const bitBytesPerEntry = 4

// bitmapsPerSide is the bit-parallel generator's bitmaps per side to move
// (and per set of twins).
const bitmapsPerSide = 6

// Generator is the generator a store is given (tablebase.Store's
// Generator): the bit-parallel generator where it applies, else the
// per-entry one, the distances to zeroing after either.
type Generator struct{}

// Generate is GenerateWith.
func (Generator) Generate(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables, hooks tablebase.Hooks) (*tablebase.Table, error) {
	return GenerateWith(v, m, sub, hooks)
}

// Needs is the package's Needs.
func (Generator) Needs(v *engine.Variant, m tablebase.Material) ([]tablebase.Material, error) {
	return Needs(v, m)
}

// Cost is GenerationCost.
func (Generator) Cost(v *engine.Variant, m tablebase.Material) (tablebase.Cost, error) {
	return GenerationCost(v, m)
}

// NewStore returns a store of dir ("" means tablebase.DefaultDir) that
// generates what the Build policy asks for: tablebase.NewStore with this
// package's Generator.
func NewStore(dir string) *tablebase.Store {
	s := tablebase.NewStore(dir)
	s.Generator = Generator{}
	return s
}
