package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/dataset"
	"github.com/chimera-chess/chimera/internal/testkit/randomgames"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/variants"
)

// TestQuantisedMatchesFloat: the quantised network nnue evaluates gives,
// on positions of random games (drop games among them), CReLU and SCReLU,
// each position's output bucket, the float network's score to within the rounding's centipawns, from the inputs the
// training data's positions give (factor inputs among them): the layout
// is the same both ways, and folding the factors changes nothing.
func TestQuantisedMatchesFloat(t *testing.T) {
	for i, name := range []string{"chess", "crazyhouse", "shogi", "capablanca"} {
		v, err := variants.Builtin().Lookup(name)
		require.NoError(t, err)
		l := nnue.NewLayout(v)
		rng := rand.New(rand.NewPCG(9, uint64(len(name))))
		n := NewNet(InputsOf(v), Shape{Hidden: 32, Buckets: 4, Squared: i%2 == 1}, rng)
		for b := range n.Buckets { // the buckets differ
			for j := range 2 * n.Hidden {
				n.W2[b*2*n.Hidden+j] *= 1 + float32(b)/4
			}
		}
		for i := range n.W1 {
			n.W1[i] = min(max(n.W1[i], -maxWeight/2), maxWeight/2)
		}
		const k = 400.0
		q := Quantise(n, v, k, "test")
		require.NoError(t, q.Check(v))
		worst := 0.0
		for _, p := range randomgames.Positions(v, 2, 60, 3) {
			g := dataset.Game{Positions: []dataset.Position{dataset.PositionOf(p, 0)}}
			s := Samples(v, AppendGame(nil, l, &g), n.Buckets, 1, k)[0]
			want := float64(n.Output(&s)) * k
			got := float64(q.Evaluate(l, p))
			worst = max(worst, math.Abs(want-got))
		}
		t.Logf("%s: worst difference %.1f cp", name, worst)
		require.Less(t, worst, 30.0, name) // rounding to QB=64ths of the output weights: about ten centipawns at worst; a wrong input would be hundreds
	}
}

// TestFitScale finds the scale that made the results.
func TestFitScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var data []Labelled
	for range 20000 {
		score := rng.NormFloat64() * 300
		result := float32(0)
		if rng.Float64() < 1/(1+math.Exp(-score/250)) {
			result = 1
		}
		data = append(data, Labelled{Score: float32(score), Result: result})
	}
	require.InDelta(t, 250, FitScale(data), 25)
}
