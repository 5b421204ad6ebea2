package train

import (
	"context"
	"math/rand/v2"
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
	teacher := NewNet(64, 8, rng)
	for i := range teacher.W2 {
		teacher.W2[i] *= 6 // outputs spread over the sigmoid's range
	}
	samples := syntheticSamples(teacher, 4000, 6, rng)
	held := syntheticSamples(teacher, 1000, 6, rng)
	epochs := 30
	if testing.Short() {
		epochs = 12
	}
	cfg := Config{Hidden: 8, Epochs: epochs, BatchSize: 64, Rate: 0.01, Seed: 3, Workers: 3}
	_, l, err := Run(context.Background(), cfg, 64, samples, held)
	require.NoError(t, err)
	t.Logf("held-out loss %.5f -> %.5f (train %.5f -> %.5f)", l.HeldBefore, l.HeldAfter, l.TrainBefore, l.TrainAfter)
	require.Less(t, l.HeldAfter, l.HeldBefore/5, "the student did not learn the teacher's labels")

	cfg.Workers = 1
	_, one, err := Run(context.Background(), cfg, 64, samples, held)
	require.NoError(t, err)
	require.InDelta(t, l.HeldAfter, one.HeldAfter, 1e-3, "one worker learns what three do")
}

// TestGradientMatchesDifferences checks the backward pass against the
// loss's finite differences on a few weights of each layer.
func TestGradientMatchesDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	n := NewNet(16, 4, rng)
	s := Sample{Own: []int32{1, 5, 9}, Other: []int32{2, 5, 14}, Target: 0.7}
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
	check("B2", &n.B2, g.b2)
}
