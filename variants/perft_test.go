package variants_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/perftepd"
	"github.com/chimera-chess/chimera/variants"
)

// perftLimit is the largest count checked: all of them, or up to 50,000
// under -short.
func perftLimit() uint64 {
	if testing.Short() {
		return 50_000
	}
	return 1 << 62
}

// shortPositions is about how many positions of a reference file -short
// checks: a file with more (chess960's 960 start arrays) has an even
// sample of them checked, every one in the full run.
const shortPositions = 320

// checkPerftFile checks every count of a perft reference file up to
// perftLimit in variant v, and returns how many it checked. Under -short
// it checks an even sample of about shortPositions positions where the
// file has more: chess960's 960 arrays at depth 3 were two thirds of the
// test's time, and every third of them still has each file of the king
// and each pair of rooks White's castling rights name.
func checkPerftFile(t *testing.T, v *engine.Variant, file string) int {
	t.Helper()
	cases, err := perftepd.Read(file)
	require.NoError(t, err)
	if step := (len(cases) + shortPositions - 1) / shortPositions; testing.Short() && step > 1 {
		var sample []perftepd.Case
		for i := 0; i < len(cases); i += step {
			sample = append(sample, cases[i])
		}
		cases = sample
	}
	checked := 0
	for _, c := range cases {
		p, err := v.ParseFEN(c.FEN)
		require.NoError(t, err, "%s %s", file, c.Name)
		for d := 1; d <= 10; d++ {
			if want, ok := c.Counts[d]; ok && want <= perftLimit() {
				require.Equal(t, want, p.Perft(d), "%s %s (%s) depth %d", file, c.Name, c.FEN, d)
				checked++
			}
		}
	}
	return checked
}

// TestPerftVariants checks every reference count of every variant (file
// name = variant name). With -short only counts up to 50,000 run, and of
// chess960's 960 positions every third (checkPerftFile).
func TestPerftVariants(t *testing.T) {
	files, err := filepath.Glob("testdata/perft/*.epd")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".epd")
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			checkPerftFile(t, v, file)
		})
	}
}

// TestEveryVariantHasPerft: every built-in game has its reference counts
// (an alias, such as fischerandom, by its variant's file).
func TestEveryVariantHasPerft(t *testing.T) {
	for _, name := range variants.Names() {
		file := variants.Canonical(name)
		_, err := os.Stat(filepath.Join("testdata", "perft", file+".epd"))
		require.NoError(t, err, "%s has no reference perft file", name)
	}
}
