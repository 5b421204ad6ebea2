package gen_test

import (
	"bufio"
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// chessTables is the chess tables of this test binary, each generated
// once, whichever tests ask for it.
var chessTables = tbtest.NewTables(func(testing.TB) *engine.Variant { return variants.Chess() })

// chessDTMTables is the chess tables without the distances to zeroing,
// each generated once, for the tests of the distances to mate alone: a
// fraction of chessTables' time (the distances to zeroing are one more
// walk after the distances to mate).
var chessDTMTables = tbtest.NewTablesBy(func(testing.TB) *engine.Variant { return variants.Chess() }, gen.GenerateDTM)

// countsRow is one row of testdata/counts.csv.
type countsRow map[string]string

func readCSV(t *testing.T, path string) []countsRow {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	var rows []countsRow
	for _, rec := range records[1:] {
		row := countsRow{}
		for i, h := range records[0] {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func (r countsRow) int(t *testing.T, key string) int {
	if r[key] == "" {
		return 0
	}
	n, err := strconv.Atoi(r[key])
	require.NoError(t, err, key)
	return n
}

// subsetFilter chooses placements for a subset of the reference figures.
func subsetFilter(tb *tablebase.Table, subset string) func([]int) bool {
	light := func(sq int) bool { return (sq%8+sq/8)%2 == 1 }
	bishops := tb.SlotsOf('B')
	switch subset {
	case "light_bishop":
		return func(sq []int) bool { return light(sq[bishops[0]]) }
	case "dark_bishop":
		return func(sq []int) bool { return !light(sq[bishops[0]]) }
	case "same_colour_bishops":
		return func(sq []int) bool { return light(sq[bishops[0]]) == light(sq[bishops[1]]) }
	case "opposite_colour_bishops":
		return func(sq []int) bool { return light(sq[bishops[0]]) != light(sq[bishops[1]]) }
	}
	return nil
}

// checkMaterial compares every count and histogram bucket of a material
// with the reference files.
func checkMaterial(t *testing.T, material string) {
	tb := chessTables.Get(t, tableName(material))
	hist := map[string]int{}
	for _, row := range readCSV(t, "testdata/histograms.csv") {
		if row["material"] == material {
			hist[row["stm"]+"/"+row["subset"]+"/"+row["result"]+"/"+row["dtm_plies"]] = row.int(t, "count")
		}
	}
	rows := 0
	for _, row := range readCSV(t, "testdata/counts.csv") {
		if row["material"] != material {
			continue
		}
		rows++
		stm := 0
		if row["stm"] == "b" {
			stm = 1
		}
		st := tb.Stats(stm, subsetFilter(tb, row["subset"]))
		where := material + " " + row["stm"] + " " + row["subset"]
		require.Equal(t, row.int(t, "legal"), st.Legal, where)
		require.Equal(t, row.int(t, "win"), st.Win, where)
		require.Equal(t, row.int(t, "draw"), st.Draw, where)
		require.Equal(t, row.int(t, "loss"), st.Loss, where)
		require.Equal(t, row.int(t, "stm_checkmated"), st.Checkmated, where)
		require.Equal(t, row.int(t, "stalemate"), st.Stalemate, where)
		if row["max_win_plies"] != "" {
			plies, n := st.MaxWin()
			require.Equal(t, row.int(t, "max_win_plies"), plies, where)
			require.Equal(t, row.int(t, "n_at_max_win"), n, where)
			// The positions kept for the explorer are that longest win.
			require.Len(t, st.Longest, min(n, 5), where)
			for _, p := range st.Longest {
				r, err := tb.Probe(p)
				require.NoError(t, err, where)
				require.Equal(t, tablebase.Result{WDL: 1, DTM: plies}, r, "%s %s", where, p.FEN())
				require.Equal(t, engine.Colour(stm), p.SideToMove(), where)
			}
		}
		if row["max_loss_plies"] != "" {
			plies, n := st.MaxLoss()
			require.Equal(t, row.int(t, "max_loss_plies"), plies, where)
			require.Equal(t, row.int(t, "n_at_max_loss"), n, where)
		}
		for key, count := range hist {
			parts := strings.Split(key, "/")
			if parts[0] != row["stm"] || parts[1] != row["subset"] {
				continue
			}
			plies, _ := strconv.Atoi(parts[3])
			var got int
			switch parts[2] {
			case "win":
				got = st.WinPlies[plies]
			case "loss":
				got = st.LossPlies[plies]
			default:
				got = st.Draw
			}
			require.Equal(t, count, got, "%s %s %d plies", where, parts[2], plies)
		}
	}
	require.Positive(t, rows, "reference rows for %s", material)
}

// tableName turns the reference's KBNK into our KBNvK.
func tableName(material string) string {
	i := strings.LastIndex(material, "K")
	return material[:i] + "v" + material[i:]
}

func TestReferenceSmallEndings(t *testing.T) {
	for _, m := range []string{"KQK", "KRK", "KBK", "KNK"} {
		checkMaterial(t, m)
	}
}

func TestReferenceKBNK(t *testing.T) {
	if testing.Short() {
		t.Skip("the 2.6 M-entry table takes seconds; run without -short")
	}
	checkMaterial(t, "KBNK")
}

func TestReferenceFourPieceEndings(t *testing.T) {
	if testing.Short() {
		t.Skip("KBBK, KNNK and KQKR take a while")
	}
	for _, m := range []string{"KBBK", "KNNK", "KQKR"} {
		checkMaterial(t, m)
	}
}

// TestKBNKSample checks the 1,000 sample positions' exact values, the
// distances to mate. Under -short, where no other test needs KBNvK, they
// are checked in a table generated without the distances to zeroing, a
// tenth of the time (the values are the same: the distances to zeroing
// are one more walk after them); the full run checks the binary's one
// KBNvK.
func TestKBNKSample(t *testing.T) {
	v := variants.Chess()
	var tb *tablebase.Table
	if testing.Short() {
		tb = chessDTMTables.Get(t, "KBNvK")
	} else {
		tb = chessTables.Get(t, "KBNvK")
	}
	f, err := os.Open("testdata/sample.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		parts := strings.Split(line, ";")
		require.Len(t, parts, 3, line)
		p, err := v.ParseFEN(parts[0])
		require.NoError(t, err)
		r, err := tb.Probe(p)
		require.NoError(t, err)
		dtm, _ := strconv.Atoi(parts[2])
		wdl := map[string]int{"win": 1, "draw": 0, "loss": -1}[parts[1]]
		require.Equal(t, wdl, r.WDL, line)
		require.Equal(t, dtm, r.DTM, line)
		n++
	}
	require.Equal(t, 1000, n)
}
