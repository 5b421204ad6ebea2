package gen_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// The distances to zeroing against Syzygy's tables: the figures in
// testdata/syzygy were read from them by python-chess's prober
// (testdata/syzygy_dtz.py, SOURCES.md). Syzygy's conventions differ from
// ours in one place: a checkmated position's DTZ is -1 there, 0 here. And
// Syzygy's files may store a distance rounded down by one ply where that
// changes no outcome (python-chess's probe_dtz documents it), so a DTZ of
// n there may be n+1 here, never anything else.

// wdl50 is Syzygy's five-valued outcome of a result and its DTZ.
func wdl50(wdl, dtz int) int {
	switch {
	case wdl == 0:
		return 0
	case dtz > 100 || dtz < -100:
		return wdl
	}
	return 2 * wdl
}

// syzygyDTZ is our DTZ in Syzygy's convention for a checkmated position.
func syzygyDTZ(wdl, dtz int) int {
	if wdl < 0 && dtz == 0 {
		return -1
	}
	return dtz
}

// TestDTZSyzygySample: 300 random positions of each of KBNvK, KQvKR,
// KRvKP, KPvKP, KBBvK and KNNvK, both sides to move: the same WDL50 on
// every one, the same DTZ but for Syzygy's rounding.
func TestDTZSyzygySample(t *testing.T) {
	if testing.Short() {
		t.Skip("six four-piece tables take a minute; run without -short")
	}
	v := variants.Chess()
	f, err := os.Open("testdata/syzygy/sample.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	exact, rounded := map[string]int{}, map[string]int{}
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		require.Len(t, parts, 3, line)
		p, err := v.ParseFEN(parts[0])
		require.NoError(t, err, line)
		m, err := tablebase.TableMaterial(p)
		require.NoError(t, err, line)
		tb := chessTables.Get(t, m.String())
		r, err := tb.Probe(p)
		require.NoError(t, err, line)
		d, err := tb.ProbeDTZ(p)
		require.NoError(t, err, line)
		wantWDL, _ := strconv.Atoi(parts[1])
		wantDTZ, _ := strconv.Atoi(parts[2])
		require.Equal(t, wantWDL, wdl50(r.WDL, d), "WDL50 of %s", line)
		got := syzygyDTZ(r.WDL, d)
		switch {
		case got == wantDTZ:
			exact[m.String()]++
		case wantDTZ > 0 && got == wantDTZ+1, wantDTZ < 0 && got == wantDTZ-1:
			rounded[m.String()]++
		default:
			t.Errorf("%s: DTZ %d here, %d in Syzygy's table", line, got, wantDTZ)
		}
	}
	require.NoError(t, sc.Err())
	for _, m := range []string{"KBNvK", "KQvKR", "KRvKP", "KPvKP", "KBBvK", "KNNvK"} {
		require.Equal(t, 300, exact[m]+rounded[m], m)
		t.Logf("%s: %d exact, %d one ply longer than Syzygy's rounded value", m, exact[m], rounded[m])
	}
}

// TestDTZSyzygyHistograms: every legal position of KPvK, KRvK and KQvK,
// counted by side to move, WDL50 and DTZ, is counted as Syzygy's tables
// count them.
func TestDTZSyzygyHistograms(t *testing.T) {
	want := map[string]map[[2]int]int{} // by material and side: (WDL50, DTZ) → count
	for _, row := range readRows(t, "testdata/syzygy/histograms.csv") {
		key := row[0] + " " + row[1]
		if want[key] == nil {
			want[key] = map[[2]int]int{}
		}
		wdl, _ := strconv.Atoi(row[2])
		dtz, _ := strconv.Atoi(row[3])
		n, _ := strconv.Atoi(row[4])
		want[key][[2]int{wdl, dtz}] = n
	}
	for _, name := range []string{"KPvK", "KRvK", "KQvK"} {
		tb := chessTables.Get(t, name)
		for stm, side := range []string{"w", "b"} {
			st := tb.Stats(stm, nil)
			got := map[[2]int]int{}
			for d, n := range st.DTZ {
				switch {
				case d > 0:
					got[[2]int{wdl50(1, d), d}] += n
				case d < 0:
					got[[2]int{wdl50(-1, d), d}] += n
				}
			}
			if st.Draw > 0 {
				got[[2]int{0, 0}] = st.Draw
			}
			if st.Checkmated > 0 {
				got[[2]int{-2, -1}] = st.Checkmated
			}
			require.NotEmpty(t, want[name+" "+side], name)
			require.Equal(t, want[name+" "+side], got, "%s, %s to move", name, side)
		}
	}
}

// readRows reads a CSV file of plain fields without its header.
func readRows(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var rows [][]string
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i > 0 {
			rows = append(rows, strings.Split(line, ","))
		}
	}
	return rows
}
