package main

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/train"
	"github.com/chimera-chess/chimera/variants"
)

// TestTuneCommand: a small tuning run writes a weights file the engine
// reads, saying how it was made; the same seed gives the same file; bad
// input is refused at once. Under -short the runs' games give 30 and 15
// positions, not 300 and 100, at 30 nodes a move, not 100: the games were
// most of the test's time.
func TestTuneCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "chess.txt")
	positions, minePositions, nodes := "300", "100", "100"
	if testing.Short() {
		// Fewer and shallower games' positions run every step the same way.
		positions, minePositions, nodes = "30", "15", "30"
	}
	args := []string{"tune", "--variant", "chess", "--positions", positions, "--nodes", nodes, "--iterations", "30",
		"--threads", "2", "--seed", "5", "--out", out}
	code, stdout, errOut := runCommand(args...)
	require.Zero(t, code, errOut)
	require.Contains(t, stdout, "chess: "+positions+" positions; loss ")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	w, err := eval.ParseWeights(variants.Chess(), data)
	require.NoError(t, err)
	require.Len(t, w.Comments, 3)
	require.Contains(t, w.Comments[0], "made by: ")
	require.Regexp(t, `^positions: `+positions+` \(fitted on \d+, held out \d+\)`, w.Comments[1])

	again := filepath.Join(dir, "again.txt")
	args[len(args)-1] = again
	args[len(args)-5] = "1" // one thread: the same games
	code, _, errOut = runCommand(args...)
	require.Zero(t, code, errOut)
	second, err := os.ReadFile(again)
	require.NoError(t, err)
	w2, err := eval.ParseWeights(variants.Chess(), second)
	require.NoError(t, err)
	for i := range w.Layout().Len() {
		a1, b1 := w.Get(i)
		a2, b2 := w2.Get(i)
		require.Equal(t, [2]int{a1, b1}, [2]int{a2, b2}, w.Layout().Names()[i])
	}

	// A user's variant, a second round from the first's weights: the
	// games' engines read the weights with the user's variants.
	mine := filepath.Join(dir, "mine.ini")
	require.NoError(t, os.WriteFile(mine, []byte("[mine:chess]\ncustomPiece1 = a:NB\nstartFen = rnbqkbar/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBAR w KQkq - 0 1\n"), 0o644))
	round1, round2 := filepath.Join(dir, "mine1.txt"), filepath.Join(dir, "mine2.txt")
	user := []string{"tune", "--variant", "mine", "--variant-file", mine, "--positions", minePositions, "--nodes", nodes, "--iterations", "10"}
	saved := filepath.Join(dir, "mine.epd")
	code, _, errOut = runCommand(append(user, "--out", round1, "--save-positions", saved)...)
	require.Zero(t, code, errOut)
	// Its positions fitted again without the games, resolved first, the
	// check and threat features left out.
	refit := filepath.Join(dir, "mine-epd.txt")
	code, stdout, errOut = runCommand("tune", "--variant", "mine", "--variant-file", mine, "--epd", saved, "--resolve",
		"--iterations", "10", "--omit", "check,threat,hanging", "--out", refit)
	require.Zero(t, code, errOut)
	require.Contains(t, errOut, minePositions+" positions resolved")
	require.Contains(t, stdout, "mine: "+minePositions+" positions; loss ")
	data, err = os.ReadFile(refit)
	require.NoError(t, err)
	require.Regexp(t, `(?m)^check A 0 0$`, string(data))
	require.Regexp(t, `(?m)^threats tomove 0 0$`, string(data))
	require.NotRegexp(t, `(?m)^(check|threat|hanging)\S* \S+ (-?[1-9]\d* -?\d+|-?\d+ -?[1-9]\d*)$`, string(data))
	// The second round with resolved positions and search labels: every
	// position searched.
	code, _, errOut = runCommand(append(user, "--from", round1, "--out", round2, "--resolve", "--label-nodes", "200", "--search-share", "0.7")...)
	require.Zero(t, code, errOut)
	require.FileExists(t, round2)
	require.Contains(t, errOut, minePositions+" positions searched")

	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("chimera-weights 1\nvariant chess 8x8 PNBRQK\nmaterial Z 1 1\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--variant", "chess"}, "give --out FILE"},
		{[]string{"tune", "--variant", "chess", "--out", filepath.Join(dir, "no", "w.txt")}, "no directory"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--from", bad}, `no feature "material Z"`},
		{[]string{"tune", "--variant", "chess", "--out", out, "--epd", bad}, "line 1: no result"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--positions", "5"}, "from 10 to"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--random-plies", "0"}, "from 1 to"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--label-nodes", "100", "--search-share", "1.5"}, "want a share from 0 to 1"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--search-share", "0.3"}, "--search-share: weighs the search labels: give --label-nodes N too"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--fit", "threat,bogus"}, `--fit: "bogus": no feature's name begins so`},
		{[]string{"tune", "--variant", "chess", "--out", out, "--omit", "check,bogus"}, `--omit: "bogus": no feature's name begins so`},
		{[]string{"tune", "--variant", "chess", "--out", out, "--omit", "check,"}, "--omit: an empty prefix"},
		// Refused before the positions are read (bad holds none).
		{[]string{"tune", "--variant", "chess", "--out", out, "--epd", bad, "--fit", "check", "--omit", "check"}, "leave no feature to fit"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--epd", bad, "--save-positions", bad + ".epd"}, "--save-positions: keeps the games' positions: give it without --epd"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--save-positions", out}, "name the same file"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--save-positions", dir}, "a directory"},
		{[]string{"tune", "--variant", "chess", "--out", out, "--save-positions", filepath.Join(dir, "no", "p.epd")}, "no directory"},
	} {
		code, _, errOut := runCommand(c.args...)
		require.Equal(t, 2, code, c.args)
		require.Contains(t, errOut, c.want, c.args)
	}
}

// TestBenchForOpenBench: bench's last line is "N nodes M nps", the form
// OpenBench's client reads (it scans from the last line for a number next
// to "nodes" and to "nps"), with the node count of "Nodes searched".
func TestBenchForOpenBench(t *testing.T) {
	code, out, errOut := runCommand("bench", "--depth", "3")
	require.Zero(t, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	require.Regexp(t, `^\d+ nodes \d+ nps$`, last)
	nodes := strings.Fields(last)[0]
	require.Contains(t, out, "Nodes searched: "+nodes+"\n")
}

// TestBenchEvaluation: --evaluation tuned searches with the shipped
// weights (another node count than the documents' formula), --evaluation
// network with the networks shipped or the network given (others again),
// and a bad choice is refused.
func TestBenchEvaluation(t *testing.T) {
	nodes := func(args ...string) string {
		code, out, errOut := runCommand(append([]string{"bench", "--depth", "4"}, args...)...)
		require.Zero(t, code, errOut)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return strings.Fields(lines[len(lines)-1])[0]
	}
	// Each signature searched once and compared as often as need be: a
	// bench at depth 4 is most of this test's time.
	documents, tuned := nodes(), nodes("--evaluation", "tuned")
	require.NotEqual(t, documents, tuned)
	require.Equal(t, documents, nodes("--evaluation", "documents"))
	chess := variants.Chess()
	net := train.Quantise(train.NewNet(train.InputsOf(chess), train.Shape{Hidden: 8}, rand.New(rand.NewPCG(1, 1))), chess, 300, "test")
	file := filepath.Join(t.TempDir(), "chess.nnue")
	var buf bytes.Buffer
	require.NoError(t, net.Write(&buf))
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	withNet := nodes("--evaluation", "network", "--eval-file", file)
	require.NotEqual(t, tuned, withNet)
	require.Equal(t, withNet, nodes("--evaluation", "network", "--eval-file", file), "a network's signature")
	code, _, errOut := runCommand("bench", "--depth", "2", "--evaluation", "best")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `--evaluation "best": want documents, tuned or network`)
	shipped := nodes("--evaluation", "network")
	require.NotEqual(t, withNet, shipped, "the shipped chess network, not the file's")
	require.NotEqual(t, tuned, shipped)
}

// TestCompareEvaluation: compare measures the documents' formula unless
// told otherwise, and refuses a bad weights file before any game.
func TestCompareEvaluation(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("nonsense\n"), 0o644))
	code, _, errOut := runCommand("compare", "--material", "KQvK", "--positions", "2", "--depth", "1", "--dir", dir,
		"--evaluation", "tuned", "--eval-file", bad)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "compare: option EvalFile")
	code, _, errOut = runCommand("compare", "--material", "KQvK", "--positions", "2", "--depth", "1", "--dir", dir,
		"--evaluation", "neural")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `"neural" is not one of documents, tuned`)
}

// TestTuneInterrupted: Ctrl-C while the binary labels positions stops it
// with a clear error and exit status 130, and writes no weights (the file
// a user may already have is not replaced by a half-made one).
func TestTuneInterrupted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.txt")
	// 100 searches of 200,000 nodes: a minute of labelling, the first
	// reported within a second (the games before it take a second, not
	// the six that 1,000 positions took).
	positions, labelNodes := "100", "200000"
	if testing.Short() {
		// Fewer games before the labelling stage, which is the stage
		// interrupted, and shorter searches there: the first is reported
		// when it ends (it took most of the test's second at 200,000
		// nodes), and the interrupt comes with nineteen, seconds of
		// labelling, to go.
		positions, labelNodes = "20", "50000"
	}
	cmd := exec.Command(binary, "tune", "--variant", "chess", "--positions", positions, "--nodes", "50",
		"--label-nodes", labelNodes, "--threads", "1", "--out", out)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	// Wait for the labelling stage to report, then interrupt.
	var seen bytes.Buffer
	buf := make([]byte, 4096)
	for !strings.Contains(seen.String(), "label") {
		n, err := stderr.Read(buf)
		seen.Write(buf[:n])
		require.NoError(t, err, seen.String())
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	rest, _ := io.ReadAll(stderr)
	seen.Write(rest)
	var exit *exec.ExitError
	require.True(t, errors.As(cmd.Wait(), &exit), seen.String())
	require.Equal(t, exitInterrupted, exit.ExitCode(), "the status of every command Ctrl-C stops")
	require.Contains(t, seen.String(), "tune: interrupted: no weights written to "+out)
	require.NoFileExists(t, out)
}

// TestTuneEmptyEPD: an --epd file without a position (empty, or blank
// lines alone) is refused at once, the error naming the file; it used to
// end, after reading, with "fewer than 10 positions to learn from",
// naming neither the file nor what was wrong with it.
func TestTuneEmptyEPD(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"empty.txt": "", "blank.txt": "\n\n   \n"} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		code, _, errOut := runCommand("tune", "--variant", "chess", "--out", filepath.Join(dir, "w.txt"), "--epd", path)
		require.Equal(t, 2, code)
		require.Contains(t, errOut, "tune: --epd "+path+": no positions in its")
		require.NoFileExists(t, filepath.Join(dir, "w.txt"))
	}
}
