package syzygy_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// regularDir holds the regular-chess tables of python-chess's test data
// (3 and 4 pieces).
var regularDir = filepath.Join("testdata", "regular")

// oracleCase is one line of testdata/oracle.txt: python-chess's answers.
type oracleCase struct {
	line int
	fen  string
	wdl  syzygy.WDL
	dtz  int
}

// readOracle reads testdata/oracle.txt (made by testdata/oracle.py).
func readOracle(t testing.TB) []oracleCase {
	f, err := os.Open(filepath.Join("testdata", "oracle.txt"))
	require.NoError(t, err)
	defer f.Close()
	var cases []oracleCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "|")
		require.Len(t, fields, 3, "oracle.txt:%d", n)
		wdl, err := strconv.Atoi(fields[1])
		require.NoError(t, err, "oracle.txt:%d", n)
		dtz, err := strconv.Atoi(fields[2])
		require.NoError(t, err, "oracle.txt:%d", n)
		cases = append(cases, oracleCase{line: n, fen: fields[0], wdl: syzygy.WDL(wdl), dtz: dtz})
	}
	require.NoError(t, sc.Err())
	return cases
}

// TestMatchesPythonChess is the differential test: every position of
// oracle.txt (random legal positions of every material in testdata,
// both sides to move, en-passant captures possible in some) gets
// python-chess's WDL and DTZ from the Go reader.
func TestMatchesPythonChess(t *testing.T) {
	cases := readOracle(t)
	require.Greater(t, len(cases), 7000)
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	v := variants.Chess()
	wrong := 0
	for _, c := range cases {
		pos, err := v.ParseFEN(c.fen)
		require.NoError(t, err, "oracle.txt:%d", c.line)
		before := pos.FEN()
		wdl, err := tb.ProbeWDL(pos)
		require.NoError(t, err, "oracle.txt:%d %s", c.line, c.fen)
		dtz, err := tb.ProbeDTZ(pos)
		require.NoError(t, err, "oracle.txt:%d %s", c.line, c.fen)
		require.Equal(t, before, pos.FEN(), "a probe changed the position")
		if wdl != c.wdl || dtz != c.dtz {
			wrong++
			if wrong <= 20 {
				t.Errorf("oracle.txt:%d %s: WDL %d DTZ %d, python-chess %d %d", c.line, c.fen, wdl, dtz, c.wdl, c.dtz)
			}
		}
	}
	require.Zero(t, wrong, "of %d positions", len(cases))
}

// TestMateDistances: mate is a zeroing move (python-chess 1.11.2 answers
// these the same).
func TestMateDistances(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	for _, c := range []struct {
		fen string
		wdl syzygy.WDL
		dtz int
	}{
		{"k7/8/1K6/8/8/8/7Q/8 w - - 0 1", syzygy.Win, 1},   // Qh8 mates
		{"k6Q/8/1K6/8/8/8/8/8 b - - 0 1", syzygy.Loss, -1}, // mated
	} {
		pos := mustParse(t, c.fen)
		wdl, err := tb.ProbeWDL(pos)
		require.NoError(t, err)
		dtz, err := tb.ProbeDTZ(pos)
		require.NoError(t, err)
		require.Equal(t, c.wdl, wdl, c.fen)
		require.Equal(t, c.dtz, dtz, c.fen)
	}
}
