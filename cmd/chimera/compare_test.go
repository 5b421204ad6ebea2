package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/compare"
)

// TestComparisonReport: averages over no mated game are a dash, not 0.0;
// the chart says how many games each pair of bars averages, draws no bars
// without data, and its legend labels do not overlap.
func TestComparisonReport(t *testing.T) {
	rows := []compare.Row{
		{Setting: compare.Setting{Depth: 2}, Games: 20, RuleDrawn: 5},
		{Setting: compare.Setting{Depth: 6}, Games: 20, Mated: 1, MatedIn50: 1, MovesUsed: 116, MovesOptimal: 30},
	}
	var table strings.Builder
	printComparison(&table, "KBNvK", false, rows)
	require.Regexp(t, `depth 2 +20 +0\.0% +0\.0% +25\.0% +- +-`, table.String(), "rule drew: 5 of 20")
	require.Contains(t, table.String(), "over the mated games only")

	var svg strings.Builder
	require.NoError(t, writeComparisonSVG(&svg, "chess KBNvK", false, rows))
	out := svg.String()
	require.Contains(t, out, "no mate: no bars")
	require.Contains(t, out, ">n=1<")
	require.Contains(t, out, "mated 1 of 20")
	require.Equal(t, 2, strings.Count(out, "<title>"), "one pair of bars, for the setting with data")

	// Legend: the second swatch starts after the first label ends.
	re := regexp.MustCompile(`<rect x="(\d+)" y="40"[^>]*/><text x="(\d+)" y="51">([^<]*)</text>`)
	items := re.FindAllStringSubmatch(out, -1)
	require.Len(t, items, 2)
	textX, _ := strconv.Atoi(items[0][2])
	nextX, _ := strconv.Atoi(items[1][1])
	require.Greater(t, nextX, textX+7*len(items[0][3]), "the label %q is not covered", items[0][3])
}

// TestCompareSyzygy: --syzygy plays from Syzygy's tables, generating
// nothing, says which metric its columns are, and refuses a material
// whose files are missing and a variant other than chess.
func TestCompareSyzygy(t *testing.T) {
	tables := filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular")
	dir := t.TempDir()
	svg := filepath.Join(dir, "chart.svg")
	code, out, errOut := runCommand("compare", "--syzygy", tables, "--material", "KQvK", "--positions", "2", "--depth", "2",
		"--dir", dir, "--svg", svg)
	require.Zero(t, code, errOut)
	require.Contains(t, out, "KQvK: search (winning side) against perfect defence by Syzygy's tables")
	require.Regexp(t, `depth 2 +2 `, out)
	require.Contains(t, out, "best moves: the DTZ-optimal ones")
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.Contains(t, string(data), "Syzygy's perfect play")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the chart alone: no table generated")

	code, _, errOut = runCommand("compare", "--syzygy", tables, "--material", "KQQvKR", "--depth", "2")
	require.NotZero(t, code)
	require.Contains(t, errOut, "KQQvKR.rtbw is in none of "+tables)

	code, _, errOut = runCommand("compare", "--syzygy", tables, "--variant", "shatranj", "--material", "KRvK", "--depth", "2")
	require.NotZero(t, code)
	require.Contains(t, errOut, "Syzygy's tables are of chess, not shatranj")
}
