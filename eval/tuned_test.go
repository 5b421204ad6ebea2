package eval_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/testkit/randomgames"
	"github.com/chimera-chess/chimera/variants"
)

// mirrorFEN swaps the colours of a FEN: ranks in reverse order, cases
// swapped (on the board and in hand), the other side to move, remaining
// checks swapped; castling and en-passant rights are dropped (no feature
// reads them).
func mirrorFEN(fen string) string {
	fields := strings.Fields(fen)
	board, hand, _ := strings.Cut(fields[0], "[")
	rows := strings.Split(board, "/")
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	out := swap(strings.Join(rows, "/"))
	if fields[0] != board {
		out += "[" + swap(hand)
	}
	stm := "w"
	if fields[1] == "w" {
		stm = "b"
	}
	rest := []string{out, stm, "-", "-"}
	for _, f := range fields[4:] {
		if a, b, ok := strings.Cut(f, "+"); ok {
			f = b + "+" + a
		}
		rest = append(rest, f)
	}
	return strings.Join(rest, " ")
}

// randomWeights gives every feature random weights.
func randomWeights(l *eval.Layout, seed uint64) *eval.Weights {
	rng := rand.New(rand.NewPCG(seed, 2))
	w := eval.NewWeights(l)
	for i := range l.Len() {
		w.Set(i, rng.IntN(201)-100, rng.IntN(201)-100)
	}
	return w
}

// TestTunedIsSymmetric: in every built-in variant, under random weights,
// a position and its colour-mirrored twin evaluate the same for their
// sides to move: no feature favours a colour.
func TestTunedIsSymmetric(t *testing.T) {
	games := 3
	if testing.Short() {
		games = 1
	}
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		e := eval.NewTuned(randomWeights(eval.NewLayout(v), 9))
		checked := 0
		for _, p := range randomgames.Positions(v, games, 60, 3) {
			q, err := v.ParseFEN(mirrorFEN(p.FEN()))
			if err != nil {
				continue // not a legal position of an asymmetric variant (horde)
			}
			checked++
			// The FENs are written only on failure.
			if a, b := e.Evaluate(p), e.Evaluate(q); a != b {
				require.Equal(t, a, b, "%s: %s and %s", name, p.FEN(), q.FEN())
			}
		}
		if _, err := v.ParseFEN(mirrorFEN(v.StartFEN)); err == nil {
			require.Positive(t, checked, name) // a variant the same for both colours
		}
	}
}

// TestDocumentsWeightsAreTheFormula: with the documents' weights, the
// tuned evaluation's material and mobility features add up to the
// documents' formula exactly, in every variant whose formula they cover
// (one royal piece a side, no drops: drops count in the formula's
// mobility and in no piece's).
func TestDocumentsWeightsAreTheFormula(t *testing.T) {
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		if v.PieceDrops {
			continue
		}
		l := eval.NewLayout(v)
		tuned, docs := eval.NewTuned(eval.DocumentsWeights(l)), eval.NewDocuments(v)
		compared := 0
		for _, p := range randomgames.Positions(v, 1, 80, 5) {
			if royals(p, engine.White) != royals(p, engine.Black) {
				continue // the formula counts royal pieces' value
			}
			compared++
			if want, got := docs.Evaluate(p), tuned.Evaluate(p); want != got { // the FEN only on failure
				require.Equal(t, want, got, "%s %s", name, p.FEN())
			}
		}
		if start := v.StartPosition(); royals(start, engine.White) == royals(start, engine.Black) {
			require.Positive(t, compared, name)
		}
	}
}

func royals(p *engine.Position, c engine.Colour) int {
	n := 0
	for _, s := range p.Pieces(c) {
		if p.Variant().PieceType(p.At(s)).Royal {
			n++
		}
	}
	return n
}

// TestTracesAddUp: the features a trace counts, weighted and tapered, are
// the evaluation; and a few features of a known position count what they
// name.
func TestTracesAddUp(t *testing.T) {
	v := variants.Chess()
	l := eval.NewLayout(v)
	w := randomWeights(l, 4)
	e := eval.NewTuned(w)
	for _, p := range randomgames.Positions(v, 2, 60, 8) {
		tr, white := e.Trace(p)
		mg, eg := 0, 0
		for i, c := range tr.Counts {
			m, g := w.Get(i)
			mg += m * int(c)
			eg += g * int(c)
		}
		require.Equal(t, (mg*tr.Phase+eg*(256-tr.Phase))/256, white)
		score := e.Evaluate(p)
		if p.SideToMove() == engine.Black {
			score = -score
		}
		require.Equal(t, white, score)
	}
	p, err := v.ParseFEN("4k3/8/8/3P4/8/8/P1P5/4K2R w - - 0 1")
	require.NoError(t, err)
	tr, _ := e.Trace(p)
	count := func(name string) int32 {
		for i, n := range l.Names() {
			if n == name {
				return tr.Counts[i]
			}
		}
		t.Fatalf("no feature %q", name)
		return 0
	}
	require.Equal(t, int32(3), count("material P"))
	require.Equal(t, int32(1), count("material R"))
	require.Equal(t, int32(1), count("tempo"))
	require.Equal(t, int32(1), count("passed 4"), "d5 is passed, four ranks up")
	require.Equal(t, int32(2), count("passed 1"), "a2 and c2 too")
	require.Equal(t, int32(1), count("isolated"), "a2 alone: c2 has d5 beside it")
	require.Equal(t, int32(0), count("connected"))
	require.Equal(t, int32(1), count("rank R 0"))
	require.Equal(t, int32(1), count("file R 0"), "the h-file is an edge file")
	require.Equal(t, int32(0), count("shelter"), "no pawn in front of e1")
	require.Equal(t, int32(1), count("check R"), "Rh8+, the rook's one checking move")
	require.Equal(t, int32(0), count("check P"), "no pawn move reaches e8's attackers' squares")
	require.Less(t, tr.Phase, 256/2, "a rook left of the start's material")

	// Threats: d5 attacks the knight on c6 (a pawn: worth less), the rook
	// attacks h4's undefended bishop; the bishop attacks f2, which the king
	// defends.
	for _, c := range []struct {
		fen     string
		threats int32
	}{{"4k3/8/2n5/3P4/7b/8/5P2/4K2R w - - 0 1", 2}, {"4k3/8/2n5/3P4/7b/8/5P2/4K2R b - - 0 1", 0}} {
		p, err := v.ParseFEN(c.fen)
		require.NoError(t, err)
		tr, _ = e.Trace(p)
		require.Equal(t, int32(1), count("threat N"), c.fen)
		require.Equal(t, int32(1), count("hanging B"), c.fen)
		require.Equal(t, int32(0), count("threat B"), "a rook is worth more than a bishop")
		require.Equal(t, int32(0), count("hanging P"), "f2 is defended")
		require.Equal(t, c.threats, count("threats tomove"), "White's two, or Black's none")
	}

	// A king attacks an undefended knight: hanging in chess, not in
	// atomic, where a king cannot capture.
	for _, c := range []struct {
		variant string
		hanging int32
	}{{"chess", 1}, {"atomic", 0}} {
		v, err := variants.Builtin().Lookup(c.variant)
		require.NoError(t, err)
		p, err := v.ParseFEN("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1")
		require.NoError(t, err)
		l := eval.NewLayout(v)
		tr, _ := eval.NewTuned(randomWeights(l, 6)).Trace(p)
		i := slices.Index(l.Names(), "hanging N")
		require.GreaterOrEqual(t, i, 0)
		require.Equal(t, c.hanging, tr.Counts[i], c.variant)
	}
}

// TestWeightsFiles: weights written and read back are the same; bad files
// are refused with the line and the reason, and at most a few problems.
func TestWeightsFiles(t *testing.T) {
	v := variants.Chess()
	w := randomWeights(eval.NewLayout(v), 5)
	w.Scale = 1.25
	w.Comments = []string{"made by a test"}
	var b bytes.Buffer
	require.NoError(t, w.Write(&b))
	name, err := eval.WeightsVariant(b.Bytes())
	require.NoError(t, err)
	require.Equal(t, "chess", name)
	back, err := eval.ParseWeights(v, b.Bytes())
	require.NoError(t, err)
	require.Equal(t, 1.25, back.Scale)
	require.Equal(t, []string{"made by a test"}, back.Comments)
	for i := range w.Layout().Len() {
		m1, e1 := w.Get(i)
		m2, e2 := back.Get(i)
		require.Equal(t, [2]int{m1, e1}, [2]int{m2, e2})
	}
	capa, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	_, err = eval.ParseWeights(capa, b.Bytes())
	require.ErrorContains(t, err, "weights for chess 8x8 PNBRQK, not for capablanca 10x8")

	good := b.String()
	for text, want := range map[string]string{
		"":        "not a weights file",
		"hello\n": "is not a weights file's first line",
		strings.Replace(good, "material P", "material Z", 1): "no feature \"material Z\"",
		good + "tempo 1 2\n": "feature \"tempo\" given twice",
		strings.Replace(good, "scale 1.2500", "scale -1", 1):                               "want: scale POSITIVE-NUMBER",
		good + "material Q 1\n":                                                            "line",
		strings.Repeat("x\n", 100):                                                         "and 96 more",
		"chimera-weights 1\nvariant chess 8x8 PNBRQK\nmobility N 9999999 1\n":              "weights are whole numbers of centipawns from -10000 to 10000",
		"chimera-weights 1\nvariant chess 8x8 PNBRQK\n":                                    "no feature weights",
		"\ufeffchimera-weights 1\nvariant chess 8x8 PNBRQK\nscale 1\nscale 2\ntempo 1 1\n": "scale given twice",
		"chimera-weights 1\nvariant chess 8x8 PNBRQK\ntempo -9223372036854775808 1\n":      "from -10000 to 10000",
	} {
		_, err := eval.ParseWeights(v, []byte(text))
		require.ErrorContains(t, err, want, text[:min(len(text), 30)])
	}
	_, err = eval.ParseWeights(v, make([]byte, 2<<20))
	require.ErrorContains(t, err, "more than a weights file has")
}

// BenchmarkEvaluators measures one evaluation of middlegame positions
// by each evaluator.
func BenchmarkEvaluators(b *testing.B) {
	for _, name := range []string{"chess", "capablanca", "xiangqi", "shogi"} {
		v, err := variants.Lookup(name)
		require.NoError(b, err)
		positions := randomgames.Positions(v, 4, 30, 11)
		for _, e := range []struct {
			name string
			e    eval.Evaluator
		}{
			{"documents", eval.NewDocuments(v)},
			{"tuned", eval.NewTuned(randomWeights(eval.NewLayout(v), 1))}, // every feature weighed
			{"shipped", eval.ShippedOrDocuments(v)},
		} {
			b.Run(name+"/"+e.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					e.e.Evaluate(positions[i%len(positions)])
					i++
				}
			})
		}
	}
}

// TestRoyalPiecesInHand: where a spare royal piece can be captured into a
// hand (two kings each, with drops), the tuned evaluation evaluates the
// positions that follow (a royal piece in hand has no feature).
func TestRoyalPiecesInHand(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("twohouse.ini", []byte("[twohouse:twokings]\npieceDrops = true\ncapturesToHand = true\n")))
	v, err := cat.Lookup("twohouse")
	require.NoError(t, err)
	e := eval.NewTuned(randomWeights(eval.NewLayout(v), 3))
	royalInHand := false
	for _, p := range randomgames.Positions(v, 20, 150, 4) {
		e.Evaluate(p)
		for c := engine.White; c <= engine.Black; c++ {
			royalInHand = royalInHand || p.InHand(c, v.TypeByLetter('K')) > 0
		}
	}
	require.True(t, royalInHand, "the games reach a royal piece in hand")
}

// TestShippedWeights: every shipped file is the built-in variant's of its
// name (a file that no longer fits would silently fall back to the
// documents' formula), none is an alias's, and the variants the engine
// promises weights for have them, an alias by its variant's file.
func TestShippedWeights(t *testing.T) {
	names := eval.ShippedVariants()
	// The variants weights are promised for (README "Evaluation").
	shippedFor := []string{"chess", "chess960", "fischerandom", "crazyhouse", "atomic", "antichess", "3check", "kingofthehill",
		"horde", "racingkings", "capablanca", "shogi", "xiangqi", "janggi", "makruk", "seirawan"}
	for _, want := range shippedFor {
		// An alias plays its variant's file (variants.Canonical).
		require.Contains(t, names, variants.Canonical(want))
		v, err := variants.Lookup(want)
		require.NoError(t, err, want)
		w, ok := eval.Shipped(v)
		require.True(t, ok, "%s: the shipped weights do not load", want)
		_, isTuned := eval.ShippedOrDocuments(v).(*eval.Tuned)
		require.True(t, isTuned, want)
		require.Equal(t, want, w.Layout().Variant().Name)
	}
	for _, name := range names {
		require.Equal(t, name, variants.Canonical(name), "a file for an alias is its variant's, kept once")
		v, err := variants.Lookup(name)
		require.NoError(t, err, name)
		w, ok := eval.Shipped(v)
		require.True(t, ok, "%s: the shipped weights do not load", name)
		require.Positive(t, w.Scale, name)
		_, isTuned := eval.ShippedOrDocuments(v).(*eval.Tuned)
		require.True(t, isTuned, name)
	}
	grasshopper, err := variants.Lookup("grasshopper")
	require.NoError(t, err)
	_, isDocuments := eval.ShippedOrDocuments(grasshopper).(*eval.Documents)
	require.True(t, isDocuments, "a variant without weights is played by the documents' formula")
}
