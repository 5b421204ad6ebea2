package tablebase

import "github.com/chimera-chess/chimera/engine"

// Corrupt changes the stored value of the first entry holding want into
// to (values as Result), for the verifier's tests; it reports whether one
// was found.
func Corrupt(t *Table, stm int, want, to Result) bool {
	for idx, v := range t.val[stm] {
		if v != notPosition && decode(v) == want {
			t.val[stm][idx] = encodeForTest(to)
			return true
		}
	}
	return false
}

func encodeForTest(r Result) byte {
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
func GeneratePerEntry(v *engine.Variant, m Material, sub Subtables) (*Table, error) {
	return generate(v, m, sub, Hooks{}, true, false)
}

// GenerateDTM is Generate without the distances to zeroing, for tests of
// the distances to mate alone.
func GenerateDTM(v *engine.Variant, m Material, sub Subtables) (*Table, error) {
	return generate(v, m, sub, Hooks{}, false, false)
}

// Values returns a table's value bytes with side stm to move.
func Values(t *Table, stm int) []byte { return t.val[stm] }

// Checksum returns the FNV-1a checksum of a table's values, the one its
// file's header records.
func Checksum(t *Table) uint64 { return checksum(t.val, t.dtz) }

// DTMChecksum returns the checksum of a table's distances to mate alone,
// the one files before the distances to zeroing recorded.
func DTMChecksum(t *Table) uint64 { return checksum(t.val, [2][]byte{}) }

// CorruptDTZ adds a ply to the distance to zeroing of the first won entry
// (side stm to move), for the verifier's tests.
func CorruptDTZ(t *Table, stm int) bool {
	for idx, v := range t.val[stm] {
		if v != notPosition && decode(v).WDL > 0 && t.dtz[stm][idx] > 1 {
			t.dtz[stm][idx]++
			return true
		}
	}
	return false
}
