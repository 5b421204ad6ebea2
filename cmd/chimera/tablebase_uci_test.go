package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestKBNKOutOfTheBox: a fresh engine with default options and an empty
// table directory, on a normal clock, answers its first move in KBN vs K
// (either colour), and in K+P vs K, with the exact mate distance and a
// DTM-optimal move, because it builds the table first when the clock
// allows it. Under -short the engine builds only the pawn ending out of
// the box, White to move (the build is the same for either colour), and
// from the tables its promotions lead to, found made: four tables fewer
// to build on the clock, which were most of the test's time, and the same
// search waiting for its table and answering from it. For the others it
// finds a table made (tb generate's), KRvK's in place of KBNvK's
// (readyTables): the same reading of a table file and the same answer
// from it, on a table that takes a tenth of a second to make where KBNvK
// takes six CPU-seconds.
func TestKBNKOutOfTheBox(t *testing.T) {
	v := variants.Chess()
	ref := gen.NewStore(readyTables.copyTo(t)) // the judge's own tables
	cases := []struct {
		fen  string
		mate int // the reference distance in moves (Gaviota's DTM, tablebase/gen/testdata/sample.txt)
		// readyWhenShort: under -short the engine finds its table made
		// (the others, the tables it leads to).
		readyWhenShort bool
	}{
		{"k7/8/8/8/5B2/8/8/4NK2 w - - 0 1", 28, true},
		{"4nk2/8/8/5b2/8/8/8/K7 b - - 0 1", 28, true},  // the same, colours swapped
		{"8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", 23, false}, // a pawn ending: Gaviota's 45 plies
		{"4k3/4p3/2K5/8/8/8/8/8 b - - 0 1", 23, true},  // the same, colours swapped
	}
	if testing.Short() {
		// KRvK won in 31 plies (tablebase/gen's TestProbeUnderTheClock),
		// and the same with colours swapped and ranks mirrored.
		cases[0].fen, cases[0].mate = "8/8/8/8/8/4k3/5R2/1K6 w - - 0 1", 16
		cases[1].fen, cases[1].mate = "1k6/5r2/4K3/8/8/8/8/8 b - - 0 1", 16
	}
	for _, tc := range cases {
		dir := t.TempDir()
		switch {
		case tc.readyWhenShort && testing.Short():
			dir = readyTables.copyTo(t)
		case testing.Short(): // the pawn ending alone is built
			dir = readyTables.copyTo(t)
			require.NoError(t, os.Remove(filepath.Join(dir, "chess-KPvK.ctb")))
		}
		s := startScript(t)
		s.send("uci", "setoption name TablebaseDir value "+dir, "isready")
		s.expect("readyok")
		s.send("ucinewgame", "position fen "+tc.fen, "go wtime 300000 btime 300000 winc 0 binc 0")
		best, infos := s.expect("bestmove ")
		require.NotEmpty(t, infos)
		last := infos[len(infos)-1]
		require.Contains(t, last, " score mate "+strconv.Itoa(tc.mate)+" ", last)

		p, err := v.ParseFEN(tc.fen)
		require.NoError(t, err)
		table, err := ref.Find(p, tablebase.Build)
		require.NoError(t, err)
		_, optimal, err := table.Moves(p, ref.Finder(tablebase.Build))
		require.NoError(t, err)
		m, err := p.ParseUCI(strings.Fields(best)[1])
		require.NoError(t, err)
		require.True(t, slices.Contains(optimal, m), "%s is not DTM-optimal in %s", best, tc.fen)
		s.send("quit")
	}
}

// TestFiftyMoveRuleOverUCI: the binary, over UCI, scores KBNvK with 50
// plies on the clock as a draw and says why, mates from a fresh clock,
// and with TablebaseFiftyMove off mates whatever the clock. Under -short
// KRvK won in 31 plies with 70 on the clock stands in for it, as in
// tablebase/gen's TestProbeUnderTheClock: the same rule at the same limit,
// on the table readyTables makes under -short instead of KBNvK.
func TestFiftyMoveRuleOverUCI(t *testing.T) {
	board, plies, late, mate := "7K/8/4N3/k7/8/8/8/1B6 w - -", "57", "50", " score mate 29 "
	if testing.Short() {
		board, plies, late, mate = "8/8/8/8/8/4k3/5R2/1K6 w - -", "31", "70", " score mate 16 "
	}
	s := startScript(t)
	// The table made beforehand: building it on the clock is
	// TestKBNKOutOfTheBox's.
	s.send("uci", "setoption name TablebaseDir value "+readyTables.copyTo(t), "isready")
	s.expect("readyok")
	for _, tc := range []struct {
		clock, score, said string
	}{
		{late, " score cp 0 ", plies + " plies to zeroing, " + late + " on the clock: the 50-move rule draws it (a cursed win)"},
		{"0", mate, plies + " plies to zeroing, 0 on the clock: decided within the 50-move rule"},
	} {
		s.send("position fen "+board+" "+tc.clock+" 1", "go wtime 300000 btime 300000")
		_, infos := s.expect("bestmove ")
		all := strings.Join(infos, "\n")
		require.Contains(t, infos[len(infos)-1], tc.score, all)
		require.Contains(t, all, tc.said)
	}
	s.send("setoption name TablebaseFiftyMove value false", "position fen "+board+" "+late+" 1", "go wtime 300000 btime 300000")
	_, infos := s.expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], mate)
	require.Contains(t, strings.Join(infos, "\n"), "TablebaseFiftyMove off")
	s.send("quit")
}
