package search_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// BenchmarkSearchChess reports search speed on the chess bench positions.
func BenchmarkSearchChess(b *testing.B) {
	v := variants.Chess()
	var nodes uint64
	for b.Loop() {
		for _, bp := range search.BenchPositions() {
			if bp.Variant != "chess" {
				continue
			}
			p, err := v.ParseFEN(bp.FEN)
			require.NoError(b, err)
			s := search.New(search.Options{HashMB: 16})
			nodes += s.Search(context.Background(), p, search.Limits{Depth: search.BenchDepth}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
