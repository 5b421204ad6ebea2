package session_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/internal/train"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/variants"
)

// TestEvaluationOption: the documents' formula is the default; "tuned"
// plays the weights EvalFile loaded for a variant, else the shipped ones,
// else the formula, and says so; a bad weights file is refused and the
// weights before are kept.
func TestEvaluationOption(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("mine.ini", []byte("[mine:chess]\ncustomPiece1 = a:NB\n")))
	var messages []string
	b := &blockingSearcher{}
	s := session.New(session.Config{Searcher: b, Catalogue: cat, TablebaseDir: t.TempDir(),
		OnMessage: func(m string) { messages = append(messages, m) }})
	defer s.Close()
	require.Nil(t, b.evaluation, "the documents' formula by default")
	mine, err := cat.Lookup("mine")
	require.NoError(t, err)

	require.NoError(t, s.SetOption("Evaluation", "tuned"))
	require.NotNil(t, b.evaluation)
	_, isDocs := b.evaluation(mine).(*eval.Documents)
	require.True(t, isDocs, "no weights for a user's variant: the formula")
	require.Contains(t, strings.Join(messages, "\n"), "no tuned weights for mine: the documents' evaluation plays it")

	chessTuned, _ := eval.Shipped(variants.Chess())
	require.Equal(t, eval.NewTuned(chessTuned).Evaluate(variants.Chess().StartPosition()),
		b.evaluation(variants.Chess()).Evaluate(variants.Chess().StartPosition()), "a built-in's shipped weights")

	// The user's own weights.
	w := eval.DocumentsWeights(eval.NewLayout(mine))
	w.Set(0, 33, 33) // tempo
	require.NoError(t, s.SetOption("EvalFile", weightsFile(t, w)))
	tuned, ok := b.evaluation(mine).(*eval.Tuned)
	require.True(t, ok, "EvalFile's weights play mine")
	p := mine.StartPosition()
	require.Equal(t, 33, tuned.Evaluate(p), "the start is level but for the tempo")

	// Bad files are refused, the weights before kept.
	bad := filepath.Join(t.TempDir(), "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("chimera-weights 1\nvariant mine 8x8 PNBRQKA\nmaterial Z 1 1\n"), 0o644))
	require.ErrorContains(t, s.SetOption("EvalFile", bad), `no feature "material Z"`)
	require.ErrorContains(t, s.SetOption("EvalFile", filepath.Join(t.TempDir(), "none.txt")), "no such file")
	require.NoError(t, os.WriteFile(bad, []byte("chimera-weights 1\nvariant nosuch 8x8 PNBRQK\n"), 0o644))
	require.ErrorContains(t, s.SetOption("EvalFile", bad), `weights for unknown variant "nosuch"`)
	_, ok = b.evaluation(mine).(*eval.Tuned)
	require.True(t, ok, "the good weights stay")

	require.NoError(t, s.SetOption("Evaluation", "documents"))
	require.Nil(t, b.evaluation)
	require.ErrorContains(t, s.SetOption("Evaluation", "neural"), "neural")
	_ = engine.White
}

// weightsFile writes weights to a file of their own and returns its path.
func weightsFile(t *testing.T, w *eval.Weights) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, w.Write(&buf))
	file := filepath.Join(t.TempDir(), "weights.txt")
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	return file
}

// TestEvaluatorValue: an evaluator given as a value plays whatever the
// Evaluation and EvalFile options say.
func TestEvaluatorValue(t *testing.T) {
	tuned := eval.ShippedOrDocuments(variants.Chess())
	own := func(*engine.Variant) eval.Evaluator { return tuned }
	b := &blockingSearcher{}
	s := session.New(session.Config{Searcher: b, Evaluator: own, TablebaseDir: t.TempDir()})
	defer s.Close()
	require.Same(t, tuned, b.evaluation(variants.Chess()))
	require.NoError(t, s.SetOption("Evaluation", "tuned"))
	require.Same(t, tuned, b.evaluation(variants.Chess()))
	require.NoError(t, s.SetOption("Evaluation", "documents"))
	require.Same(t, tuned, b.evaluation(variants.Chess()))
}

// TestNetworkEvaluation: EvalFile loads a network file (chimera train's)
// for the variant it names; Evaluation network plays it there, the network
// shipped for a variant where EvalFile loaded none, and the tuned
// evaluation where there is neither, saying so; a damaged network, or
// one made for another definition, is refused and the one before kept.
func TestNetworkEvaluation(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("mine.ini", []byte("[mine:crazyhouse]\ncustomPiece1 = a:NB\n")))
	mine, err := cat.Lookup("mine")
	require.NoError(t, err)
	var messages []string
	b := &blockingSearcher{}
	s := session.New(session.Config{Searcher: b, Catalogue: cat, TablebaseDir: t.TempDir(),
		OnMessage: func(m string) { messages = append(messages, m) }})
	defer s.Close()

	l := nnue.NewLayout(mine)
	net := train.Quantise(train.NewNet(train.InputsOf(mine), train.Shape{Hidden: 8}, rand.New(rand.NewPCG(1, 1))), mine, 400, "test")
	file := networkFile(t, net)
	require.NoError(t, s.SetOption("EvalFile", file))
	require.Contains(t, strings.Join(messages, "\n"), "a network for mine loaded from "+file+" (8 hidden units) (it plays when Evaluation is network)")
	require.NoError(t, s.SetOption("Evaluation", "network"))
	e, ok := b.evaluation(mine).(*eval.Network)
	require.True(t, ok, "the network plays mine")
	p := mine.StartPosition()
	require.Equal(t, net.Evaluate(l, p), e.Evaluate(p))
	_, ok = b.evaluation(variants.Chess()).(*eval.Network)
	require.True(t, ok, "no EvalFile network for chess: the one shipped")
	janggi, err := cat.Lookup("janggi")
	require.NoError(t, err)
	_, ok = b.evaluation(janggi).(*eval.Tuned)
	require.True(t, ok, "no network for janggi: the tuned evaluation")
	require.Contains(t, strings.Join(messages, "\n"), "no network for janggi: the tuned evaluation plays it")

	foreign := *net
	foreign.Fingerprint++
	require.ErrorContains(t, s.SetOption("EvalFile", networkFile(t, &foreign)), "not as defined now")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	data[len(data)/2] ^= 1
	damaged := filepath.Join(t.TempDir(), "damaged.nnue")
	require.NoError(t, os.WriteFile(damaged, data, 0o644))
	require.ErrorContains(t, s.SetOption("EvalFile", damaged), "damaged")
	_, ok = b.evaluation(mine).(*eval.Network)
	require.True(t, ok, "the good network stays")
}

// networkFile writes a network to a file of its own and returns its path.
func networkFile(t *testing.T, n *nnue.Network) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, n.Write(&buf))
	file := filepath.Join(t.TempDir(), "net.nnue")
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	return file
}
