package eval_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/variants"
)

func TestEvaluateFormula(t *testing.T) {
	v := variants.Chess()
	e := eval.NewDocuments(v)
	start := v.StartPosition()
	require.Zero(t, e.Evaluate(start), "symmetric start")

	// After 1.e4 Black to move: material equal; White has 30 pseudo-legal
	// moves (mobility counts squares), Black 20.
	p, err := v.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	require.NoError(t, err)
	require.Equal(t, 30, p.Mobility(engine.White))
	require.Equal(t, 20, p.Mobility(engine.Black))
	require.Equal(t, 10*(20-30), e.Evaluate(p))

	// A queen up, from both sides' view.
	p, err = v.ParseFEN("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
	require.NoError(t, err)
	mob := p.Mobility(engine.White) - p.Mobility(engine.Black)
	require.Equal(t, 900+10*mob, e.Evaluate(p))
	p, err = v.ParseFEN("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
	require.NoError(t, err)
	require.Equal(t, -(900 + 10*mob), e.Evaluate(p))
}

func TestValues(t *testing.T) {
	v := variants.Chess()
	require.Equal(t, []int{100, 300, 300, 500, 900, 20000}, eval.Values(v))

	// Estimates: a knight 300 by construction; a camel's reach is close
	// to the knight's, a queen's far more.
	rb, err := variants.Lookup("reallybig")
	require.NoError(t, err)
	vals := eval.Values(rb)
	for i, pt := range rb.Pieces {
		require.Positive(t, vals[i], pt.Name)
	}
	wb, err := variants.Lookup("wildebeest")
	require.NoError(t, err)
	camel := wb.TypeByLetter('C')
	require.InDelta(t, 300, eval.EstimateValue(wb, camel), 80)
	require.InDelta(t, 300, eval.EstimateValue(wb, wb.TypeByLetter('N')), 1)
	require.Greater(t, eval.EstimateValue(wb, wb.TypeByLetter('Q')), 1000)
}

func BenchmarkEvaluate(b *testing.B) {
	v := variants.Chess()
	e := eval.NewDocuments(v)
	p, err := v.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(b, err)
	for b.Loop() {
		e.Evaluate(p)
	}
}
