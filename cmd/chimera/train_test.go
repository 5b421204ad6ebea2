package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/train"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/variants"
)

// TestTrainCommand makes a network for a user's variant file in the two
// commands the README gives (datagen, then train), plays it over UCI and
// has it play the next round's games; data of another variant is refused.
func TestTrainCommand(t *testing.T) {
	dir := t.TempDir()
	data, net := filepath.Join(dir, "tenten.data"), filepath.Join(dir, "tenten.nnue")
	variantFile := filepath.Join("..", "..", "docs", "tenten.ini")
	msg, err := exec.Command(binary, "datagen", "--variant-file", variantFile, "--variant", "tenten", "--out", data,
		"--positions", "60", "--nodes", gameNodes(150), "--threads", "1").CombinedOutput()
	require.NoError(t, err, string(msg))
	msg, err = exec.Command(binary, "train", "--variant-file", variantFile, "--variant", "tenten", "--data", data,
		"--out", net, "--hidden", "8", "--epochs", "2", "--batch", "16").CombinedOutput()
	require.NoError(t, err, string(msg))
	require.Contains(t, string(msg), "network in "+net)

	uci := exec.Command(binary, "uci")
	uci.Stdin = strings.NewReader("uci\nsetoption name VariantPath value " + variantFile + "\nsetoption name UCI_Variant value tenten\n" +
		"setoption name EvalFile value " + net + "\nsetoption name Evaluation value network\nisready\nposition startpos\ngo depth 3\n")
	out, err := uci.CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "a network for tenten loaded from "+net)
	require.Contains(t, string(out), "bestmove ")
	require.NotContains(t, string(out), "tuned evaluation plays it")

	// The network plays the next round's games: its own data.
	msg, err = exec.Command(binary, "datagen", "--variant-file", variantFile, "--variant", "tenten", "--out", filepath.Join(dir, "round2.data"),
		"--positions", "30", "--nodes", "150", "--threads", "1", "--evaluation", "network", "--eval-file", net).CombinedOutput()
	require.NoError(t, err, string(msg))
	msg, err = exec.Command(binary, "datagen", "--variant-file", variantFile, "--variant", "tenten", "--out", filepath.Join(dir, "round2.data"),
		"--positions", "30", "--eval-file", net).CombinedOutput()
	require.Error(t, err)
	require.Contains(t, string(msg), "--eval-file goes with --evaluation network")

	foreign := exec.Command(binary, "train", "--variant", "chess", "--data", data, "--out", filepath.Join(dir, "x.nnue"))
	msg, err = foreign.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), string(msg))
	require.Contains(t, string(msg), "holds tenten positions, not chess")
}

// TestNetworkFilesRefusedOverTheProtocols: a damaged network file and one
// made for another definition of the variant are refused over UCI and
// CECP with the reason, the engine carries on and searches, and a good
// network then loads.
func TestNetworkFilesRefusedOverTheProtocols(t *testing.T) {
	dir := t.TempDir()
	chess := variants.Chess()
	good := train.Quantise(train.NewNet(train.InputsOf(chess), train.Shape{Hidden: 8}, rand.New(rand.NewPCG(1, 1))), chess, 300, "test")
	write := func(name string, n *nnue.Network, damage bool) string {
		var buf bytes.Buffer
		require.NoError(t, n.Write(&buf))
		data := buf.Bytes()
		if damage {
			data[len(data)/2] ^= 0x10
		}
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return path
	}
	foreign := *good
	foreign.Fingerprint++
	goodFile, damagedFile, foreignFile := write("good.nnue", good, false), write("damaged.nnue", good, true), write("foreign.nnue", &foreign, false)

	s := startScript(t, "uci")
	s.send("uci")
	s.expect("uciok")
	for file, why := range map[string]string{damagedFile: "damaged", foreignFile: "not as defined now"} {
		s.send("setoption name EvalFile value "+file, "setoption name Evaluation value network", "position startpos", "go depth 2")
		refused, _ := s.expect("info string error: option EvalFile")
		require.Contains(t, refused, why)
		require.Contains(t, refused, file)
		s.expect("bestmove ")
	}
	s.send("setoption name EvalFile value " + goodFile)
	loaded, _ := s.expect("info string evaluation: a network for chess loaded from " + goodFile)
	require.NotContains(t, loaded, "error")
	s.send("quit")

	x := startScript(t, "xboard")
	x.send("xboard", "protover 2")
	x.expect("feature done=1")
	for file, why := range map[string]string{damagedFile: "damaged", foreignFile: "not as defined now"} {
		x.send("option EvalFile="+file, "option Evaluation=network", "new", "sd 2", "go")
		refused, _ := x.expect("Error (option EvalFile")
		require.Contains(t, refused, why)
		x.expect("move ")
	}
	x.send("quit")
}

// TestKeepAllAndQuietOnly: datagen --keep all keeps tactical positions
// beside the quiet ones, and train --quiet-only learns from fewer of them;
// a --keep of neither kind is refused.
func TestKeepAllAndQuietOnly(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "all.data")
	msg, err := exec.Command(binary, "datagen", "--variant", "chess", "--out", data, "--keep", "all",
		"--positions", "120", "--nodes", gameNodes(150), "--threads", "1").CombinedOutput()
	require.NoError(t, err, string(msg))
	learnt := func(extra ...string) int {
		args := append([]string{"train", "--variant", "chess", "--data", data, "--out", filepath.Join(dir, "x.nnue"),
			"--hidden", "8", "--epochs", "1", "--held-out", "0", "--threads", "1"}, extra...)
		msg, err := exec.Command(binary, args...).CombinedOutput()
		require.NoError(t, err, string(msg))
		var n int
		_, err = fmt.Sscanf(string(msg), "%d positions to learn from", &n)
		require.NoError(t, err, string(msg))
		return n
	}
	all, quiet := learnt(), learnt("--quiet-only")
	require.GreaterOrEqual(t, all, 120)
	require.Positive(t, quiet)
	require.Less(t, quiet, all, "--quiet-only learnt from every position")

	msg, err = exec.Command(binary, "datagen", "--variant", "chess", "--out", filepath.Join(dir, "y.data"), "--keep", "some").CombinedOutput()
	require.Error(t, err)
	require.Contains(t, string(msg), `--keep is quiet or all, not "some"`)
}
