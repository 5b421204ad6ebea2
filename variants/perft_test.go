package variants_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// perftCase is one EPD line: a position and its leaf counts by depth.
type perftCase struct {
	fen    string
	counts map[int]uint64
}

// readPerftEPD reads lines "FEN ;D1 n ;D2 n"; # starts a comment.
func readPerftEPD(t testing.TB, path string) []perftCase {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		c := perftCase{fen: strings.TrimSpace(parts[0]), counts: map[int]uint64{}}
		for _, p := range parts[1:] {
			fields := strings.Fields(p)
			require.Len(t, fields, 2, "bad EPD field %q", p)
			d, err := strconv.Atoi(strings.TrimPrefix(fields[0], "D"))
			require.NoError(t, err)
			n, err := strconv.ParseUint(fields[1], 10, 64)
			require.NoError(t, err)
			c.counts[d] = n
		}
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

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
			for _, c := range readPerftEPD(t, file) {
				p, err := v.ParseFEN(c.fen)
				require.NoError(t, err)
				for d := 1; d <= 10; d++ {
					if want, ok := c.counts[d]; ok && want <= limit {
						require.Equal(t, want, p.Perft(d), "%s: %s depth %d", name, c.fen, d)
					}
				}
			}
		})
	}
}
