package gen_test

import (
	"testing"
)

// TestReferenceKPK compares every count and distance of KPK with
// Gaviota's.
func TestReferenceKPK(t *testing.T) {
	checkMaterial(t, "KPK")
}

// TestReferencePawnEndings compares every count and distance of the
// four-piece pawn endings with Gaviota's (testdata/SOURCES.md).
func TestReferencePawnEndings(t *testing.T) {
	if testing.Short() {
		t.Skip("each table and its subtables take seconds; run without -short")
	}
	for _, m := range []string{"KPPK", "KBPK", "KNPK", "KQKP", "KRKP", "KPKP"} {
		t.Run(m, func(t *testing.T) { checkMaterial(t, m) })
	}
}
