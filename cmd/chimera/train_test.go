package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTrainCommand makes a network for a user's variant file in the two
// commands the README gives (datagen, then train), and plays it over UCI;
// data of another variant is refused.
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

	foreign := exec.Command(binary, "train", "--variant", "chess", "--data", data, "--out", filepath.Join(dir, "x.nnue"))
	msg, err = foreign.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), string(msg))
	require.Contains(t, string(msg), "holds tenten positions, not chess")
}
