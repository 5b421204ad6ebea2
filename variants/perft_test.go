package variants_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/perftepd"
	"github.com/chimera-chess/chimera/variants"
)

// TestPerftVariants checks every reference count of every variant (file
// name = variant name). With -short only counts up to 200,000 run.
func TestPerftVariants(t *testing.T) {
	files, err := filepath.Glob("testdata/perft/*.epd")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	limit := uint64(1) << 62
	if testing.Short() {
		limit = 200_000
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".epd")
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			cases, err := perftepd.Read(file)
			require.NoError(t, err)
			for _, c := range cases {
				p, err := v.ParseFEN(c.FEN)
				require.NoError(t, err)
				for d := 1; d <= 10; d++ {
					if want, ok := c.Counts[d]; ok && want <= limit {
						require.Equal(t, want, p.Perft(d), "%s: %s depth %d", name, c.FEN, d)
					}
				}
			}
		})
	}
}
