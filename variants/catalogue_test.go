package variants_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

func TestLookup(t *testing.T) {
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err, name)
		require.Equal(t, name, v.Name)
		require.Equal(t, v.StartFEN, v.StartPosition().FEN())
	}
	_, err := variants.Lookup("nosuchchess")
	require.ErrorContains(t, err, `unknown variant "nosuchchess"`)
	require.ErrorContains(t, err, "chess")
}
