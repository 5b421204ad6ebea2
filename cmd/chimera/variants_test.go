package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVariantsList(t *testing.T) {
	code, out, _ := runCommand("variants", "list")
	require.Zero(t, code)
	for _, want := range []string{"chess ", "capablanca ", "10x8", "reallybig ", "16x16", "grand "} {
		require.Contains(t, out, want)
	}
	require.GreaterOrEqual(t, strings.Count(out, "\n"), 32)
}

func TestVariantsShow(t *testing.T) {
	code, out, _ := runCommand("variants", "show", "tuttifrutti")
	require.Zero(t, code)
	for _, want := range []string{"amazon", "QN", "1300", "♔", "castling white K: king e1-g1", "Start position: enbakqhr"} {
		require.Contains(t, out, want)
	}
	code, _, errOut := runCommand("variants", "show", "nosuch")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `unknown variant "nosuch"`)
}

func TestVariantFileFlagAndCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.ini")
	require.NoError(t, os.WriteFile(good, []byte("[tiny:chess]\nmaxRank = 6\nmaxFile = 6\n"+
		"startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\ncastling = false\ndescription = a small board\n"), 0o644))
	code, out, _ := runCommand("perft", "--variant-file", good, "--variant", "tiny", "--depth", "2")
	require.Zero(t, code)
	require.Contains(t, out, "Nodes searched: ")

	code, out, _ = runCommand("variants", "list", "--variant-file", good)
	require.Zero(t, code)
	require.Contains(t, out, "a small board")

	code, out, _ = runCommand("variants", "check", good)
	require.Zero(t, code)
	require.Equal(t, good+": OK\n", out)

	bad := filepath.Join(dir, "bad.ini")
	require.NoError(t, os.WriteFile(bad, []byte("[x]\nfoo = 1\nmaxRank = 99\n"), 0o644))
	code, out, errOut := runCommand("variants", "check", bad)
	require.Equal(t, 2, code)
	require.Contains(t, out, "bad.ini:2: unknown key \"foo\"")
	require.Contains(t, out, "bad.ini:3: maxRank")
	require.Contains(t, errOut, "2 problem(s)")

	code, _, errOut = runCommand("perft", "--variant-file", bad, "--depth", "1")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "bad.ini:2")
}

// TestVariantsCheckStartPosition: a start position that "position fen"
// would refuse (no kings in a variant with kings) makes the file fail,
// each problem at its startFen line, and no command loads it.
func TestVariantsCheckStartPosition(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "kings.ini")
	require.NoError(t, os.WriteFile(bad, []byte("[nokings:chess]\ndescription = an empty board\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n\n"+
		"[queens:chess]\nstartFen = 3q4/8/8/8/8/8/8/3Q4 w - - 0 1\n"), 0o644))
	code, out, errOut := runCommand("variants", "check", bad)
	require.Equal(t, 2, code)
	require.NotContains(t, out, "OK")
	require.Contains(t, out, `kings.ini:3: [nokings]: start position: FEN "8/8/8/8/8/8/8/8 w - - 0 1": white has no king`)
	require.Contains(t, out, `kings.ini:6: [queens]: start position: FEN "3q4/8/8/8/8/8/8/3Q4 w - - 0 1": white has no king`)
	require.Contains(t, errOut, "2 problem(s)")

	code, out, errOut = runCommand("perft", "--variant-file", bad, "--variant", "queens", "--depth", "1")
	require.Equal(t, 2, code)
	require.NotContains(t, out, "Nodes searched")
	require.Contains(t, errOut, "kings.ini:6")
}

func TestPerftVariant(t *testing.T) {
	code, out, _ := runCommand("perft", "--variant", "capablanca", "--depth", "3")
	require.Zero(t, code)
	require.Equal(t, "Nodes searched: 25228\n", out)
}

// TestRootVariantFile: "chimera --variant-file F", as a GUI's engine
// settings give it, is the UCI engine with the file's variants.
func TestRootVariantFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.ini")
	require.NoError(t, os.WriteFile(path, []byte("[mycap:capablanca]\n"), 0o644))
	var out, errOut strings.Builder
	code := run([]string{"--variant-file", path}, strings.NewReader("uci\nquit\n"), &out, &errOut)
	require.Zero(t, code, errOut.String())
	require.Contains(t, out.String(), " var mycap")
}
