package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestFingerprintTellsDefinitionsApart: every built-in variant has its own
// fingerprint (aliases aside, which are the same definition), the same on
// every lookup, and changing one piece's movement changes it.
func TestFingerprintTellsDefinitionsApart(t *testing.T) {
	cat := variants.Builtin()
	seen := map[uint64]string{}
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		if cat.Canonical(name) != name {
			continue
		}
		fp := v.Fingerprint()
		require.NotContains(t, seen, fp, "%s has %s's fingerprint", name, seen[fp])
		seen[fp] = name
		again, err := cat.Lookup(name)
		require.NoError(t, err)
		require.Equal(t, fp, again.Fingerprint(), name)
	}
	chess := variants.Chess()
	rules := chess.Rules
	rules.Pieces = append(rules.Pieces[:0:0], rules.Pieces...)
	for i := range rules.Pieces {
		if rules.Pieces[i].Letter == 'Q' {
			rules.Pieces[i].Atoms = rules.Pieces[i].Atoms[:1] // a queen that moves as a rook, say
		}
	}
	changed, err := engine.NewVariant(rules)
	require.NoError(t, err)
	require.NotEqual(t, chess.Fingerprint(), changed.Fingerprint(), "a queen moving otherwise")
	same, err := engine.NewVariant(chess.Rules)
	require.NoError(t, err)
	require.Equal(t, chess.Fingerprint(), same.Fingerprint(), "the same definition built again")
}
