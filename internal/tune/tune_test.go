package tune_test

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/testkit/randomgames"
	"github.com/chimera-chess/chimera/internal/tune"
	"github.com/chimera-chess/chimera/variants"
)

// TestFitRecoversKnownWeights: positions labelled with the win probability
// that known weights give them are fitted back to those weights, starting
// from the documents' formula: the material weights within a few
// centipawns, and the held-out loss close to zero.
func TestFitRecoversKnownWeights(t *testing.T) {
	v := variants.Chess()
	l := eval.NewLayout(v)
	truth := setWeights(eval.NewWeights(l), map[string][2]int{
		"material P": {80, 120}, "material N": {320, 280}, "material B": {330, 300},
		"material R": {480, 560}, "material Q": {950, 900}, "mobility N": {6, 2}, "tempo": {20, 10},
	})
	const scale = 1.3
	e := eval.NewTuned(truth)
	games, iterations := 60, 1500
	if testing.Short() {
		// A third of the steps over two thirds of the games still lands
		// within a few centipawns of the truth (under 10 cp here against
		// the 25 allowed); each step is a pass over every sample.
		games, iterations = 40, 500
	}
	samples := knownSamples(v, e, scale, games)
	w, rep, err := tune.Run(context.Background(), tune.Config{Variant: v, Samples: samples, Iterations: iterations, Rate: 2, Seed: 1})
	require.NoError(t, err)
	require.Less(t, rep.Losses.HeldAfter, rep.Losses.HeldBefore/20, "%+v", rep.Losses)
	// K and the weights' scale trade off (K is fitted first, to the
	// starting weights, so that the weights stay centipawns), and a
	// piece's material and its piece-square terms overlap (a piece counts
	// in one rank and one file bucket): what comes back is the truth's
	// evaluation times scale/K, position by position.
	k := scale / rep.Losses.Scale
	fitted := eval.NewTuned(w)
	worst := 0.0
	for _, p := range randomgames.Positions(v, 20, 120, 99) {
		_, got := fitted.Trace(p)
		_, wnt := e.Trace(p)
		worst = max(worst, math.Abs(float64(got)/k-float64(wnt)))
	}
	t.Logf("losses %+v, worst difference %.1f cp", rep.Losses, worst)
	require.Less(t, worst, 25.0, "the fitted evaluation is the truth's")
}

// knownSamples labels the positions of random games by the win
// probability e gives them at scale: what a perfect fit recovers.
func knownSamples(v *engine.Variant, e *eval.Tuned, scale float64, games int) []tune.Sample {
	var samples []tune.Sample
	for i, p := range randomgames.Positions(v, games, 120, 2) {
		s := tune.SampleOf(e, p, 0)
		s.Game = uint32(i)
		_, white := e.Trace(p)
		s.Result = float32(1 / (1 + math.Exp(-scale*float64(white)/400)))
		samples = append(samples, s)
	}
	return samples
}

// mechanismIterations is the iterations of the fits that test which
// weights move (Fit, Omit), not how close they come: a quarter of them
// under -short, where the fits were most of those tests' time, and a
// weight that moves has moved after the first few.
func mechanismIterations(n int) int {
	if testing.Short() {
		return n / 4
	}
	return n
}

// fewerUnderShort is a number of games or positions for samples, halved
// under -short where the test's claim does not rest on how many there
// are: which features a fit moves, that search labels teach better than
// results (under 25 cp of the 40 allowed with half the games, the
// results 200 cp off), that the games are the same whatever the workers.
// The fit over the samples, each iteration, or the games themselves are
// most of these tests' time.
func fewerUnderShort(games int) int {
	if testing.Short() {
		return games / 2
	}
	return games
}

// TestFitMovesOnlyFreeFeatures: with Fit naming prefixes, the weights of
// every other feature come back as they started, and the named ones
// move; a prefix no feature has is refused.
func TestFitMovesOnlyFreeFeatures(t *testing.T) {
	v := variants.Chess()
	l := eval.NewLayout(v)
	truth := setWeights(eval.DocumentsWeights(l), map[string][2]int{"mobility N": {25, 5}, "tempo": {30, 10}})
	samples := knownSamples(v, eval.NewTuned(truth), 1.3, fewerUnderShort(60))
	start := eval.DocumentsWeights(l)
	w, _, err := tune.Run(context.Background(), tune.Config{Variant: v, Samples: samples, Start: start,
		Iterations: mechanismIterations(200), Rate: 2, Seed: 1, Fit: []string{"mobility", "tempo"}})
	require.NoError(t, err)
	moved := 0
	for i, name := range l.Names() {
		mg, eg := w.Get(i)
		mg0, eg0 := start.Get(i)
		if strings.HasPrefix(name, "mobility") || name == "tempo" {
			if mg != mg0 || eg != eg0 {
				moved++
			}
			continue
		}
		require.Equal(t, [2]int{mg0, eg0}, [2]int{mg, eg}, "%s is not fitted", name)
	}
	require.Positive(t, moved, "the free features move toward the truth")
	_, _, err = tune.Run(context.Background(), tune.Config{Variant: v, Samples: samples, Iterations: 1, Fit: []string{"nonsense"}})
	require.ErrorContains(t, err, `the features to fit: "nonsense": no feature's name begins so`)
}

// TestOmitLeavesFeaturesOut: the omitted features come back zero though
// the start weighs them, the others move, Fit and Omit together move
// what the first names less what the second does; a prefix no feature
// has, an empty one (every name begins with it) and flags that leave
// nothing to fit are refused.
func TestOmitLeavesFeaturesOut(t *testing.T) {
	v := variants.Chess()
	l := eval.NewLayout(v)
	truth := setWeights(eval.DocumentsWeights(l), map[string][2]int{"mobility N": {25, 5}, "check Q": {40, 20}})
	samples := knownSamples(v, eval.NewTuned(truth), 1.3, fewerUnderShort(60))
	start := setWeights(eval.DocumentsWeights(l), map[string][2]int{"check Q": {40, 20}, "threat R": {30, 30}})
	run := func(fit, omit []string) *eval.Weights {
		w, _, err := tune.Run(context.Background(), tune.Config{Variant: v, Samples: samples, Start: start,
			Iterations: mechanismIterations(100), Rate: 2, Seed: 1, Fit: fit, Omit: omit})
		require.NoError(t, err)
		return w
	}
	get := func(w *eval.Weights, name string) [2]int {
		i := slices.Index(l.Names(), name)
		require.GreaterOrEqual(t, i, 0, name)
		mg, eg := w.Get(i)
		return [2]int{mg, eg}
	}
	w := run(nil, []string{"check", "threat"})
	for i, name := range l.Names() {
		if strings.HasPrefix(name, "check") || strings.HasPrefix(name, "threat") {
			mg, eg := w.Get(i)
			require.Equal(t, [2]int{0, 0}, [2]int{mg, eg}, "%s is left out", name)
		}
	}
	require.NotEqual(t, get(start, "mobility N"), get(w, "mobility N"), "the others are fitted")
	require.Equal(t, [2]int{40, 20}, get(start, "check Q"), "the start is not changed")

	w = run([]string{"mobility", "check"}, []string{"check"})
	require.Equal(t, [2]int{0, 0}, get(w, "check Q"))
	require.Equal(t, get(start, "material Q"), get(w, "material Q"), "not named by Fit")
	require.NotEqual(t, get(start, "mobility N"), get(w, "mobility N"))

	for _, c := range []struct {
		fit, omit []string
		want      string
	}{
		{nil, []string{"nonsense"}, `the features to omit: "nonsense": no feature's name begins so`},
		{nil, []string{"check", ""}, "the features to omit: an empty prefix"},
		{[]string{"threat", " "}, nil, "the features to fit: an empty prefix"},
		{[]string{"check"}, []string{"check"}, "leave no feature to fit"},
	} {
		_, _, err := tune.Run(context.Background(), tune.Config{Variant: v, Samples: samples, Iterations: 1, Fit: c.fit, Omit: c.omit})
		require.ErrorContains(t, err, c.want, c.fit, c.omit)
	}
}

// TestValidate: a configuration that cannot run is refused with its
// fields named by what they hold (a command names them by its flags),
// before any position is read.
func TestValidate(t *testing.T) {
	v := variants.Chess()
	samples := []tune.Sample{{Result: 1}}
	for _, c := range []struct {
		cfg  tune.Config
		want string
	}{
		{tune.Config{}, "the variant: none given"},
		{tune.Config{Variant: v, LabelNodes: 10, SearchShare: 1.5}, "the search labels' share: 1.5: want a share from 0 to 1"},
		{tune.Config{Variant: v, SearchShare: 0.5}, "the search labels' share: weighs the search labels: give the nodes searched for each position's label too"},
		{tune.Config{Variant: v, EPD: strings.NewReader(""), Samples: samples}, "the positions to read: the positions come from one place: give it without the positions given"},
		{tune.Config{Variant: v, EPD: strings.NewReader(""), Save: func([]tune.Sample) error { return nil }}, "the positions to save: keeps the games' positions: give it without the positions to read"},
		{tune.Config{Variant: v, Fit: []string{"bogus"}}, `the features to fit: "bogus": no feature's name begins so`},
	} {
		err := c.cfg.Validate()
		require.EqualError(t, err, c.want)
		var bad *tune.ConfigError
		require.ErrorAs(t, err, &bad)
		_, _, err = tune.Run(context.Background(), c.cfg)
		require.EqualError(t, err, c.want, "Run refuses it too")
	}
	// Given search labels are weighed without searching.
	require.NoError(t, tune.Config{Variant: v, Samples: samples, SearchShare: 0.5}.Validate())
	// A command names the fields its own way.
	err := tune.Config{Variant: v, SearchShare: 0.5}.Validate()
	var bad *tune.ConfigError
	require.ErrorAs(t, err, &bad)
	require.Equal(t, "[SearchShare]: weighs the search labels: give [LabelNodes] too",
		bad.Explain(func(field string) string { return "[" + field + "]" }))
	// The positions read are refused by line, as the positions to read.
	_, _, err = tune.Run(context.Background(), tune.Config{Variant: v, EPD: strings.NewReader("nonsense\n"), Iterations: 1})
	require.ErrorContains(t, err, "the positions to read: line 1: ")
}

// setWeights sets the named features' middlegame and endgame weights.
func setWeights(w *eval.Weights, set map[string][2]int) *eval.Weights {
	for i, name := range w.Layout().Names() {
		if v, ok := set[name]; ok {
			w.Set(i, v[0], v[1])
		}
	}
	return w
}

// TestGamesAreDeterministic: the same seed gives the same samples,
// whatever the number of workers; every sample is quiet and labelled.
// Under -short each move searches 100 nodes, not 300: the searches were
// most of the test's time, and the games are as many and as long.
func TestGamesAreDeterministic(t *testing.T) {
	v := variants.Chess()
	e := eval.NewTuned(eval.DocumentsWeights(eval.NewLayout(v)))
	positions := fewerUnderShort(150) // several games still, each written out
	nodes := uint64(300)
	if testing.Short() {
		nodes = 100
	}
	play := func(workers int) []tune.Sample {
		g := &tune.Games{Variant: v, RandomPlies: 6, Skip: 2, MaxPlies: 80, Seed: 3, Positions: positions, Workers: workers}
		g.Player.Nodes, g.Player.HashMB = nodes, 1
		s, err := g.Play(context.Background(), e)
		require.NoError(t, err)
		return s
	}
	one, two := play(1), play(2)
	require.Len(t, one, positions)
	require.Equal(t, one, two)
	for _, s := range one {
		require.Contains(t, []float32{0, 0.5, 1}, s.Result)
	}

	// Written as EPD and read back, the samples are the same: position,
	// features, result and game (several positions of one game each).
	var epd strings.Builder
	require.NoError(t, tune.WriteEPD(&epd, v, one))
	back, err := tune.ReadEPD(strings.NewReader(epd.String()), v, e, 0)
	require.NoError(t, err)
	require.Equal(t, one, back)
	require.Less(t, int(one[len(one)-1].Game), len(one), "games hold several positions")
}

// TestReadEPD: labelled positions in the usual forms; a line without a
// label or with a bad FEN is an error naming the line.
func TestReadEPD(t *testing.T) {
	v := variants.Chess()
	e := eval.NewTuned(eval.DocumentsWeights(eval.NewLayout(v)))
	text := strings.Join([]string{
		"# a comment",
		`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 c9 "1-0";`,
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 [0.5]",
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1; 0-1",
		"",
	}, "\n")
	s, err := tune.ReadEPD(strings.NewReader(text), v, e, 0)
	require.NoError(t, err)
	require.Len(t, s, 3)
	require.Equal(t, []float32{1, 0.5, 0}, []float32{s[0].Result, s[1].Result, s[2].Result})
	_, err = tune.ReadEPD(strings.NewReader("4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n"), v, e, 0)
	require.ErrorContains(t, err, "line 1: no result")
	_, err = tune.ReadEPD(strings.NewReader("# x\n4k3/8/8/8/8/8/8/3QK9 w - - 0 1 1-0\n"), v, e, 0)
	require.ErrorContains(t, err, "line 2:")
	// A game's number keeps its positions together; a bad one is no number.
	s, err = tune.ReadEPD(strings.NewReader("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 c9 \"1-0\"; c0 \"game 42\";\n"+
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1 c9 \"1-0\"; c0 \"game x\";\n"), v, e, 0)
	require.NoError(t, err)
	require.Equal(t, []uint32{42, 2}, []uint32{s[0].Game, s[1].Game})
	_, err = tune.ReadEPD(strings.NewReader("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 1-0\n"+strings.Repeat("x", 2<<20)), v, e, 0)
	require.ErrorContains(t, err, "line 2: ")
	// A file without a position is an error, not a run of nothing.
	for _, empty := range []string{"", "\n\n  \n", "# variant chess\n# a comment\n"} {
		_, err = tune.ReadEPD(strings.NewReader(empty), v, e, 0)
		require.ErrorContains(t, err, "no positions in its", "%q", empty)
	}
	// A file of another variant is refused.
	_, err = tune.ReadEPD(strings.NewReader("# variant atomic\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1 1-0\n"), v, e, 0)
	require.ErrorContains(t, err, `line 1: positions of "atomic", not of chess`)
	// Only a game's result is written.
	require.ErrorContains(t, tune.WriteEPD(io.Discard, v, []tune.Sample{{FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Result: 0.7}}), "no game's result")
}

// TestLabelScoresForWhite: a search labels each position with White's
// score, whoever is to move; a mate is the clamp; a sample without a
// position keeps no label; the labels do not depend on the workers.
func TestLabelScoresForWhite(t *testing.T) {
	v := variants.Chess()
	fens := []string{
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1",    // White a queen up, to move
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1",    // the same, Black to move
		"3qk3/8/8/8/8/8/8/4K3 w - - 0 1",    // Black a queen up
		"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", // White mates in one
		"",
	}
	label := func(workers int) []tune.Sample {
		samples := make([]tune.Sample, len(fens))
		for i, fen := range fens {
			samples[i].FEN = fen
		}
		l := &tune.Labeller{Variant: v, Nodes: 3000, Workers: workers}
		require.NoError(t, l.Label(context.Background(), samples))
		return samples
	}
	s := label(1)
	require.Greater(t, s[0].Search, int16(500))
	require.Greater(t, s[1].Search, int16(500))
	require.Less(t, s[2].Search, int16(-500))
	require.Equal(t, int16(3000), s[3].Search)
	require.True(t, s[3].Searched)
	require.False(t, s[4].Searched)
	require.Equal(t, s, label(2))

	bad := []tune.Sample{{FEN: "4k3/8/8/8/8/8/8/3QK9 w - - 0 1"}}
	err := (&tune.Labeller{Variant: v, Nodes: 100}).Label(context.Background(), bad)
	require.ErrorContains(t, err, "labelling position 1")
}

// TestResolveTakesThePendingCapture: resolving replaces a position with
// a capture to make by the end of its quiescence line, its features
// traced there (a queen fewer for Black), its game and result kept; a
// quiet position stays as it was; a search label then scores the
// resolved position.
func TestResolveTakesThePendingCapture(t *testing.T) {
	v := variants.Chess()
	e := eval.NewTuned(eval.DocumentsWeights(eval.NewLayout(v)))
	sample := func(fen string) tune.Sample {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		s := tune.SampleOf(e, p, 0.5)
		s.Game, s.FEN = 7, fen
		return s
	}
	const hanging = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1" // Rxd5 wins the queen
	const quiet = "4k3/8/8/3q4/8/8/8/4K2R w - - 0 1"
	const mating = "r5k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" // Rxa8 mates: no position to judge
	samples := []tune.Sample{sample(hanging), sample(quiet), sample(mating)}
	l := &tune.Labeller{Variant: v, Resolve: e, Workers: 2}
	require.NoError(t, l.Label(context.Background(), samples))

	resolved := samples[0]
	require.Equal(t, "4k3/8/8/3R4/8/8/8/4K3 b - - 0 1", resolved.FEN)
	require.Equal(t, sample("4k3/8/8/3R4/8/8/8/4K3 b - - 0 1"), resolved, "features traced at the line's end")
	require.Equal(t, uint32(7), resolved.Game)
	require.Equal(t, float32(0.5), resolved.Result)
	require.False(t, resolved.Searched, "no search label without Nodes")
	require.Equal(t, sample(quiet), samples[1], "a quiet position is kept")
	require.Equal(t, sample(mating), samples[2], "a line that ends the game is not played")

	// With Nodes too, the label is the resolved position's: White a rook up.
	samples = []tune.Sample{sample(hanging)}
	l.Nodes = 2000
	require.NoError(t, l.Label(context.Background(), samples))
	require.True(t, samples[0].Searched)
	require.Greater(t, samples[0].Search, int16(300))
}

// TestSearchLabelsTeach: positions whose game results are coin flips
// weighted by known weights' win probability, and whose search labels
// are those weights' evaluation: with the search labels alone the fit
// finds the weights, closer than the results alone let it.
func TestSearchLabelsTeach(t *testing.T) {
	v := variants.Chess()
	truth := setWeights(eval.DocumentsWeights(eval.NewLayout(v)), map[string][2]int{"material N": {380, 260}, "mobility B": {4, 14}, "tempo": {25, 5}})
	e := eval.NewTuned(truth)
	rng := rand.New(rand.NewPCG(5, 5))
	var samples []tune.Sample
	for i, p := range randomgames.Positions(v, fewerUnderShort(60), 120, 4) {
		_, white := e.Trace(p)
		s := tune.SampleOf(e, p, 0)
		if rng.Float64() < 1/(1+math.Exp(-float64(white)/400)) {
			s.Result = 1
		}
		s.Game, s.Search, s.Searched = uint32(i), int16(max(-3000, min(3000, white))), true
		samples = append(samples, s)
	}
	iterations := 600
	if testing.Short() {
		// Fewer steps keep the same order: the search labels' fit is
		// still within the bound (23 cp of 40 with half the games), the results' far outside it.
		iterations = 200
	}
	worst := func(share float64) float64 {
		w, _, err := tune.Run(context.Background(), tune.Config{Variant: v, Samples: samples, Iterations: iterations, Rate: 2, Seed: 1,
			SearchShare: share})
		require.NoError(t, err)
		fitted, worst := eval.NewTuned(w), 0.0
		for _, p := range randomgames.Positions(v, 20, 120, 98) {
			_, got := fitted.Trace(p)
			_, want := e.Trace(p)
			if abs := math.Abs(float64(got - want)); abs < 2000 {
				worst = max(worst, abs)
			}
		}
		return worst
	}
	searched, results := worst(1), worst(0)
	t.Logf("worst difference from the truth: search labels %.0f cp, results %.0f cp", searched, results)
	require.Less(t, searched, 40.0)
	require.Less(t, searched, results)
}
