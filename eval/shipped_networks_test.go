package eval_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/variants"
)

// TestShippedNetworks: every shipped network is its built-in variant's and
// fits its definition (one that no longer fits would silently fall back
// to the tuned evaluation), says how it was made, and plays through
// NetworkOrShipped; a variant without one falls back to tuned weights,
// then to the documents' formula.
func TestShippedNetworks(t *testing.T) {
	names := eval.ShippedNetworks()
	require.Contains(t, names, "chess")
	for _, name := range names {
		v, err := variants.Lookup(name)
		require.NoError(t, err, name)
		n, ok := eval.ShippedNetwork(v)
		require.True(t, ok, "%s: the shipped network does not load or no longer fits the variant", name)
		require.Contains(t, n.About, "made by: chimera train", name)
		_, isNetwork := eval.NetworkOrShipped(v).(*eval.Network)
		require.True(t, isNetwork, name)
	}
	for name, want := range map[string]any{"janggi": &eval.Tuned{}, "grasshopper": &eval.Documents{}} {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		require.IsType(t, want, eval.NetworkOrShipped(v), "%s: no network shipped", name)
	}
}
