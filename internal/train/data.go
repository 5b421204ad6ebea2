package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/dataset"
	"github.com/chimera-chess/chimera/nnue"
)

// Labelled is a position's inputs and its number of pieces on the board
// with its two labels, before the blend of them a target is: the score
// (centipawns, the side to move's) and the game's result for the side to
// move (1, ½, 0).
type Labelled struct {
	Own, Other []int32
	Pieces     int32
	Score      float32
	Result     float32
}

// AppendGame appends the positions of game g, their inputs from layout l.
func AppendGame(dst []Labelled, l *nnue.Layout, g *dataset.Game) []Labelled {
	for i := range g.Positions {
		pos := &g.Positions[i]
		us := engine.White
		if pos.Black {
			us = engine.Black
		}
		result := float32(g.Result+1) / 2 // White's: 0, ½, 1
		if us == engine.Black {
			result = 1 - result
		}
		dst = append(dst, Labelled{Own: inputsOf(l, pos, us), Other: inputsOf(l, pos, us.Other()), Pieces: int32(len(pos.Board)),
			Score: float32(pos.Score), Result: result})
	}
	return dst
}

// inputsOf returns the active inputs of pos as side view sees it: the
// layout's, and for each piece on the board its plane's factor input too.
func inputsOf(l *nnue.Layout, pos *dataset.Position, view engine.Colour) []int32 {
	out := make([]int32, 0, 2*len(pos.Board)+2*len(pos.Hand))
	for _, pl := range pos.Board {
		input := l.Board(view, pl.Piece, pl.Square)
		out = append(out, int32(input), int32(factorOf(l, input)))
	}
	for _, h := range pos.Hand {
		for k := range min(int(h.Count), nnue.MaxHandCount) {
			out = append(out, int32(l.Hand(view, h.Piece, k)))
		}
	}
	return out
}

// FitScale returns the K (centipawns per logit unit) that makes
// sigmoid(score/K) predict the results best (least squares): the scale
// that turns the labels' centipawns into expected scores, found by a
// golden-section search between 50 and 2000.
func FitScale(data []Labelled) float64 {
	loss := func(k float64) float64 {
		sum := 0.0
		for i := range data {
			d := 1/(1+math.Exp(-float64(data[i].Score)/k)) - float64(data[i].Result)
			sum += d * d
		}
		return sum
	}
	lo, hi := 50.0, 2000.0
	const phi = 0.6180339887498949
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := loss(a), loss(b)
	for hi-lo > 1 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = loss(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = loss(b)
		}
	}
	return (lo + hi) / 2
}

// Samples returns the training samples of data, positions of variant v,
// for a network of buckets output buckets: each target
// λ·sigmoid(score/K) + (1−λ)·result.
func Samples(v *engine.Variant, data []Labelled, buckets int, lambda, k float64) []Sample {
	l := nnue.NewLayout(v)
	out := make([]Sample, len(data))
	for i := range data {
		d := &data[i]
		win := 1 / (1 + math.Exp(-float64(d.Score)/k))
		out[i] = Sample{Own: d.Own, Other: d.Other, Bucket: int32(l.Bucket(int(d.Pieces), buckets)),
			Target: float32(lambda*win + (1-lambda)*float64(d.Result))}
	}
	return out
}

// Quantise returns the network n, trained on variant v's inputs
// (InputsOf), as nnue evaluates it: each factor input's weights added to
// those of its plane's inputs, weights scaled by nnue.QA and nnue.QB and
// rounded, the output scaled by k centipawns per logit unit; about says
// how it was made.
func Quantise(n *Net, v *engine.Variant, k float64, about string) *nnue.Network {
	l := nnue.NewLayout(v)
	if n.Inputs != InputsOf(v) {
		panic(fmt.Sprintf("train: a network of %d inputs quantised for %s, whose have %d", n.Inputs, v.Name, InputsOf(v)))
	}
	q := &nnue.Network{Variant: v.Name, Fingerprint: v.Fingerprint(), Inputs: l.Inputs(), Hidden: n.Hidden,
		Buckets: n.Buckets, Squared: n.Squared, Scale: float32(k), About: about,
		W1: make([]int16, l.Inputs()*n.Hidden), B1: make([]int16, len(n.B1)), W2: make([]int16, len(n.W2)), B2: make([]int32, len(n.B2))}
	round16 := func(x float64) int16 { return int16(max(min(math.Round(x), math.MaxInt16), math.MinInt16)) }
	h := n.Hidden
	for i := range l.Inputs() {
		row := n.W1[i*h : (i+1)*h]
		for j, w := range row {
			if i < l.BoardInputs() {
				w += n.W1[factorOf(l, i)*h+j]
			}
			q.W1[i*h+j] = round16(float64(w) * nnue.QA)
		}
	}
	for i, b := range n.B1 {
		q.B1[i] = round16(float64(b) * nnue.QA)
	}
	for i, w := range n.W2 {
		q.W2[i] = round16(float64(w) * nnue.QB)
	}
	for i, b := range n.B2 {
		q.B2[i] = int32(math.Round(float64(b) * nnue.QA * nnue.QB))
	}
	return q
}

// Selection says which positions Load reads and how it splits them.
type Selection struct {
	// HeldOut is the share of the games held out whole, chosen by Seed.
	HeldOut float64
	Seed    uint64
	// Limit bounds the positions kept (0: all).
	Limit int
	// QuietOnly skips the positions marked tactical (datagen --keep all's
	// positions in check or with a capture or promotion to play).
	QuietOnly bool
}

// Load reads the games of the data files (each must hold positions of
// variant v as defined now) into training and held-out positions: a share
// of the games is held out whole, so that no position of a held-out game
// is learnt from.
func Load(v *engine.Variant, paths []string, sel Selection) (trainSet, held []Labelled, err error) {
	l := nnue.NewLayout(v)
	want := dataset.HeaderFor(v, "")
	rng := rand.New(rand.NewPCG(sel.Seed, 0xda7a))
	limit := sel.Limit
	for _, path := range paths {
		r, err := dataset.Open(path)
		if err != nil {
			return nil, nil, err
		}
		if err := r.Header().Matches(want); err != nil {
			r.Close()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		var g dataset.Game
		for r.Next(&g) == nil {
			if limit > 0 && len(trainSet)+len(held) >= limit {
				break
			}
			if sel.QuietOnly {
				g.Positions = slices.DeleteFunc(g.Positions, func(p dataset.Position) bool { return p.Tactical })
			}
			if rng.Float64() < sel.HeldOut {
				held = AppendGame(held, l, &g)
			} else {
				trainSet = AppendGame(trainSet, l, &g)
			}
		}
		r.Close()
		// A last game cut short is a run killed or still writing; damage
		// before the end would silently drop every game after it.
		if err := r.Damaged(); err != nil && !errors.Is(err, dataset.ErrCutShort) && (limit == 0 || len(trainSet)+len(held) < limit) {
			return nil, nil, fmt.Errorf("%s: %w (the games before it are whole: cut the file there, or make it again)", path, err)
		}
	}
	return trainSet, held, nil
}

// InputsOf returns the number of inputs a side's view of variant v has in
// training: the layout's, then one factor input a plane of the board's.
//
// A factor input is on whenever a piece of its side and kind stands
// anywhere: what a piece is worth wherever it stands is learnt once, from
// every position that has one, rather than square by square from the few
// positions with one there, so a small dataset teaches more. It adds
// nothing a network can compute: Quantise folds each factor's weights
// into its plane's inputs, and the network nnue evaluates is the same.
func InputsOf(v *engine.Variant) int {
	l := nnue.NewLayout(v)
	return l.Inputs() + l.BoardInputs()/l.Squares()
}

// factorOf returns the factor input of board input i of layout l.
func factorOf(l *nnue.Layout, i int) int { return l.Inputs() + i/l.Squares() }
