package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// BenchmarkSearchChess reports search speed on the chess bench positions,
// as chimera bench searches them: one searcher, cleared before each
// position. nodes/s counts the searches' time alone; a table allocated
// per position would be measured as much as the search (its first touch
// is a page fault every few kilobytes).
func BenchmarkSearchChess(b *testing.B) {
	v := variants.Chess()
	s := search.New(search.Options{HashMB: 16})
	var nodes uint64
	var searching time.Duration
	for b.Loop() {
		for _, bp := range search.BenchPositions() {
			if bp.Variant != "chess" {
				continue
			}
			p, err := v.ParseFEN(bp.FEN)
			require.NoError(b, err)
			s.Clear()
			start := time.Now()
			nodes += s.Search(context.Background(), p, search.Limits{Depth: search.BenchDepth}, nil).Nodes
			searching += time.Since(start)
		}
	}
	b.ReportMetric(float64(nodes)/searching.Seconds(), "nodes/s")
}
