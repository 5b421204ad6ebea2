// Package train learns networks (nnue's shape) from labelled positions, in
// plain Go on the machine's cores: a float32 copy of the network, the
// sigmoid of its output fitted to a blend of the label's win chance and
// the game's result by Adam, a held-out share measuring each epoch.
package train

import (
	"math"
	"math/rand/v2"
)

// Net is a network in training: one hidden layer of Hidden units computed
// from the sparse inputs of each side's view with shared weights, clipped
// to [0, 1] (CReLU) and, if Squared, squared (SCReLU), both views' units
// (the side to move's first) to one output of Buckets, the one a
// position uses chosen by its number of pieces on the board (Sample's
// Bucket). The output is a logit: sigmoid(output) is the side to move's
// expected score, output×K its centipawns.
type Net struct {
	Inputs int
	Shape
	// W1[i*Hidden+j] weighs input i into unit j; B1 are the units' biases.
	W1, B1 []float32
	// W2[b*2*Hidden:] weighs, for bucket b, the side to move's units,
	// then the other side's; B2[b] is bucket b's bias.
	W2, B2 []float32
}

// Shape is a network's shape beyond its inputs.
type Shape struct {
	Hidden, Buckets int
	Squared         bool
}

// NewNet returns a network with small random weights.
func NewNet(inputs int, shape Shape, rng *rand.Rand) *Net {
	hidden, buckets := shape.Hidden, max(shape.Buckets, 1)
	n := &Net{Inputs: inputs, Shape: Shape{Hidden: hidden, Buckets: buckets, Squared: shape.Squared},
		W1: make([]float32, inputs*hidden), B1: make([]float32, hidden),
		W2: make([]float32, buckets*2*hidden), B2: make([]float32, buckets)}
	// Inputs are sparse (about thirty of hundreds active): the first
	// layer's scale keeps a unit's sum of them near its range.
	s1 := float32(1 / math.Sqrt(32))
	for i := range n.W1 {
		n.W1[i] = s1 * float32(rng.NormFloat64()) / 2
	}
	for i := range n.B1 {
		n.B1[i] = 0.5
	}
	s2 := float32(1 / math.Sqrt(float64(2*hidden)))
	for i := range 2 * hidden {
		// Every bucket starts alike: each learns from its own positions
		// what it needs to change.
		w := s2 * float32(rng.NormFloat64())
		for b := range buckets {
			n.W2[b*2*hidden+i] = w
		}
	}
	return n
}

// clone returns a copy of n.
func (n *Net) clone() *Net {
	c := &Net{Inputs: n.Inputs, Shape: n.Shape,
		W1: make([]float32, len(n.W1)), B1: make([]float32, len(n.B1)), W2: make([]float32, len(n.W2)), B2: make([]float32, len(n.B2))}
	c.copyFrom(n)
	return c
}

// copyFrom sets n's weights to those of src, a network of n's shape.
func (n *Net) copyFrom(src *Net) {
	copy(n.W1, src.W1)
	copy(n.B1, src.B1)
	copy(n.W2, src.W2)
	copy(n.B2, src.B2)
}

// Sample is one training position: the active inputs of the side to
// move's view and of the other side's, the output bucket its pieces
// choose, and the target expected score.
type Sample struct {
	Own, Other []int32
	Bucket     int32
	Target     float32
}

// activations is one position's forward pass, kept for the backward one.
type activations struct {
	pre [2][]float32 // the units before clipping, by view
	out float32
	d   []float32 // scratch: the gradient reaching one view's units
}

func newActivations(hidden int) *activations {
	return &activations{pre: [2][]float32{make([]float32, hidden), make([]float32, hidden)}, d: make([]float32, hidden)}
}

// forward computes the output for s, filling a.
func (n *Net) forward(s *Sample, a *activations) float32 {
	out := n.B2[s.Bucket]
	w2s := n.outputWeights(s)
	for v, inputs := range [2][]int32{s.Own, s.Other} {
		pre := a.pre[v]
		copy(pre, n.B1)
		for _, f := range inputs {
			row := n.W1[int(f)*n.Hidden : (int(f)+1)*n.Hidden]
			for j, w := range row {
				pre[j] += w
			}
		}
		w2 := w2s[v*n.Hidden : (v+1)*n.Hidden]
		for j, x := range pre {
			out += w2[j] * n.activate(x)
		}
	}
	a.out = out
	return out
}

// outputWeights returns the output weights of s's bucket: the side to
// move's units', then the other side's.
func (n *Net) outputWeights(s *Sample) []float32 {
	return n.W2[int(s.Bucket)*2*n.Hidden : (int(s.Bucket)+1)*2*n.Hidden]
}

// activate returns a unit's output for its sum x.
func (n *Net) activate(x float32) float32 {
	c := clip(x)
	if n.Squared {
		return c * c
	}
	return c
}

// slope returns the derivative of activate at x: none beyond the clip's
// range.
func (n *Net) slope(x float32) float32 {
	switch {
	case x <= 0 || x >= 1:
		return 0
	case n.Squared:
		return 2 * x
	}
	return 1
}

// Output returns the network's output (a logit) for s.
func (n *Net) Output(s *Sample) float32 {
	return n.forward(s, newActivations(n.Hidden))
}

func clip(x float32) float32 { return min(max(x, 0), 1) }

func sigmoid(x float32) float32 { return float32(1 / (1 + math.Exp(-float64(x)))) }

// gradients accumulates the loss's gradient over samples.
type gradients struct {
	w1, b1, w2, b2 []float32
	loss           float64
}

func newGradients(n *Net) *gradients {
	return &gradients{w1: make([]float32, len(n.W1)), b1: make([]float32, len(n.B1)), w2: make([]float32, len(n.W2)),
		b2: make([]float32, len(n.B2))}
}

func (g *gradients) reset() {
	clear(g.w1)
	clear(g.b1)
	clear(g.w2)
	clear(g.b2)
	g.loss = 0
}

// add adds other's sums to g.
func (g *gradients) add(other *gradients) {
	for i, x := range other.w1 {
		g.w1[i] += x
	}
	for i, x := range other.b1 {
		g.b1[i] += x
	}
	for i, x := range other.w2 {
		g.w2[i] += x
	}
	for i, x := range other.b2 {
		g.b2[i] += x
	}
	g.loss += other.loss
}

// backward adds to g the gradient of s's loss, (sigmoid(out) − target)²,
// after forward filled a.
func (n *Net) backward(s *Sample, a *activations, g *gradients) {
	p := sigmoid(a.out)
	diff := p - s.Target
	g.loss += float64(diff * diff)
	dOut := 2 * diff * p * (1 - p)
	g.b2[s.Bucket] += dOut
	w2s := n.outputWeights(s)
	gw2s := g.w2[int(s.Bucket)*2*n.Hidden : (int(s.Bucket)+1)*2*n.Hidden]
	for v, inputs := range [2][]int32{s.Own, s.Other} {
		pre := a.pre[v]
		w2 := w2s[v*n.Hidden : (v+1)*n.Hidden]
		gw2 := gw2s[v*n.Hidden : (v+1)*n.Hidden]
		d := a.d
		for j, x := range pre {
			gw2[j] += dOut * n.activate(x)
			d[j] = dOut * w2[j] * n.slope(x)
			g.b1[j] += d[j]
		}
		for _, f := range inputs {
			row := g.w1[int(f)*n.Hidden : (int(f)+1)*n.Hidden]
			for j, x := range d {
				row[j] += x
			}
		}
	}
}
