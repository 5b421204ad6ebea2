package variants_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestPythonChessPerft runs python-chess's published perft suites
// (testdata/pychess: tricky, random, chess960, atomic, crazyhouse, 3check,
// giveaway, horde, racingkings; each file's first line names the
// variant). python-chess reads every position with Chess960 castling, so
// each runs in the variant's Chess960 form: castling rights in X-FEN with
// the king anywhere on its first rank. With -short only counts up to
// 200,000 run.
func TestPythonChessPerft(t *testing.T) {
	files, err := filepath.Glob("testdata/pychess/*.epd")
	require.NoError(t, err)
	require.Len(t, files, 9)
	checked := 0
	for _, file := range files {
		base := firstLineValue(t, file, "# variant: ")
		c := variants.Builtin()
		name := base + "960pychess"
		require.NoError(t, c.Load("pychess.ini", fmt.Appendf(nil, "[%s:%s]\nchess960 = true\n", name, base)))
		v, err := c.Lookup(name)
		require.NoError(t, err)
		checked += checkPerftFile(t, v, file)
	}
	t.Logf("%d counts checked", checked)
}

// firstLineValue returns what follows prefix on a file's first line.
func firstLineValue(t *testing.T, path, prefix string) string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	require.True(t, sc.Scan(), path)
	value, ok := strings.CutPrefix(sc.Text(), prefix)
	require.True(t, ok, "%s starts with %q", path, prefix)
	return value
}
