package train

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// syntheticSamples draws n positions of sparse random inputs (a few active
// of inputs per view) labelled by the teacher network's expected score.
func syntheticSamples(teacher *Net, n, active int, rng *rand.Rand) []Sample {
	out := make([]Sample, n)
	for i := range out {
		s := &out[i]
		for range active {
			s.Own = append(s.Own, int32(rng.IntN(teacher.Inputs)))
			s.Other = append(s.Other, int32(rng.IntN(teacher.Inputs)))
		}
		s.Target = sigmoid(teacher.Output(s))
	}
	return out
}

// TestTrainRecoversAKnownNetwork: labels made by a known small network are
// learnt by a student network of the same shape, its held-out error far
// below where it started, the same with one worker as with three (the
// batch's gradient does not depend on how it is split, but for rounding).
func TestTrainRecoversAKnownNetwork(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	teacher := NewNet(64, Shape{Hidden: 8}, rng)
	for i := range teacher.W2 {
		teacher.W2[i] *= 6 // outputs spread over the sigmoid's range
	}
	samples := syntheticSamples(teacher, 4000, 6, rng)
	held := syntheticSamples(teacher, 1000, 6, rng)
	epochs := 30
	if testing.Short() {
		epochs = 12
	}
	cfg := Config{Shape: Shape{Hidden: 8, Buckets: 1}, Epochs: epochs, BatchSize: 64, Rate: 0.01, Seed: 3, Workers: 3}
	_, l, err := Run(context.Background(), cfg, 64, samples, held)
	require.NoError(t, err)
	t.Logf("held-out loss %.5f -> %.5f (train %.5f -> %.5f)", l.HeldBefore, l.HeldAfter, l.TrainBefore, l.TrainAfter)
	require.Less(t, l.HeldAfter, l.HeldBefore/5, "the student did not learn the teacher's labels")

	cfg.Workers = 1
	_, one, err := Run(context.Background(), cfg, 64, samples, held)
	require.NoError(t, err)
	require.InDelta(t, l.HeldAfter, one.HeldAfter, 1e-3, "one worker learns what three do")
}

// TestRunReturnsTheBestEpoch: a student given few samples learns them by
// heart; the network returned is the epoch that did best on the held-out
// samples, and its losses are those reported.
func TestRunReturnsTheBestEpoch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	teacher := NewNet(64, Shape{Hidden: 8}, rng)
	for i := range teacher.W2 {
		teacher.W2[i] *= 6
	}
	samples := syntheticSamples(teacher, 100, 6, rng)
	held := syntheticSamples(teacher, 500, 6, rng)
	var heldByEpoch []float64
	cfg := Config{Shape: Shape{Hidden: 32, Buckets: 1}, Epochs: 60, BatchSize: 10, Rate: 0.03, Seed: 3, Workers: 2,
		Progress: func(_ int, _, held float64) { heldByEpoch = append(heldByEpoch, held) }}
	net, l, err := Run(context.Background(), cfg, 64, samples, held)
	require.NoError(t, err)
	bestEpoch := 1 + slices.Index(heldByEpoch, slices.Min(heldByEpoch))
	require.Less(t, bestEpoch, cfg.Epochs, "the student never overfitted: the test shows nothing")
	require.Equal(t, bestEpoch, l.Epoch)
	require.Equal(t, heldByEpoch[bestEpoch-1], l.HeldAfter)
	tr := newTrainer(net, 1, cfg.Rate)
	require.InDelta(t, l.HeldAfter, tr.loss(held), 1e-12, "the network returned is not the best epoch's")

	cfg.Progress = nil
	_, none, err := Run(context.Background(), cfg, 64, samples, nil)
	require.NoError(t, err)
	require.Equal(t, cfg.Epochs, none.Epoch, "nothing held out: the last epoch")
}

// TestGradientMatchesDifferences checks the backward pass against the
// loss's finite differences on a few weights of each layer, CReLU and
// SCReLU, the other buckets' weights untouched.
func TestGradientMatchesDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, squared := range []bool{false, true} {
		checkGradient(t, NewNet(16, Shape{Hidden: 4, Buckets: 3, Squared: squared}, rng))
	}
}

// checkGradient compares n's backward pass with finite differences, on a
// sample of its second output bucket.
func checkGradient(t *testing.T, n *Net) {
	s := Sample{Own: []int32{1, 5, 9}, Other: []int32{2, 5, 14}, Bucket: 1, Target: 0.7}
	a := newActivations(n.Hidden)
	g := newGradients(n)
	n.forward(&s, a)
	n.backward(&s, a, g)
	loss := func() float64 {
		d := float64(sigmoid(n.Output(&s)) - s.Target)
		return d * d
	}
	const h = 1e-3
	check := func(name string, p *float32, analytic float32) {
		keep := *p
		*p = keep + h
		up := loss()
		*p = keep - h
		down := loss()
		*p = keep
		require.InDelta(t, (up-down)/(2*h), float64(analytic), 1e-3, name)
	}
	for _, i := range []int{1*4 + 0, 5*4 + 2, 14*4 + 3} {
		check("W1", &n.W1[i], g.w1[i])
	}
	for j := range n.B1 {
		check("B1", &n.B1[j], g.b1[j])
	}
	for j := range n.W2 {
		check("W2", &n.W2[j], g.w2[j])
	}
	for b := range n.B2 {
		check("B2", &n.B2[b], g.b2[b])
	}
}

// TestRateFallsAlongACosine: the step size starts at Rate, is halfway at
// half the steps, ends at FinalRate, and never rises; without a final
// rate it is constant.
func TestRateFallsAlongACosine(t *testing.T) {
	c := Config{Rate: 0.001, FinalRate: 0.0001}
	require.InDelta(t, 0.001, c.rateAt(0), 1e-12)
	require.InDelta(t, 0.00055, c.rateAt(0.5), 1e-12)
	require.InDelta(t, 0.0001, c.rateAt(1), 1e-12)
	for p := 0.0; p < 1; p += 0.01 {
		require.GreaterOrEqual(t, c.rateAt(p), c.rateAt(p+0.01))
	}
	c.FinalRate = 0
	require.Equal(t, 0.001, c.rateAt(0.7))
}
