package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// pgnMoves returns the SAN moves of a PGN file of one game.
func pgnMoves(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var moves []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "[") {
			continue
		}
		for _, tok := range strings.Fields(line) {
			if regexp.MustCompile(`^\d+\.+$|^(1-0|0-1|1/2-1/2|\*)$`).MatchString(tok) {
				continue
			}
			moves = append(moves, tok)
		}
	}
	return moves
}

// TestSelfplayFromFENPlaysTheTable: from a --fen ending whose table is
// there, both sides play the table's best moves from the first, and the
// game lasts the table's distance to mate, as UCI and match play it.
// Selfplay played the default's four random plies from the position
// given first (1.Na2+ in the KBNvK, mate in 32 where the table
// mates in 30): a position given is now played as given.
func TestSelfplayFromFENPlaysTheTable(t *testing.T) {
	dir := readyTables.copyTo(t)
	const fen = "8/8/8/8/8/2k5/8/KR6 w - - 0 1"
	pos, err := variants.Chess().ParseFEN(fen)
	require.NoError(t, err)
	store := tablebase.NewStore(dir)
	table, err := store.Find(pos, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	value, err := table.Probe(pos)
	require.NoError(t, err)
	require.Equal(t, 1, value.WDL)

	pgn := filepath.Join(t.TempDir(), "game.pgn")
	code, out, errOut := runCommand("selfplay", "--fen", fen, "--tablebase-dir", dir, "--depth", "2", "--games", "1", "--pgn", pgn)
	require.Zero(t, code, errOut)
	require.Contains(t, out, "A wins 1")
	moves := pgnMoves(t, pgn)
	require.Len(t, moves, value.DTM, "the table's mate in %d plies: %v", value.DTM, moves)
	require.True(t, strings.HasSuffix(moves[len(moves)-1], "#"))
	// Each move is one of the table's best in its position.
	for i, san := range moves[:len(moves)-1] {
		table, err := store.Find(pos, tablebase.MemoryOrDisk)
		require.NoError(t, err)
		_, best, err := table.Moves(pos, store.Finder(tablebase.MemoryOrDisk))
		require.NoError(t, err)
		m, err := pos.ParseSAN(san)
		require.NoError(t, err)
		require.True(t, slices.Contains(best, m), "ply %d, %s: %s is not among the table's best moves", i+1, pos.FEN(), san)
		pos.Make(m)
	}

	// --random-plies given is played from the FEN all the same.
	code, _, errOut = runCommand("selfplay", "--fen", fen, "--tablebase-dir", dir, "--depth", "2", "--games", "1",
		"--random-plies", "2", "--seed", "5", "--pgn", pgn)
	require.Zero(t, code, errOut)
	require.NotEqual(t, moves, pgnMoves(t, pgn), "two random plies change the game")
}

// TestSelfplayShow: --show numbers moves as moves ("1.", "1...", not the
// ply count it said "move 37" for) and, in a variant with hands, shows
// the pieces in hand after each move, as the FEN after it says: drops no
// longer appear from nowhere.
func TestSelfplayShow(t *testing.T) {
	code, out, errOut := runCommand("selfplay", "--variant", "crazyhouse", "--games", "1", "--depth", "1", "--max-plies", "40",
		"--random-plies", "0", "--show", "--no-tablebase")
	require.Zero(t, code, errOut)
	shown := regexp.MustCompile(`\nGame 1, (\d+)(\.+) (\S+)\n(?s:.*?)in hand: white (\S+); black (\S+)\nFEN (\S+) (\S+) `).FindAllStringSubmatch(out, -1)
	require.Len(t, shown, 40, out)
	captured := false
	for i, s := range shown {
		number, err := strconv.Atoi(s[1])
		require.NoError(t, err)
		dots := s[2]
		require.Equal(t, i/2+1, number, "ply %d shown as %s%s", i+1, s[1], dots)
		require.Equal(t, map[bool]string{true: ".", false: "..."}[i%2 == 0], dots)
		// The hands shown are the FEN's holdings.
		board := s[6]
		holdings := board[strings.Index(board, "[")+1 : len(board)-1]
		white := strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, holdings)
		black := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' {
				return r
			}
			return -1
		}, holdings)
		require.Equal(t, orDash(white), sorted(s[4]), "ply %d", i+1)
		require.Equal(t, orDash(black), sorted(s[5]), "ply %d", i+1)
		captured = captured || holdings != ""
	}
	require.True(t, captured, "some piece went to a hand in 40 plies: the test shows hands")

	// Without hands, no hands line.
	code, out, _ = runCommand("selfplay", "--variant", "chess", "--games", "1", "--depth", "1", "--max-plies", "2",
		"--show", "--no-tablebase")
	require.Zero(t, code)
	require.NotContains(t, out, "in hand")
	require.Regexp(t, `Game 1, 1\. \S+\n`, out)
	require.Regexp(t, `Game 1, 1\.\.\. \S+\n`, out)
	require.Contains(t, out, "\nFEN ")
}

// orDash is a hand's letters as --show writes an empty one.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return sorted(s)
}

// sorted returns s's letters in order (hands and holdings list them in
// orders of their own).
func sorted(s string) string {
	b := []byte(s)
	slices.Sort(b)
	return string(b)
}
