package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/dataset"
)

// gameNodes is the nodes a move of datagen's games in these tests: a
// third under -short, where the searches were most of the tests' time,
// and the games as many, written, killed, resumed and labelled the same.
func gameNodes(full int) string {
	if testing.Short() {
		full /= 3
	}
	return strconv.Itoa(full)
}

// TestDatagenCommand runs datagen as a user would: a run to a target, a
// second run killed outright in the middle (SIGKILL: nothing to clean up
// with), and the same command again, which resumes from a file that
// reads whole. Another variant's data is refused.
func TestDatagenCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "minishogi.data")
	args := func(positions string) []string {
		return []string{"datagen", "--variant", "minishogi", "--out", out, "--positions", positions,
			"--nodes", gameNodes(200), "--threads", "1", "--max-plies", "120"}
	}
	first, err := exec.Command(binary, args("40")...).CombinedOutput()
	require.NoError(t, err, string(first))
	require.Contains(t, string(first), out+": ")

	cmd := exec.Command(binary, args("100000")...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	var seen bytes.Buffer
	buf := make([]byte, 4096)
	for !strings.Contains(seen.String(), "resuming") || strings.Count(seen.String(), " games, ") < 3 {
		n, err := stderr.Read(buf)
		seen.Write(buf[:n])
		require.NoError(t, err, seen.String())
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_, _ = io.ReadAll(stderr)
	_ = cmd.Wait()

	r, err := dataset.Open(out)
	require.NoError(t, err)
	games := 0
	var g dataset.Game
	for r.Next(&g) == nil {
		games++
	}
	require.NoError(t, r.Close())
	require.Greater(t, games, 1)

	again, err := exec.Command(binary, args("80")...).CombinedOutput()
	require.NoError(t, err, string(again))
	require.Contains(t, string(again), "resuming with")

	foreign := exec.Command(binary, "datagen", "--variant", "chess", "--out", out, "--positions", "10")
	msg, err := foreign.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), string(msg))
	require.Contains(t, string(msg), "holds minishogi positions, not chess")

	// Other games or other positions in the same file are refused: the
	// file could not tell them apart afterwards.
	for _, change := range [][]string{{"--keep", "all"}, {"--seed", "2"}} {
		size := fileSize(t, out)
		msg, err := exec.Command(binary, append(args("200"), change...)...).CombinedOutput()
		require.True(t, errors.As(err, &exit), string(msg))
		require.Contains(t, string(msg), "it was begun with "+change[0], string(msg))
		require.Equal(t, size, fileSize(t, out), "a refused run leaves the file as it was")
	}
}

// fileSize returns the size of the file at path.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st.Size()
}

// TestDatagenTeacher labels minishogi's positions with Chimera itself as
// the teacher (a UCI engine that offers the variant), and crazyhouse's
// with Fairy-Stockfish where it is installed; a teacher that does not
// offer the variant is refused before any game.
func TestDatagenTeacher(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "minishogi.data")
	msg, err := exec.Command(binary, "datagen", "--variant", "minishogi", "--out", out, "--positions", "20",
		"--nodes", gameNodes(200), "--threads", "1", "--teacher", binary+" uci", "--teacher-depth", "2").CombinedOutput()
	require.NoError(t, err, string(msg))
	r, err := dataset.Open(out)
	require.NoError(t, err)
	require.Contains(t, r.Header().Command, "--teacher")
	require.NoError(t, r.Close())

	// The teacher plays the games too: game i is the same game on a
	// second run, as the teacher (one thread, depth-limited, a fresh hash
	// each game) is repeatable.
	var played [2][]dataset.Game
	for k := range played {
		out := filepath.Join(dir, fmt.Sprintf("played%d.data", k))
		msg, err = exec.Command(binary, "datagen", "--variant", "minishogi", "--out", out, "--positions", "20",
			"--threads", "1", "--teacher", binary+" uci", "--teacher-depth", "2", "--teacher-plays").CombinedOutput()
		require.NoError(t, err, string(msg))
		played[k] = readGames(t, out)
	}
	require.NotEmpty(t, played[0])
	require.Equal(t, played[0], played[1])
	msg, err = exec.Command(binary, "datagen", "--variant", "minishogi", "--out", filepath.Join(dir, "z.data"),
		"--teacher-plays").CombinedOutput()
	require.Error(t, err)
	require.Contains(t, string(msg), "--teacher-plays needs --teacher")

	if fsf, err := exec.LookPath("fairy-stockfish"); err == nil {
		msg, err := exec.Command(binary, "datagen", "--variant", "crazyhouse", "--out", filepath.Join(dir, "zh.data"),
			"--positions", "20", "--nodes", "200", "--threads", "1", "--teacher", fsf, "--teacher-depth", "4").CombinedOutput()
		require.NoError(t, err, string(msg))
	} else {
		t.Log("fairy-stockfish is not installed: its teacher is not tried")
	}

	fake := filepath.Join(dir, "fake-teacher")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\nwhile read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; quit) exit;; esac; done\n"), 0o755))
	msg, err = exec.Command(binary, "datagen", "--variant", "minishogi", "--out", filepath.Join(dir, "y.data"),
		"--positions", "20", "--teacher", fake).CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), string(msg))
	require.Contains(t, string(msg), "does not play variants")
}

// TestDatagenSlurm writes a job array for a user's variant and runs one of
// its tasks as Slurm would (the script with SLURM_ARRAY_TASK_ID set): the
// task writes its own file with its own seed, readable as the variant's.
func TestDatagenSlurm(t *testing.T) {
	dir := t.TempDir()
	variantFile := filepath.Join("..", "..", "docs", "tenten.ini")
	out := filepath.Join(dir, "tenten.data")
	msg, err := exec.Command(binary, "datagen", "--variant-file", variantFile, "--variant", "tenten", "--out", out,
		"--slurm", filepath.Join(dir, "job"), "--jobs", "3", "--threads", "1", "--positions", "60", "--nodes", gameNodes(150)).CombinedOutput()
	require.NoError(t, err, string(msg))
	script := filepath.Join(dir, "job", "datagen.sbatch")
	require.Contains(t, string(msg), "submit with: sbatch "+script)
	text, err := os.ReadFile(script)
	require.NoError(t, err)
	require.Contains(t, string(text), "#SBATCH --array=0-2\n")
	require.Contains(t, string(text), "--positions 20")
	require.NoError(t, exec.Command("bash", "-n", script).Run())

	task := exec.Command("bash", script)
	task.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1")
	msg, err = task.CombinedOutput()
	require.NoError(t, err, string(msg))
	r, err := dataset.Open(filepath.Join(dir, "tenten.1.data"))
	require.NoError(t, err)
	require.Equal(t, "tenten", r.Header().Variant)
	require.Contains(t, r.Header().Command, "--seed 2")
	require.NoError(t, r.Close())
	require.NoFileExists(t, filepath.Join(dir, "tenten.0.data"))
}

// readGames reads a dataset file's games in file order.
func readGames(t *testing.T, path string) []dataset.Game {
	r, err := dataset.Open(path)
	require.NoError(t, err)
	defer r.Close()
	var games []dataset.Game
	for {
		var g dataset.Game
		if r.Next(&g) == io.EOF {
			break
		}
		games = append(games, g)
	}
	require.NoError(t, r.Damaged())
	return games
}
