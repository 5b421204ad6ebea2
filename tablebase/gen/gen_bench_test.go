package gen_test

import (
	"testing"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

func BenchmarkGenerateKBNK(b *testing.B) {
	v := variants.Chess()
	for b.Loop() {
		sub := memoryTables(v)
		m, _ := tablebase.ParseMaterial(v, "KBNvK")
		if _, err := sub(m); err != nil {
			b.Fatal(err)
		}
	}
}
