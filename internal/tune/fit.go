package tune

import (
	"context"
	"math"
	"runtime"
	"sync"

	"github.com/chimera-chess/chimera/eval"
)

// The fit is the Texel method: the evaluation's weights are chosen to
// minimise the mean squared error between each position's game result and
// sigmoid(K·eval/400), the win probability the evaluation implies, where
// K is fitted first (to the starting weights) so that the weights stay in
// centipawns. The minimisation is gradient descent (Adam) on the whole
// training set at once; the gradient is summed over fixed chunks of
// samples in parallel and the chunks added in order, so the result does
// not depend on the number of cores.

// chunks is how many parts the samples are split into for the gradient.
const chunks = 64

// Fit is one fitting run.
type Fit struct {
	Layout *eval.Layout
	// Train and Held are the training and the held-out samples.
	Train, Held []Sample
	// Iterations of gradient descent, and its step (centipawns).
	Iterations int
	Rate       float64
	// Regularisation pulls each weight toward its start: λ·(w−w₀)².
	Regularisation float64
	// Free, when not nil, says by feature index which weights the fit
	// moves; the others keep their start (new features fitted beside
	// weights already fitted, which a step of every weight would jostle).
	Free []bool
	// SearchShare is the weight of a sample's search label, where it has
	// one, against its game's result (0: results alone; see label.go).
	SearchShare float64
	// Workers compute the gradient (default: every CPU).
	Workers int
	// Progress, when set, is told the iterations done and the training
	// and held-out losses at the last check.
	Progress func(done int, train, held float64)
}

// Losses are a fit's mean squared errors before and after.
type Losses struct {
	Scale                   float64
	TrainBefore, TrainAfter float64
	HeldBefore, HeldAfter   float64
	BestIteration           int
}

// params are the weights being fitted: middlegame then endgame, by
// feature index.
type params []float64

func paramsOf(w *eval.Weights) params {
	n := w.Layout().Len()
	p := make(params, 2*n)
	for i := range n {
		mg, eg := w.Get(i)
		p[i], p[n+i] = float64(mg), float64(eg)
	}
	return p
}

// weights rounds the parameters into weights.
func (p params) weights(l *eval.Layout, scale float64) *eval.Weights {
	w := eval.NewWeights(l)
	n := l.Len()
	for i := range n {
		w.Set(i, int(math.Round(p[i])), int(math.Round(p[n+i])))
	}
	w.Scale = scale
	return w
}

// evaluate is a sample's evaluation (White's view) under the parameters.
func (p params) evaluate(s *Sample) float64 {
	n := len(p) / 2
	phase := float64(s.Phase) / 256
	mg, eg := 0.0, 0.0
	for k, i := range s.Index {
		c := float64(s.Count[k])
		mg += p[i] * c
		eg += p[n+int(i)] * c
	}
	return mg*phase + eg*(1-phase)
}

func sigmoid(scale, e float64) float64 { return 1 / (1 + math.Exp(-scale*e/400)) }

// loss is the mean squared error of the samples under the parameters.
func (f *Fit) loss(p params, scale float64, samples []Sample) float64 {
	if len(samples) == 0 {
		return 0
	}
	part := make([]float64, chunks)
	f.forChunks(len(samples), func(c, lo, hi int) {
		sum := 0.0
		for j := lo; j < hi; j++ {
			d := float64(samples[j].Result) - sigmoid(scale, p.evaluate(&samples[j]))
			sum += d * d
		}
		part[c] = sum
	})
	total := 0.0
	for _, s := range part {
		total += s
	}
	return total / float64(len(samples))
}

// forChunks runs f over the fixed chunks of n samples on the workers.
func (f *Fit) forChunks(n int, fn func(c, lo, hi int)) {
	workers := f.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var wg sync.WaitGroup
	next := make(chan int, chunks)
	for c := range chunks {
		next <- c
	}
	close(next)
	for range min(workers, chunks) {
		wg.Go(func() {
			for c := range next {
				fn(c, c*n/chunks, (c+1)*n/chunks)
			}
		})
	}
	wg.Wait()
}

// fitScale finds the K that minimises the training loss under p, by a
// golden-section search on its logarithm.
func (f *Fit) fitScale(p params) float64 {
	lo, hi := math.Log(0.05), math.Log(20.0)
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	la, lb := f.loss(p, math.Exp(a), f.Train), f.loss(p, math.Exp(b), f.Train)
	for range 40 {
		if la < lb {
			hi, b, lb = b, a, la
			a = hi - g*(hi-lo)
			la = f.loss(p, math.Exp(a), f.Train)
		} else {
			lo, a, la = a, b, lb
			b = lo + g*(hi-lo)
			lb = f.loss(p, math.Exp(b), f.Train)
		}
	}
	return math.Exp((lo + hi) / 2)
}

// gradient returns the loss's gradient over samples under p.
func (f *Fit) gradient(p params, scale float64, samples []Sample) params {
	n := len(p) / 2
	parts := make([]params, chunks)
	f.forChunks(len(samples), func(c, lo, hi int) {
		g := make(params, 2*n)
		for j := lo; j < hi; j++ {
			s := &samples[j]
			sg := sigmoid(scale, p.evaluate(s))
			// d/de (r − σ)² = −2 (r − σ) σ (1 − σ) K/400
			d := -2 * (float64(s.Result) - sg) * sg * (1 - sg) * scale / 400
			phase := float64(s.Phase) / 256
			for k, i := range s.Index {
				c := float64(s.Count[k]) * d
				g[i] += c * phase
				g[n+int(i)] += c * (1 - phase)
			}
		}
		parts[c] = g
	})
	total := make(params, 2*n)
	for _, g := range parts {
		for i, x := range g {
			total[i] += x
		}
	}
	inv := 1 / float64(len(samples))
	for i := range total {
		total[i] *= inv
	}
	return total
}

// Run fits the weights, starting from start, and returns the best weights
// found on the held-out samples (checked every few iterations) and the
// losses. When ctx is done it stops at the next check.
func (f *Fit) Run(ctx context.Context, start *eval.Weights) (*eval.Weights, Losses) {
	p := paramsOf(start)
	p0 := append(params(nil), p...)
	// K is fitted to the results alone: a search label becomes a win
	// probability by the same K, so both labels speak the evaluation's scale.
	scale := f.fitScale(p)
	train, held := f.Train, f.Held
	if f.SearchShare > 0 {
		train, held = blend(train, f.SearchShare, scale), blend(held, f.SearchShare, scale)
	}
	ls := Losses{Scale: scale, TrainBefore: f.loss(p, scale, train), HeldBefore: f.loss(p, scale, held)}
	best, bestHeld := append(params(nil), p...), ls.HeldBefore
	if len(held) == 0 {
		bestHeld = ls.TrainBefore
	}
	m, v := make(params, len(p)), make(params, len(p))
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	rate := f.Rate
	if rate <= 0 {
		rate = 1
	}
	const check = 25
	for it := 1; it <= f.Iterations; it++ {
		g := f.gradient(p, scale, train)
		for i := range p {
			if f.Free != nil && !f.Free[i%len(f.Free)] {
				continue // p holds every middlegame weight, then every endgame one
			}
			gi := g[i] + 2*f.Regularisation*(p[i]-p0[i])
			m[i] = beta1*m[i] + (1-beta1)*gi
			v[i] = beta2*v[i] + (1-beta2)*gi*gi
			mh := m[i] / (1 - math.Pow(beta1, float64(it)))
			vh := v[i] / (1 - math.Pow(beta2, float64(it)))
			p[i] -= rate * mh / (math.Sqrt(vh) + eps)
		}
		if it%check == 0 || it == f.Iterations {
			trainLoss := f.loss(p, scale, train)
			heldLoss := trainLoss
			if len(held) > 0 {
				heldLoss = f.loss(p, scale, held)
			}
			if heldLoss < bestHeld {
				bestHeld, ls.BestIteration = heldLoss, it
				copy(best, p)
			}
			if f.Progress != nil {
				f.Progress(it, trainLoss, heldLoss)
			}
			if ctx.Err() != nil {
				break
			}
		}
	}
	w := best.weights(f.Layout, scale)
	ls.TrainAfter, ls.HeldAfter = f.loss(paramsOf(w), scale, train), f.loss(paramsOf(w), scale, held)
	return w, ls
}
