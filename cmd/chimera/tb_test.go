package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTablebaseCommands(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCommand("tb", "generate", "KRvK", "--dir", dir)
	require.Zero(t, code)
	require.Contains(t, out, "chess KRvK")
	require.FileExists(t, filepath.Join(dir, "chess-KRvK.ctb"))

	// Colours flipped: the same table, not a second one.
	code, out, _ = runCommand("tb", "generate", "KvKR", "--dir", dir)
	require.Zero(t, code)
	require.Contains(t, out, "chess KRvK")
	require.NoFileExists(t, filepath.Join(dir, "chess-KvKR.ctb"))

	// A table that cannot be saved is a failure, not a success.
	notADir := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(notADir, nil, 0o644))
	code, _, errOut := runCommand("tb", "generate", "KQvK", "--dir", notADir)
	require.NotZero(t, code)
	require.Contains(t, errOut, notADir)

	code, out, _ = runCommand("tb", "stats", "KRvK", "--dir", dir)
	require.Zero(t, code)
	require.Contains(t, out, "white to move: 175168 legal positions: 175168 won")
	require.Contains(t, out, "win, mate in 16: ")

	code, out, _ = runCommand("tb", "verify", "KRvK", "--dir", dir)
	require.Zero(t, code)
	require.Regexp(t, `chess KRvK: \d+ positions checked, 0 disagreements`, out)

	code, out, _ = runCommand("tb", "probe", "--dir", dir, "--fen", "7k/8/8/8/8/8/8/R5K1 w - - 0 1")
	require.Zero(t, code)
	require.Contains(t, out, "win: mate in 10; best: ")
	require.Contains(t, out, "Ra8+")

	file := filepath.Join(dir, "positions.txt")
	require.NoError(t, os.WriteFile(file, []byte(strings.Join([]string{
		"7k/8/8/8/8/8/8/R5K1 w - - 0 1",
		"7k/8/8/8/8/8/PPPP4/6K1 w - - 0 1",
		"not a fen",
		"7k/8/8/8/8/8/8/R5K1 b - - 0 1",
	}, "\n")), 0o644))
	code, out, _ = runCommand("tb", "probe", "--dir", dir, "--fen-file", file, "--json")
	require.Zero(t, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	var first struct {
		FEN   string   `json:"fen"`
		WDL   *int     `json:"wdl"`
		DTM   *int     `json:"dtm"`
		Best  []string `json:"best"`
		Error string   `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	require.Equal(t, 1, *first.WDL)
	require.Equal(t, 19, *first.DTM)
	require.NotEmpty(t, first.Best)
	require.Contains(t, lines[1], `"error":"material KPPPPvK: 6 pieces, at most 5"`)
	require.Contains(t, lines[2], `"error":"FEN`)
	require.Contains(t, lines[3], `"wdl":-1`)

	code, _, errOut = runCommand("tb", "generate", "KPPPPvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "at most 5")
	code, _, errOut = runCommand("tb", "probe", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "give --fen or --fen-file")
}

func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "chart.svg")
	code, out, _ := runCommand("compare", "--material", "KQvK", "--positions", "4", "--depth", "1,3", "--dir", dir, "--svg", svg)
	require.Zero(t, code)
	require.Contains(t, out, "KQvK: search (winning side) against perfect defence")
	require.Contains(t, out, "depth 1 ")
	require.Contains(t, out, "depth 3 ")
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "<svg"))
	require.Contains(t, string(data), "depth 3")
	code, _, errOut := runCommand("compare", "--material", "KQvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "give --depth or --movetime")
}

func TestTablebaseGenerateCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "kqk.prof")
	code, _, _ := runCommand("tb", "generate", "KQvK", "--dir", dir, "--cpuprofile", prof)
	require.Zero(t, code)
	info, err := os.Stat(prof)
	require.NoError(t, err)
	require.NotZero(t, info.Size(), "the profile is written when the generation ends")

	code, _, errOut := runCommand("tb", "generate", "KQvK", "--dir", dir, "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "p"))
	require.NotZero(t, code)
	require.Contains(t, errOut, "cpu profile")
}
