package gen

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// secondsPerEntry is a per-entry generation's time per entry (both sides
// to move, distances to mate and to zeroing) on two cores, measured on a
// 2-core machine: KBNvKN 1.6 µs, grand KRvKR 0.8 µs (per entry, with its
// smaller tables). The estimate takes the slower end.
const secondsPerEntry = 1.5e-6

// bitSecondsPerEntry is the bit-parallel generator's, both walks and the
// compressed file: KQRvKQ 0.65 µs (110 s) on the 2-core machine.
const bitSecondsPerEntry = 0.7e-6

// GenerationCost estimates what generating a material's table takes, by
// the generator that will make it: its own work, and the tables its
// captures and promotions lead into, which it holds whole (it looks them
// up at random).
func GenerationCost(v *engine.Variant, m tablebase.Material) (tablebase.Cost, error) {
	m, err := m.Normalised(v)
	if err != nil {
		return tablebase.Cost{}, err
	}
	c, err := ownCost(v, m)
	if err != nil {
		return tablebase.Cost{}, err
	}
	subtables, err := subtableBytes(v, m)
	if err != nil {
		return tablebase.Cost{}, err
	}
	c.Memory += subtables
	return c, nil
}

// ownCost is GenerationCost without the smaller tables.
func ownCost(v *engine.Variant, m tablebase.Material) (tablebase.Cost, error) {
	g, err := newGeometry(v, m)
	if err != nil {
		return tablebase.Cost{}, err
	}
	c := tablebase.Cost{Entries: g.Size, File: tablebase.FileBytes(v, m, g.Size) / packedShare, Seconds: float64(g.Size) * secondsPerEntry}
	if g.BitParallel() {
		// The values (and distances), bitmaps by node (and by node for
		// each pawn's en-passant twins), and the nodes captures decide
		// later (a few bytes per entry at most, gone before the
		// distances are made). The walk of the distances to zeroing
		// holds the most bitmaps.
		perSide, perTwins := bitmapsPerSide, bitmapsPerSide
		if tablebase.HasDTZ(v) {
			perSide, perTwins = dtzBitmapsPerSide, dtzBitmapsPerTwins
		}
		bitmaps := int64(2*perSide + len(twinDirections(g))*perTwins)
		c.Memory = int64(g.Size)*2*bitBytesPerEntry + int64(g.BitNodes())*bitmaps/8
		c.Seconds = float64(g.Size) * bitSecondsPerEntry
		return c, nil
	}
	c.Memory = int64(g.Size) * 2 * bytesPerEntry
	if tablebase.HasDTZ(v) {
		// The distances to zeroing are walked after the distances to mate,
		// whose working memory is freed by then.
		c.Memory = max(c.Memory, int64(g.Size)*2*dtzBytesPerEntry)
	}
	return c, nil
}

// subtableBytes is the memory of the tables a material's generation
// reads whole: a value byte per entry and side, and a distance byte too
// where the variant has a move rule.
func subtableBytes(v *engine.Variant, m tablebase.Material) (int64, error) {
	needs, err := Needs(v, m)
	if err != nil {
		return 0, err
	}
	perEntry := int64(2)
	if tablebase.HasDTZ(v) {
		perEntry = 4
	}
	var total int64
	for _, n := range needs {
		g, err := newGeometry(v, n)
		if err != nil {
			return 0, err
		}
		total += int64(g.Size) * perEntry
	}
	return total, nil
}

// packedShare is the estimate of how many times smaller a packed file is
// than its entries (tablebase.FileBytes), with a margin: the chess tables
// of up to four pieces pack into 7% of it, KQRvKQ into 11.7%.
const packedShare = 6

// dtzBytesPerEntry estimates the per-entry walk of the distances to
// zeroing's memory per entry and side to move: both metrics' values, the
// outcome being walked (two bytes), the state (five), the layer and a
// bucket share.
const dtzBytesPerEntry = 14

// dtzBitmapsPerSide and dtzBitmapsPerTwins are the bit-parallel walk of
// the distances to zeroing's bitmaps per side to move (the distance to
// mate's valid, known and won; near, far, known, and the fresh and
// gathered wins and losses; beyond the limit, with pawns) and per set of
// twins (the distance to mate's six; near, far, beyond the limit).
const (
	dtzBitmapsPerSide  = 11
	dtzBitmapsPerTwins = 9
)

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
