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
// to [0, 1] (CReLU), both views' units (the side to move's first) to one
// output. The output is a logit: sigmoid(output) is the side to move's
// expected score, output×K its centipawns.
type Net struct {
	Inputs, Hidden int
	// W1[i*Hidden+j] weighs input i into unit j; B1 are the units' biases.
	W1, B1 []float32
	// W2 weighs the side to move's units, then the other side's; B2 is
	// the output's bias.
	W2 []float32
	B2 float32
}

// NewNet returns a network with small random weights.
func NewNet(inputs, hidden int, rng *rand.Rand) *Net {
	n := &Net{Inputs: inputs, Hidden: hidden, W1: make([]float32, inputs*hidden), B1: make([]float32, hidden),
		W2: make([]float32, 2*hidden)}
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
	for i := range n.W2 {
		n.W2[i] = s2 * float32(rng.NormFloat64())
	}
	return n
}

// clone returns a copy of n.
func (n *Net) clone() *Net {
	c := &Net{Inputs: n.Inputs, Hidden: n.Hidden, W1: make([]float32, len(n.W1)), B1: make([]float32, len(n.B1)),
		W2: make([]float32, len(n.W2))}
	c.copyFrom(n)
	return c
}

// copyFrom sets n's weights to those of src, a network of n's shape.
func (n *Net) copyFrom(src *Net) {
	copy(n.W1, src.W1)
	copy(n.B1, src.B1)
	copy(n.W2, src.W2)
	n.B2 = src.B2
}

// Sample is one training position: the active inputs of the side to
// move's view and of the other side's, and the target expected score.
type Sample struct {
	Own, Other []int32
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
	out := n.B2
	for v, inputs := range [2][]int32{s.Own, s.Other} {
		pre := a.pre[v]
		copy(pre, n.B1)
		for _, f := range inputs {
			row := n.W1[int(f)*n.Hidden : (int(f)+1)*n.Hidden]
			for j, w := range row {
				pre[j] += w
			}
		}
		w2 := n.W2[v*n.Hidden : (v+1)*n.Hidden]
		for j, x := range pre {
			out += w2[j] * clip(x)
		}
	}
	a.out = out
	return out
}

// Output returns the network's output (a logit) for s.
func (n *Net) Output(s *Sample) float32 {
	return n.forward(s, newActivations(n.Hidden))
}

func clip(x float32) float32 { return min(max(x, 0), 1) }

func sigmoid(x float32) float32 { return float32(1 / (1 + math.Exp(-float64(x)))) }

// gradients accumulates the loss's gradient over samples.
type gradients struct {
	w1, b1, w2 []float32
	b2         float32
	loss       float64
}

func newGradients(n *Net) *gradients {
	return &gradients{w1: make([]float32, len(n.W1)), b1: make([]float32, len(n.B1)), w2: make([]float32, len(n.W2))}
}

func (g *gradients) reset() {
	clear(g.w1)
	clear(g.b1)
	clear(g.w2)
	g.b2, g.loss = 0, 0
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
	g.b2 += other.b2
	g.loss += other.loss
}

// backward adds to g the gradient of s's loss, (sigmoid(out) − target)²,
// after forward filled a.
func (n *Net) backward(s *Sample, a *activations, g *gradients) {
	p := sigmoid(a.out)
	diff := p - s.Target
	g.loss += float64(diff * diff)
	dOut := 2 * diff * p * (1 - p)
	g.b2 += dOut
	for v, inputs := range [2][]int32{s.Own, s.Other} {
		pre := a.pre[v]
		w2 := n.W2[v*n.Hidden : (v+1)*n.Hidden]
		gw2 := g.w2[v*n.Hidden : (v+1)*n.Hidden]
		d := a.d
		for j, x := range pre {
			gw2[j] += dOut * clip(x)
			d[j] = 0
			if x > 0 && x < 1 { // the clip passes no gradient beyond its range
				d[j] = dOut * w2[j]
				g.b1[j] += d[j]
			}
		}
		for _, f := range inputs {
			row := g.w1[int(f)*n.Hidden : (int(f)+1)*n.Hidden]
			for j, x := range d {
				row[j] += x
			}
		}
	}
}
