package wdl

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestFitRecoversAKnownModel draws games' results from a known model and
// checks that the fit finds it again: the chances it predicts agree
// within a few per cent over the scores and materials that matter.
func TestFitRecoversAKnownModel(t *testing.T) {
	truth := Model{A: [3]float64{220, -80, 0}, B: [3]float64{130, -40, 0}}
	rng := rand.New(rand.NewPCG(1, 2))
	samples := make([]Sample, 40000)
	for i := range samples {
		cp, m := rng.IntN(1200)-600, rng.Float64()
		w, d, _ := truth.Chances(cp, m)
		r := int8(-1)
		switch x := rng.Float64(); {
		case x < w:
			r = 1
		case x < w+d:
			r = 0
		}
		samples[i] = Sample{Score: cp, Material: m, Result: r}
	}
	got, err := Fit(samples, FitOptions{Steps: 1500})
	require.NoError(t, err)
	for _, m := range []float64{0.1, 0.5, 0.9} {
		for _, cp := range []int{-400, -150, 0, 100, 250, 500} {
			w0, d0, l0 := truth.Chances(cp, m)
			w1, d1, l1 := got.Chances(cp, m)
			require.InDelta(t, w0, w1, 0.04, "win at %d cp, material %.1f (model %v)", cp, m, got)
			require.InDelta(t, d0, d1, 0.04, "draw at %d cp, material %.1f", cp, m)
			require.InDelta(t, l0, l1, 0.04, "loss at %d cp, material %.1f", cp, m)
		}
	}
}

// TestFitWithoutDraws: games that are never drawn (janggi's) fit a plain
// logistic curve, and the score still says who wins. An unbounded fit
// once drove a far below zero, where win and loss both near one left any
// score an even game.
func TestFitWithoutDraws(t *testing.T) {
	truth := Model{A: [3]float64{0, 0, 0}, B: [3]float64{120, 0, 0}}
	rng := rand.New(rand.NewPCG(3, 4))
	samples := make([]Sample, 20000)
	for i := range samples {
		cp, m := rng.IntN(1200)-600, rng.Float64()
		w, _, _ := truth.Chances(cp, m)
		r := int8(-1)
		if rng.Float64() < w {
			r = 1
		}
		samples[i] = Sample{Score: cp, Material: m, Result: r}
	}
	got, err := Fit(samples, FitOptions{Steps: 1500})
	require.NoError(t, err)
	for _, m := range []float64{0.1, 0.5, 0.9} {
		for _, cp := range []int{-400, 0, 200} {
			w0, _, l0 := truth.Chances(cp, m)
			w1, d1, l1 := got.Chances(cp, m)
			require.InDelta(t, w0, w1, 0.04, "win at %d cp, material %.1f (model %v)", cp, m, got)
			require.InDelta(t, 0, d1, 0.02, "draw at %d cp, material %.1f", cp, m)
			require.InDelta(t, l0, l1, 0.04, "loss at %d cp, material %.1f", cp, m)
		}
	}
}

// TestPerMilleSumsToAThousand: UCI's three numbers always add up.
func TestPerMilleSumsToAThousand(t *testing.T) {
	md := Model{A: [3]float64{150, 10, -5}, B: [3]float64{90, 0, 3}}
	for cp := -5000; cp <= 5000; cp += 37 {
		for _, m := range []float64{0, 0.3, 1, 1.4} {
			w, d, l := md.PerMille(cp, m)
			require.Equal(t, 1000, w+d+l)
			require.True(t, w >= 0 && d >= 0 && l >= 0, "%d %d %d", w, d, l)
		}
	}
	// Symmetry: a score for one side is the same score against the other.
	w, _, l := md.PerMille(200, 0.5)
	w2, _, l2 := md.PerMille(-200, 0.5)
	require.Equal(t, w, l2)
	require.Equal(t, l, w2)
	// A model with a < 0 leaves no room for draws, and still sums up.
	neg := Model{A: [3]float64{-50}, B: [3]float64{80}}
	w, d, l := neg.PerMille(0, 0.5)
	require.Equal(t, 0, d)
	require.Equal(t, 1000, w+l)
}

// TestParseRoundTrip reads back what String writes and refuses damage.
func TestParseRoundTrip(t *testing.T) {
	md := Model{A: [3]float64{151.25, -12.5, 3}, B: [3]float64{88.5, 1, -0.25}}
	got, err := Parse("# made by a test\n" + md.String())
	require.NoError(t, err)
	require.Equal(t, md, got)
	for _, bad := range []string{"", "a 1 2 3\n", "a 1 2\nb 1 2 3", "a 1 x 3\nb 1 2 3", "c 1 2 3\nb 1 2 3", "a NaN 0 0\nb 1 0 0"} {
		_, err := Parse(bad)
		require.Error(t, err, "%q", bad)
	}
}

// FuzzParse: no text crashes the parser, and what it accepts it writes
// back to the same model.
func FuzzParse(f *testing.F) {
	f.Add("a 1 2 3\nb 4 5 6\n")
	f.Add("# x\na -1e3 0 0\nb 1 0 0")
	f.Fuzz(func(t *testing.T, text string) {
		md, err := Parse(text)
		if err != nil {
			return
		}
		again, err := Parse(md.String())
		require.NoError(t, err)
		require.InDeltaSlice(t, md.A[:], again.A[:], 1e-3*(1+abs(md.A[0])+abs(md.A[1])+abs(md.A[2])))
	})
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestShippedModels: every shipped model reads, is used for its own
// variant, and gives chances that lean the score's way at the start.
func TestShippedModels(t *testing.T) {
	names := ShippedVariants()
	require.Contains(t, names, fallbackVariant)
	for _, name := range names {
		v, err := variants.Lookup(name)
		require.NoError(t, err, name)
		md, own := Shipped(v)
		require.True(t, own, name)
		w, _, l := md.PerMille(300, 1)
		require.Greater(t, w, l, "%s: +300 at the start", name)
	}
	v, err := variants.Lookup("minishogi")
	require.NoError(t, err)
	_, own := Shipped(v)
	require.False(t, own, "minishogi has no model: chess's serves")
}
