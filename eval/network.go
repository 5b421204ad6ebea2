package eval

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/nnue"
)

// Network evaluates by a network trained for the variant (nnue; chimera
// train makes them). Its scores are centipawns; the piece values the
// search orders moves and weighs exchanges by are the documents'.
type Network struct {
	net     *nnue.Network
	variant *engine.Variant
	layout  *nnue.Layout
	values  *Documents
}

// NewNetwork returns the evaluation of variant v by network n, refusing a
// network made for another variant or definition (nnue.ErrForeign).
func NewNetwork(v *engine.Variant, n *nnue.Network) (*Network, error) {
	if err := n.Check(v); err != nil {
		return nil, err
	}
	return &Network{net: n, variant: v, layout: nnue.NewLayout(v), values: NewDocuments(v)}, nil
}

// Evaluate returns the network's score of p for its side to move.
func (e *Network) Evaluate(p *engine.Position) int { return e.net.Evaluate(e.layout, p) }

// Value returns the documents' value of pc.
func (e *Network) Value(pc engine.Piece) int { return e.values.Value(pc) }

// NewTracker returns a tracker that computes the network's units along a
// search thread's line, each position's from its parent's.
func (e *Network) NewTracker() Tracker { return nnue.NewTracker(e.net, e.variant) }
