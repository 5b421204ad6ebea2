package tablebase_test

import (
	"testing"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// FuzzParseMaterial: any text is a material or a clear error, never a
// crash; a material reads back as itself.
func FuzzParseMaterial(f *testing.F) {
	for _, seed := range []string{"KBNvK", "KPvK", "kvkp", "KRPvKR", "KQRBNvK", "v", "KK", "KPPPPvK", "KvK", "KXvK", "KPvKPv"} {
		f.Add(seed)
	}
	v := variants.Chess()
	f.Fuzz(func(t *testing.T, s string) {
		m, err := tablebase.ParseMaterial(v, s)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		again, err := tablebase.ParseMaterial(v, m.String())
		require.NoError(t, err, m.String())
		require.Equal(t, m, again)
	})
}
