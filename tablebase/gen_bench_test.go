package tablebase_test

import (
	"testing"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

func BenchmarkGenerateKBNK(b *testing.B) {
	v := variants.Chess()
	for b.Loop() {
		cache := map[string]*tablebase.Table{}
		var sub tablebase.Subtables
		sub = func(m tablebase.Material) (*tablebase.Table, error) {
			if t, ok := cache[m.String()]; ok {
				return t, nil
			}
			t, err := tablebase.Generate(v, m, sub, nil)
			cache[m.String()] = t
			return t, err
		}
		m, _ := tablebase.ParseMaterial(v, "KBNvK")
		if _, err := sub(m); err != nil {
			b.Fatal(err)
		}
	}
}
