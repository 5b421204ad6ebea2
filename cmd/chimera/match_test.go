package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/match"
)

// fakeEngine writes a shell script that answers the UCI handshake with the
// given option lines, and returns its path.
func fakeEngine(t *testing.T, options string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engine.sh")
	script := "#!/bin/sh\nwhile read -r cmd rest; do case $cmd in\n" +
		"uci) printf 'id name fake\\n" + options + "uciok\\n';;\n" +
		"isready) echo readyok;;\nquit) exit 0;;\nesac; done\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

// TestMatchRefusesBeforePlaying: an engine that cannot start, exits at
// once, lacks an option given to it or the variant asked for ends the
// match with an error before any game, and no result table is printed.
func TestMatchRefusesBeforePlaying(t *testing.T) {
	chessOnly := fakeEngine(t, "option name UCI_Variant type combo default chess var chess\\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"cannot start", []string{"--engine", "a=/nonexistent/engine", "--engine", "b=" + chessOnly}, "engine a"},
		{"exits at once", []string{"--engine", "a=/bin/true", "--engine", "b=" + chessOnly}, "engine a"},
		{"no such option", []string{"--engine", "a=" + chessOnly, "--engine", "b=" + chessOnly,
			"--option", "a=Nope=3"}, `engine a has no option "Nope"`},
		{"value out of range", []string{"--engine", "a=" + binary, "--engine", "b=" + binary, "--option", "a=Hash=abc"},
			`engine a: option Hash: "abc" is not a whole number from 1 to`},
		{"not a choice", []string{"--engine", "a=" + binary, "--engine", "b=" + binary, "--option", "a=Evaluation=best"},
			`engine a: option Evaluation: "best" is not one of documents, tuned`},
		{"refused by the engine", []string{"--engine", "a=" + binary, "--engine", "b=" + binary, "--option", "a=EvalFile=/nonexistent/w.txt"},
			"engine a refused its options: error: option EvalFile"},
		{"cecp value", []string{"--engine", "a=" + binary + ":xboard", "--engine", "b=" + binary, "--option", "a=Ponder=maybe"},
			`engine a: option Ponder: "maybe" is not true or false`},
		{"variant not offered", []string{"--engine", "a=" + chessOnly, "--engine", "b=" + chessOnly,
			"--variant", "capablanca"}, "engine a does not offer variant capablanca"},
		{"bad sprt", []string{"--engine", "a=" + chessOnly, "--sprt", "elo0=10,elo1=0"}, "match: --sprt: elo1 (0) must be above elo0 (10)"},
		{"bad book", []string{"--engine", "a=" + chessOnly, "--openings", "/nonexistent/book.epd"}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCommand(append([]string{"match", "--games", "2", "--tc", "1+0.01"}, tc.args...)...)
			require.NotZero(t, code)
			require.Contains(t, errOut, tc.want)
			require.NotContains(t, out, "score%", "no table for games not played")
		})
	}
}

// TestFlagRanges: every numeric flag refuses a value out of its range, in
// one sentence that gives the range.
func TestFlagRanges(t *testing.T) {
	for _, args := range [][]string{
		{"selfplay", "--depth", "0"},
		{"selfplay", "--max-plies", "-1"},
		{"selfplay", "--random-plies", "-3"},
		{"selfplay", "--hash", "0"},
		{"selfplay", "--games", "abc"},
		{"match", "--games", "0"},
		{"match", "--concurrency", "0"},
		{"bench", "--depth", "500"},
		{"perft", "--depth", "-2"},
		{"compare", "--positions", "0"},
	} {
		code, _, errOut := runCommand(args...)
		require.NotZero(t, code, args)
		require.Contains(t, errOut, "want a whole number from", args)
		require.NotContains(t, errOut, "strconv", args)
	}
}

// TestUnquotedFEN: the rest of a FEN given without quotes is explained.
func TestUnquotedFEN(t *testing.T) {
	for _, cmd := range [][]string{
		{"perft", "--depth", "1", "--fen", "4k3/8/8/8/8/8/8/4K3", "w", "-", "-", "0", "1"},
		{"tb", "probe", "--fen", "4k3/8/8/8/8/8/8/4K3", "w"},
	} {
		code, _, errOut := runCommand(cmd...)
		require.NotZero(t, code)
		require.Contains(t, errOut, `unexpected argument "w": quote the FEN`)
	}
}

// TestStandingWords: a one-game match says "1 game", and a clean sweep
// says why it has no finite Elo instead of printing +Inf.
func TestStandingWords(t *testing.T) {
	specs := [2]match.EngineSpec{{Name: "a"}, {Name: "b"}}
	tc := game.TimeControl{}
	for _, c := range []struct {
		st   match.Standing
		want []string
	}{
		{match.Standing{Games: 1, Wins: 1}, []string{"tc 0, 1 game\n", "+inf (every game won: no finite estimate)"}},
		{match.Standing{Games: 3, Losses: 3}, []string{"3 games\n", "-inf (every game lost: no finite estimate)"}},
	} {
		var b bytes.Buffer
		printStanding(&b, specs, "chess", tc, c.st)
		for _, want := range c.want {
			require.Contains(t, b.String(), want)
		}
		require.NotContains(t, b.String(), "Inf")
	}
}

// TestSelfLoadsTheVariantFiles: "self" engines get match's variant files
// (by absolute path) unless their command line names its own; other
// engines' command lines are left as they are.
func TestSelfLoadsTheVariantFiles(t *testing.T) {
	specs, err := engineSpecs([]string{"a=self", "b=/usr/games/other"}, nil, []string{"docs/tenten.ini"})
	require.NoError(t, err)
	abs, err := filepath.Abs("docs/tenten.ini")
	require.NoError(t, err)
	require.Equal(t, []string{"--variant-file", abs}, specs[0].Command[1:])
	require.Equal(t, []string{"/usr/games/other"}, specs[1].Command)
	specs, err = engineSpecs([]string{"a=self --variant-file mine.ini"}, nil, []string{"docs/tenten.ini"})
	require.NoError(t, err)
	require.Equal(t, []string{"--variant-file", "mine.ini"}, specs[0].Command[1:], "its own file")
	require.Equal(t, []string{"--variant-file", abs}, specs[1].Command[1:], "the opponent this chimera")

	// Played: a user's variant with only match's --variant-file.
	dir := t.TempDir()
	ini := filepath.Join(dir, "mine.ini")
	require.NoError(t, os.WriteFile(ini, []byte("[mine:chess]\ncustomPiece1 = a:NB\nstartFen = rnbqkbar/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBAR w KQkq - 0 1\n"), 0o644))
	// The binary as a process: its "self" is itself.
	args := []string{"match", "--variant", "mine", "--variant-file", ini, "--engine", "a=self", "--engine", "b=self",
		"--tc", "0.3+0.01",
		// Building tables in the background is not what this checks.
		"--option", "a=TablebaseBuild=0", "--option", "b=TablebaseBuild=0"}
	if testing.Short() {
		// One game, from a mate in one with the user's piece on the
		// board: both engines still start with the file and play the
		// variant; the whole game from the start, then colours swapped,
		// took one to three seconds of both engines' clocks.
		openings := filepath.Join(dir, "mate.fen")
		require.NoError(t, os.WriteFile(openings, []byte("7k/5Q2/6K1/8/8/8/8/1A6 w - - 0 1\n"), 0o644))
		args = append(args, "--games", "1", "--openings", openings)
	} else {
		args = append(args, "--games", "2")
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), errOut.String())
	require.Contains(t, out.String(), "score%")
}

// TestMatchSkipsFinishedOpenings: match --openings with a PGN of games
// ended by checkmate or stalemate refuses the book when nothing else is
// in it (it played games of no move, scored "0-1 (checkmate)", and
// counted them), and otherwise says how many positions it skipped.
func TestMatchSkipsFinishedOpenings(t *testing.T) {
	dir := t.TempDir()
	finished := filepath.Join(dir, "finished.pgn")
	const games = "[Event \"mate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n" +
		"[Event \"stalemate\"]\n[FEN \"7k/5Q2/8/6K1/8/8/8/8 w - - 0 1\"]\n\n1. Kg6 1/2-1/2\n\n"
	require.NoError(t, os.WriteFile(finished, []byte(games), 0o644))
	engine := fakeEngine(t, "option name UCI_Variant type combo default chess var chess\\n")
	code, out, errOut := runCommand("match", "--engine", "a="+engine, "--engine", "b="+engine, "--games", "2", "--openings", finished)
	require.Equal(t, 2, code, out)
	require.Contains(t, errOut, "match: openings "+finished+": no position to play: the games of all 2 are already over")
	require.NotContains(t, out, "score%")

	mixed := filepath.Join(dir, "mixed.pgn")
	require.NoError(t, os.WriteFile(mixed, []byte(games+"1. e4 e5 *\n"), 0o644))
	code, _, errOut = runCommand("match", "--engine", "a=/nonexistent/engine", "--games", "2", "--openings", mixed)
	require.NotZero(t, code, "the engine cannot start")
	require.Contains(t, errOut, "match: openings "+mixed+": skipped 2 of 3 positions whose game is already over")
}
