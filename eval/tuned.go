package eval

import (
	"github.com/chimera-chess/chimera/engine"
)

// Tuned is the tuned evaluation of one variant: its feature set (Layout)
// weighted by weights learned from the variant's own games (chimera
// tune). It is immutable and may be shared between goroutines.
type Tuned struct {
	layout  *Layout
	weights *Weights
	values  [64]int // by piece code: the weights' material, for the search
	psq     []sums  // material and piece-square weights by piece and square
	checks  bool    // some check feature has a weight
	threats bool    // some threat feature has a weight
}

// NewTuned returns the tuned evaluation of the weights' variant.
func NewTuned(w *Weights) *Tuned {
	e := &Tuned{layout: w.layout, weights: w, psq: w.layout.pieceSquares(w), checks: w.layout.weighsChecks(w),
		threats: w.layout.weighsThreats(w)}
	docs := NewDocuments(w.layout.v)
	for pc := range e.values {
		e.values[pc] = docs.Value(engine.Piece(pc))
	}
	return e
}

// Value returns a piece's value for the search's move ordering and
// exchanges: the documents' values, the scale its pruning margins are set
// in (a tuned evaluation keeps centipawns).
func (e *Tuned) Value(pc engine.Piece) int { return e.values[pc] }

// Evaluate returns the tuned evaluation of p for the side to move.
func (e *Tuned) Evaluate(p *engine.Position) int {
	f := features{w: e.weights, psq: e.psq, checks: e.checks, threats: e.threats}
	phase := extract(e.layout, p, &f)
	score := max(-MaxScore, min(MaxScore, (f.mg*phase+f.eg*(phaseScale-phase))/phaseScale))
	if p.SideToMove() == engine.Black {
		return -score
	}
	return score
}

// MaxScore bounds the tuned evaluation: well inside the scores a search
// keeps for mates, whatever a weights file holds.
const MaxScore = 20000

// Trace returns p's features as the tuner reads them, and the evaluation
// (White's point of view) they add up to under the weights.
func (e *Tuned) Trace(p *engine.Position) (Trace, int) {
	f := features{w: e.weights, trace: make([]int32, e.layout.Len()), checks: true, threats: true}
	phase := extract(e.layout, p, &f)
	return Trace{Counts: f.trace, Phase: phase, White: p.SideToMove() == engine.White},
		(f.mg*phase + f.eg*(phaseScale-phase)) / phaseScale
}

// Layout returns the feature set the evaluation weighs.
func (e *Tuned) Layout() *Layout { return e.layout }
