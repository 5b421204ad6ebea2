package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/chimera-chess/chimera/nnue"
)

// Config is a training run.
type Config struct {
	// Hidden units per view (64–512 make sense), output buckets
	// (1: one output), and whether the units are squared (SCReLU).
	Shape
	// Epochs over the training samples; BatchSize samples a step.
	Epochs, BatchSize int
	// Rate is Adam's step size at the start; it falls along a half
	// cosine to FinalRate at the last step (FinalRate 0 or equal to Rate:
	// constant). Small late steps let the weights settle where large
	// ones keep them circling the minimum.
	Rate, FinalRate float64
	// Seed makes the start weights and the order of the samples.
	Seed uint64
	// Workers compute a batch's gradient at once (default: every CPU).
	Workers int
	// Progress, when set, is told after each epoch its losses (mean
	// squared error of the expected score) on the training and held-out
	// samples.
	Progress func(epoch int, train, held float64)
}

// Validate reports what makes the configuration unusable.
func (c *Config) Validate() error {
	switch {
	case c.Hidden < 1:
		return errors.New("no hidden units")
	case c.Buckets < 1 || c.Buckets > nnue.MaxBuckets:
		return fmt.Errorf("the output buckets must number 1 to %d", nnue.MaxBuckets)
	case c.Epochs < 1:
		return errors.New("no epochs")
	case c.BatchSize < 1:
		return errors.New("an empty batch")
	case !(c.Rate > 0):
		return errors.New("the rate must be positive")
	case !(c.FinalRate >= 0 && c.FinalRate <= c.Rate):
		return errors.New("the final rate must be within [0, rate]")
	}
	return nil
}

// Losses are a run's mean squared errors before and after training, the
// latter those of the network returned, from epoch Epoch (0: none
// finished).
type Losses struct {
	TrainBefore, TrainAfter, HeldBefore, HeldAfter float64
	Epoch                                          int
}

// Run trains a network of inputs inputs on the training samples, measuring
// it on the held-out ones after every epoch, and returns the network of
// the epoch that did best on them (the last, without held-out samples):
// once the network starts to learn its samples by heart, later epochs
// only do worse on positions it has not seen. A cancelled ctx stops it
// after the current batch, returning the best network so far.
func Run(ctx context.Context, cfg Config, inputs int, samples, held []Sample) (*Net, Losses, error) {
	if err := cfg.Validate(); err != nil {
		return nil, Losses{}, err
	}
	if len(samples) == 0 {
		return nil, Losses{}, errors.New("no training samples")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	net := NewNet(inputs, cfg.Shape, rng)
	t := newTrainer(net, workers, cfg.Rate)
	var l Losses
	l.TrainBefore, l.HeldBefore = t.loss(samples), t.loss(held)
	l.TrainAfter, l.HeldAfter = l.TrainBefore, l.HeldBefore
	best := net.clone()
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	stepsPerEpoch := (len(order) + cfg.BatchSize - 1) / cfg.BatchSize
	steps := cfg.Epochs * stepsPerEpoch
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for lo := 0; lo < len(order); lo += cfg.BatchSize {
			if ctx.Err() != nil {
				return best, l, ctx.Err()
			}
			t.rate = cfg.rateAt(float64((epoch-1)*stepsPerEpoch+lo/cfg.BatchSize) / float64(steps))
			t.step(samples, order[lo:min(lo+cfg.BatchSize, len(order))])
		}
		trainLoss, heldLoss := t.loss(samples), t.loss(held)
		if len(held) == 0 || heldLoss < l.HeldAfter {
			best.copyFrom(net)
			l.TrainAfter, l.HeldAfter, l.Epoch = trainLoss, heldLoss, epoch
		}
		if cfg.Progress != nil {
			cfg.Progress(epoch, trainLoss, heldLoss)
		}
	}
	return best, l, nil
}

// rateAt returns the step size at progress (0 at the first step, 1 after
// the last): Rate falling along a half cosine to FinalRate.
func (c *Config) rateAt(progress float64) float64 {
	if c.FinalRate == 0 || c.FinalRate == c.Rate {
		return c.Rate
	}
	return c.FinalRate + (c.Rate-c.FinalRate)*(1+math.Cos(math.Pi*progress))/2
}

// trainer steps a network by Adam on batches, each batch's gradient
// summed over its workers' shares.
type trainer struct {
	net     *Net
	workers []*gradients
	acts    []*activations
	sum     *gradients
	adam    [4]adam // W1, B1, W2, B2
	rate    float64
}

func newTrainer(n *Net, workers int, rate float64) *trainer {
	t := &trainer{net: n, sum: newGradients(n), rate: rate}
	for range workers {
		t.workers = append(t.workers, newGradients(n))
		t.acts = append(t.acts, newActivations(n.Hidden))
	}
	t.adam = [4]adam{newAdam(len(n.W1)), newAdam(len(n.B1)), newAdam(len(n.W2)), newAdam(len(n.B2))}
	return t
}

// step takes one Adam step on the batch (indices into samples).
func (t *trainer) step(samples []Sample, batch []int) {
	t.gradient(samples, batch)
	scale := float32(1 / float64(len(batch)))
	n := t.net
	t.adam[0].update(n.W1, t.sum.w1, scale, t.rate)
	t.adam[1].update(n.B1, t.sum.b1, scale, t.rate)
	t.adam[2].update(n.W2, t.sum.w2, scale, t.rate)
	t.adam[3].update(n.B2, t.sum.b2, scale, t.rate)
	// An input's weight and its factor's are added when quantised: each
	// is kept within half the bound.
	for i, w := range n.W1 {
		n.W1[i] = min(max(w, -maxWeight/2), maxWeight/2)
	}
	for _, ws := range [][]float32{n.B1, n.W2} {
		for i, w := range ws {
			ws[i] = min(max(w, -maxWeight), maxWeight)
		}
	}
}

// gradient sums the batch's gradient into t.sum.
func (t *trainer) gradient(samples []Sample, batch []int) {
	var wg sync.WaitGroup
	share := (len(batch) + len(t.workers) - 1) / len(t.workers)
	for w, g := range t.workers {
		lo, hi := min(w*share, len(batch)), min((w+1)*share, len(batch))
		g.reset()
		wg.Go(func() {
			for _, i := range batch[lo:hi] {
				t.net.forward(&samples[i], t.acts[w])
				t.net.backward(&samples[i], t.acts[w], g)
			}
		})
	}
	wg.Wait()
	t.sum.reset()
	for _, g := range t.workers {
		t.sum.add(g)
	}
}

// loss returns the mean squared error of the expected score over samples.
func (t *trainer) loss(samples []Sample) float64 {
	if len(samples) == 0 {
		return 0
	}
	var mu sync.Mutex
	total := 0.0
	var wg sync.WaitGroup
	share := (len(samples) + len(t.workers) - 1) / len(t.workers)
	for w := range t.workers {
		lo, hi := min(w*share, len(samples)), min((w+1)*share, len(samples))
		wg.Go(func() {
			sum := 0.0
			for i := lo; i < hi; i++ {
				d := float64(sigmoid(t.net.forward(&samples[i], t.acts[w])) - samples[i].Target)
				sum += d * d
			}
			mu.Lock()
			total += sum
			mu.Unlock()
		})
	}
	wg.Wait()
	return total / float64(len(samples))
}

// maxWeight bounds every weight and bias of the hidden layer and the
// output's weights, so that quantised they fit int16 with room: a unit's
// sum of about thirty inputs stays far inside it (1.98·QA·30 ≈ 15,000).
const maxWeight = 1.98

// adam is Adam's state for one parameter array.
type adam struct {
	m, v []float32
	t    int
}

func newAdam(n int) adam { return adam{m: make([]float32, n), v: make([]float32, n)} }

// Adam's usual constants.
const (
	beta1, beta2 = 0.9, 0.999
	epsilon      = 1e-8
)

// update moves params against the gradient grad×scale.
func (a *adam) update(params, grad []float32, scale float32, rate float64) {
	a.t++
	c1 := 1 - math.Pow(beta1, float64(a.t))
	c2 := 1 - math.Pow(beta2, float64(a.t))
	step := float32(rate * math.Sqrt(c2) / c1)
	for i, g := range grad {
		g *= scale
		a.m[i] = beta1*a.m[i] + (1-beta1)*g
		a.v[i] = beta2*a.v[i] + (1-beta2)*g*g
		params[i] -= step * a.m[i] / (float32(math.Sqrt(float64(a.v[i]))) + epsilon)
	}
}
