package tablebase

import (
	"github.com/chimera-chess/chimera/engine"
)

// Cost is what making a table takes.
type Cost struct {
	// Entries per side to move.
	Entries int
	// Memory is the estimated working memory of its generation, in bytes
	// (the smaller tables it needs are generated before it, each within
	// its own, and those it reads are counted by them).
	Memory int64
	// File is the size of its file, in bytes.
	File int64
	// Seconds estimates the generation's time on two cores (from the
	// entries, at secondsPerEntry).
	Seconds float64
}

// secondsPerEntry is a generation's time per entry (both sides to move,
// distances to mate and to zeroing) on two cores, measured on a 2-core
// machine: KQRvKQ 0.9 µs (149 s), KBNvKN 1.6 µs, grand KRvKR 0.8 µs (per
// entry, with its smaller tables). The estimate takes the slower end.
const secondsPerEntry = 1.5e-6

// GenerationCost estimates what generating a material's table takes, by
// the generator that will make it.
func GenerationCost(v *engine.Variant, m Material) (Cost, error) {
	m, err := m.normalised(v)
	if err != nil {
		return Cost{}, err
	}
	g, err := newGeometry(v, m)
	if err != nil {
		return Cost{}, err
	}
	c := Cost{Entries: g.size, File: fileBytes(v, m, g.size), Seconds: float64(g.size) * secondsPerEntry}
	if g.bitParallel() {
		// The values, bitmaps by node (and by node for each pawn's
		// en-passant twins), and the nodes captures decide later (a few
		// bytes per entry at most).
		bitmaps := int64(2+len(twinDirections(g))) * bitmapsPerSide
		c.Memory = int64(g.size)*2*bitBytesPerEntry + int64(g.bitNodes())*bitmaps/8
	} else {
		c.Memory = int64(g.size) * 2 * bytesPerEntry
	}
	if HasDTZ(v) {
		// The distances to zeroing are walked after the distances to mate,
		// whose working memory is freed by then.
		c.Memory = max(c.Memory, int64(g.size)*2*dtzBytesPerEntry)
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
