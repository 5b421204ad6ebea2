package variants_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

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

// shortPositions is how many positions of a reference file -short checks
// at most: a file with more (chess960's 960 start arrays) has a sample of
// them checked (shortSample), every one in the full run.
const shortPositions = 320

// checkPerftFile checks every count of a perft reference file up to
// perftLimit in variant v, and returns how many it checked. Under -short
// it checks a sample of the positions where the file has more than
// shortPositions (shortSample).
func checkPerftFile(t *testing.T, v *engine.Variant, file string) int {
	t.Helper()
	cases, err := perftepd.Read(file)
	require.NoError(t, err)
	if testing.Short() && len(cases) > shortPositions {
		cases = shortSample(t, cases)
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

// shortSample keeps the first position of each way White's king and
// castling rights stand: the king's file on the first rank and White's
// letters of the FEN's castling field. Of chess960's 960 arrays, whose
// counts at depth 3 were two thirds of the test's time, it keeps 96,
// every such pair the file holds; every third array, the sample before,
// took three times as long and missed 13 of them.
func shortSample(t *testing.T, cases []perftepd.Case) []perftepd.Case {
	var sample []perftepd.Case
	seen := map[string]bool{}
	for _, c := range cases {
		fields := strings.Fields(c.FEN)
		require.GreaterOrEqual(t, len(fields), 3, c.Name)
		ranks := strings.Split(fields[0], "/")
		file := 0 // of White's king on the first rank, or past its end
		for _, r := range ranks[len(ranks)-1] {
			if r == 'K' {
				break
			}
			if n, err := strconv.Atoi(string(r)); err == nil {
				file += n // a run of empty squares (one digit on 8x8)
			} else {
				file++
			}
		}
		white := strings.Map(func(r rune) rune { // White's rights: upper case
			if unicode.IsUpper(r) {
				return r
			}
			return -1
		}, fields[2])
		key := fmt.Sprint(file, " ", white)
		if !seen[key] {
			seen[key] = true
			sample = append(sample, c)
		}
	}
	return sample
}

// TestPerftVariants checks every reference count of every variant (file
// name = variant name). With -short only counts up to 50,000 run, and of
// chess960's 960 positions a sample (checkPerftFile).
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
