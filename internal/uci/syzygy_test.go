package uci_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/uci"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// syzygyDir holds python-chess's 3–4 piece Syzygy tables of chess.
var syzygyDir = filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular")

// startSyzygy starts a UCI session reading syzygyDir, the engine's own
// tables off (so that Syzygy's answer).
func startSyzygy(t *testing.T) *session {
	t.Helper()
	s := start(t, uci.Config{})
	s.Send("setoption name UseTablebase value false", "setoption name SyzygyPath value "+syzygyDir)
	s.Expect("info string syzygy: tables of up to 4 pieces in ")
	return s
}

// TestSyzygyOptions: the four options as Stockfish lists them, and a
// directory that cannot be read refused with the tables before kept.
func TestSyzygyOptions(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("uci")
	_, lines := s.Expect("uciok")
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"option name SyzygyPath type string default <empty>",
		"option name SyzygyProbeDepth type spin default 1 min 1 max 100",
		"option name Syzygy50MoveRule type check default true",
		"option name SyzygyProbeLimit type spin default 7 min 0 max 7",
	} {
		require.Contains(t, text, want)
	}
	s.Send("setoption name UseTablebase value false", "setoption name SyzygyPath value "+syzygyDir)
	s.Expect("info string syzygy: tables of up to 4 pieces in ")
	s.Send("setoption name SyzygyPath value /no/such/dir")
	s.Expect("info string error: option SyzygyPath: ")
	// The tables before are kept: a won ending is still answered.
	s.Send("position fen 8/8/8/3k4/8/8/8/KQ6 w - - 0 1", "go depth 3")
	_, infos := s.Expect("bestmove ")
	require.NotContains(t, infos[len(infos)-1], "tbhits 0")
	s.Send("setoption name SyzygyProbeLimit value 0", "position fen 8/8/8/3k4/8/8/8/KQ6 w - - 0 1", "go depth 3")
	_, infos = s.Expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], "tbhits 0", "a limit of 0 turns probing off")
}

// TestSyzygyConvertsWins plays won four-piece endings out with both sides
// this engine over UCI: every game ends in mate before the fifty-move
// rule (the clock never reaches 100 plies), and the root's info line
// counts its table hit.
func TestSyzygyConvertsWins(t *testing.T) {
	tables, err := syzygy.Open(syzygyDir)
	require.NoError(t, err)
	defer tables.Close()
	s := startSyzygy(t)
	for _, fen := range []string{
		"8/8/8/3k4/8/8/8/KBN5 w - - 0 1",    // KBNvK: the longest conversion here
		"8/8/8/3k4/8/2r5/8/KQ6 w - - 0 1",   // KQvKR
		"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",   // KPvK
		"8/8/1k6/8/8/2K5/8/4R3 b - - 0 1",   // KRvK, the loser to move
		"8/8/8/3k4/8/3P4/5p2/3K4 b - - 0 1", // KPvKP, Black promotes
	} {
		pos, err := variants.Chess().ParseFEN(fen)
		require.NoError(t, err)
		w, err := tables.ProbeWDL(pos)
		require.NoError(t, err)
		require.NotEqual(t, syzygy.Draw, w, "%s must be decided", fen)
		var moves []string
		for ply := 0; ; ply++ {
			require.Less(t, ply, 300, fen)
			var buf [engine.MaxMoves]engine.Move
			if len(pos.LegalMoves(buf[:0])) == 0 {
				require.True(t, pos.InCheck(), "%s ends in stalemate: %s", fen, pos.FEN())
				break
			}
			cmd := "position fen " + fen
			if len(moves) > 0 {
				cmd += " moves " + strings.Join(moves, " ")
			}
			s.Send(cmd, "go depth 4")
			best, infos := s.Expect("bestmove ")
			require.NotContains(t, infos[len(infos)-1], "tbhits 0", "%s: %s", fen, pos.FEN())
			text := strings.Fields(best)[1]
			m, err := pos.ParseUCI(text)
			require.NoError(t, err)
			pos.Make(m)
			moves = append(moves, text)
			require.Less(t, pos.HalfmoveClock(), 100, "%s: the fifty-move rule draws after %v", fen, moves)
		}
	}
}

// TestSyzygyFiftyMoveRule: a win the clock leaves no room for is a draw
// under Syzygy50MoveRule (searched among the moves that keep it, no
// table score), and a win again with the option off.
func TestSyzygyFiftyMoveRule(t *testing.T) {
	tables, err := syzygy.Open(syzygyDir)
	require.NoError(t, err)
	defer tables.Close()
	// KBNvK a long way from zeroing, the clock at 90 plies.
	fen := "8/8/8/3k4/8/8/8/KBN5 w - - 90 100"
	pos, err := variants.Chess().ParseFEN(fen)
	require.NoError(t, err)
	values, err := tables.MoveValues(pos)
	require.NoError(t, err)
	outcome, _, keep := syzygy.Choose(values, pos.HalfmoveClock(), true)
	require.Equal(t, syzygy.OutcomeCursedWin, outcome, "the test needs a win the clock spoils")

	score := regexp.MustCompile(` score cp (-?\d+) `)
	s := startSyzygy(t)
	s.Send("position fen "+fen, "go depth 4")
	best, infos := s.Expect("bestmove ")
	m, err := pos.ParseUCI(strings.Fields(best)[1])
	require.NoError(t, err)
	require.True(t, slices.Contains(keep, m), "%s keeps the cursed win", best)
	f := score.FindStringSubmatch(infos[len(infos)-1])
	require.NotNil(t, f, infos[len(infos)-1])
	cp, _ := strconv.Atoi(f[1])
	require.Less(t, cp, int(search.DecisiveBound), "no table win under the rule")

	s.Send("setoption name Syzygy50MoveRule value false", "position fen "+fen, "go depth 4")
	_, infos = s.Expect("bestmove ")
	f = score.FindStringSubmatch(infos[len(infos)-1])
	require.NotNil(t, f, infos[len(infos)-1])
	cp, _ = strconv.Atoi(f[1])
	require.GreaterOrEqual(t, cp, int(search.DecisiveBound), "a win without the rule")
}

// TestSyzygyDamagedFile: a truncated table file is named to the GUI, once
// however many moves meet it, and the engine searches instead.
func TestSyzygyDamagedFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"KBNvK.rtbz", "KBvK.rtbw", "KNvK.rtbw"} {
		data, err := os.ReadFile(filepath.Join(syzygyDir, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	data, err := os.ReadFile(filepath.Join(syzygyDir, "KBNvK.rtbw"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "KBNvK.rtbw"), data[:3000], 0o644))
	s := start(t, uci.Config{})
	s.Send("setoption name UseTablebase value false", "setoption name SyzygyPath value "+dir)
	s.Expect("info string syzygy: tables of up to 4 pieces in ")
	s.Send("position fen 8/8/8/3k4/8/8/8/KBN5 w - - 0 1", "go depth 2")
	line, _ := s.Expect("info string syzygy: damaged table file: ")
	require.Contains(t, line, "KBNvK.rtbw")
	s.Expect("bestmove ")
	s.Send("position fen 8/8/8/3k4/8/8/8/KBN5 w - - 0 1 moves a1b2", "go depth 2")
	_, before := s.Expect("bestmove ")
	for _, l := range before {
		require.NotContains(t, l, "damaged", "said once")
	}
}
