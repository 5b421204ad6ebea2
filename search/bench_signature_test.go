package search_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// benchSignature is "Nodes searched" of `chimera bench` (one thread,
// depth search.BenchDepth, 16 MiB): a change of search behaviour changes
// it. A commit that changes it on purpose updates it here and says
// "Bench: N" in its message, as Stockfish's commits do; any other change
// of it is a bug found.
const benchSignature = 4551320

// tunedBenchSignature is the same with the tuned evaluation and the
// shipped weights (`chimera bench --evaluation tuned`): new weights change
// it, and a commit that ships them updates it here.
const tunedBenchSignature = 6648339

// networkBenchSignature is the same with the shipped networks (`chimera
// bench --evaluation network`; the tuned evaluation for the variants
// without one): a new network changes it, and a commit that ships one
// updates it here.
const networkBenchSignature = 6578303

// TestBenchSignature runs the bench as `chimera bench` does and compares
// its node count with the signature (about five seconds; not in -short).
func TestBenchSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("the bench takes seconds")
	}
	totals, err := search.RunBench(search.BenchConfig{}, variants.Builtin().Lookup, io.Discard)
	require.NoError(t, err)
	require.Equal(t, uint64(benchSignature), totals.Nodes, "the bench signature changed: search behaves differently")
}

// TestTunedBenchSignature: the tuned evaluation's own signature.
func TestTunedBenchSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("the bench takes seconds")
	}
	totals, err := search.RunBench(search.BenchConfig{Evaluation: eval.ShippedOrDocuments}, variants.Builtin().Lookup, io.Discard)
	require.NoError(t, err)
	require.Equal(t, uint64(tunedBenchSignature), totals.Nodes, "the tuned bench signature changed: search or the shipped weights behave differently")
}

// TestNetworkBenchSignature: the shipped networks' own signature.
func TestNetworkBenchSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("the bench takes seconds")
	}
	totals, err := search.RunBench(search.BenchConfig{Evaluation: eval.NetworkOrShipped}, variants.Builtin().Lookup, io.Discard)
	require.NoError(t, err)
	require.Equal(t, uint64(networkBenchSignature), totals.Nodes, "the network bench signature changed: search or the shipped networks behave differently")
}
