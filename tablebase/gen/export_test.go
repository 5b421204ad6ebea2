package gen

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Corrupt changes the stored value of the first entry holding want into
// to (values as Result), for the verifier's tests; it reports whether one
// was found.
func Corrupt(t *tablebase.Table, stm int, want, to tablebase.Result) bool {
	for idx, v := range t.Val[stm] {
		if v != layout.NotPosition && tablebase.Decode(v) == want {
			t.Val[stm][idx] = encodeForTest(to)
			return true
		}
	}
	return false
}

func encodeForTest(r tablebase.Result) byte {
	switch {
	case r.WDL > 0:
		return byte(r.DTM + 1)
	case r.WDL < 0:
		return byte(-r.DTM + 1)
	}
	return 0
}

// GeneratePerEntry is Generate by the per-entry generator alone, without
// the distances to zeroing (the same walk whichever generator ran), for
// comparing it with the bit-parallel one.
func GeneratePerEntry(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error) {
	return generate(v, m, sub, tablebase.Hooks{}, genOptions{perEntry: true, noDTZ: true})
}

// GenerateDTM is Generate without the distances to zeroing, for tests of
// the distances to mate alone.
func GenerateDTM(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error) {
	return generate(v, m, sub, tablebase.Hooks{}, genOptions{noDTZ: true})
}

// Values returns a table's value bytes with side stm to move.
func Values(t *tablebase.Table, stm int) []byte { return t.Val[stm] }

// CorruptDTZ adds a ply to the distance to zeroing of the first won entry
// (side stm to move), for the verifier's tests.
func CorruptDTZ(t *tablebase.Table, stm int) bool {
	for idx, v := range t.Val[stm] {
		if v != layout.NotPosition && tablebase.Decode(v).WDL > 0 && t.DTZ[stm][idx] > 1 {
			t.DTZ[stm][idx]++
			return true
		}
	}
	return false
}

// DTMChecksum returns the checksum of a table's distances to mate alone,
// the one files before the distances to zeroing recorded.
func DTMChecksum(t *tablebase.Table) uint64 {
	return tablebase.Generated(t.Variant, t.Material, layout.Data{Geo: t.Geo, Val: t.Val}, nil).Checksum()
}

// GenerateDTZPerEntry is Generate with dtz.go's walk for the distances to
// zeroing wherever the bit-parallel one would do, the reference it is
// compared with.
func GenerateDTZPerEntry(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error) {
	return generate(v, m, sub, tablebase.Hooks{}, genOptions{dtzPerEntry: true})
}

// DTZs returns a table's distances to zeroing with side stm to move.
func DTZs(t *tablebase.Table, stm int) []byte { return t.DTZ[stm] }
