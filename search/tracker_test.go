package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/train"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// fromScratch hides an evaluation's tracker: the search evaluates every
// position afresh.
type fromScratch struct{ eval.Evaluator }

// TestTrackerSearchesAsRefresh: a network evaluation searched with its
// tracker (units updated along the line) visits the same nodes and finds
// the same move and score as the same network evaluating every position
// afresh, in variants with captures to hand, explosions and gating.
func TestTrackerSearchesAsRefresh(t *testing.T) {
	depth := 6
	if testing.Short() {
		depth = 4
	}
	for _, name := range []string{"chess", "crazyhouse", "atomic", "seirawan"} {
		v, err := variants.Builtin().Lookup(name)
		require.NoError(t, err)
		net := train.Quantise(train.NewNet(train.InputsOf(v), train.Shape{Hidden: 16}, rand.New(rand.NewPCG(3, 4))), v, 300, "test")
		network, err := eval.NewNetwork(v, net)
		require.NoError(t, err)
		var results [2]search.Result
		for i, e := range []eval.Evaluator{network, fromScratch{network}} {
			s := search.New(search.Options{HashMB: 1, Evaluation: func(*engine.Variant) eval.Evaluator { return e }})
			results[i] = s.Search(context.Background(), v.StartPosition(), search.Limits{Depth: depth}, nil)
		}
		require.Equal(t, results[1], results[0], name)
		require.Positive(t, results[0].Nodes)
	}
}
