package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/perftepd"
	"github.com/chimera-chess/chimera/variants"
)

// readPerftEPD reads a perft reference file.
func readPerftEPD(t testing.TB, path string) []perftepd.Case {
	t.Helper()
	cases, err := perftepd.Read(path)
	require.NoError(t, err)
	return cases
}

// TestPerftStandard checks every count of the standard reference positions.
// With -short only counts up to 250,000 leaves run.
func TestPerftStandard(t *testing.T) {
	v := variants.Chess()
	limit := uint64(1) << 62
	if testing.Short() {
		limit = 250_000
	}
	for _, c := range readPerftEPD(t, "testdata/standard.epd") {
		t.Run(c.Name, func(t *testing.T) {
			p, err := v.ParseFEN(c.FEN)
			require.NoError(t, err)
			for d := 1; d <= 10; d++ {
				want, ok := c.Counts[d]
				if !ok || want > limit {
					continue
				}
				require.Equal(t, want, p.Perft(d), "%s depth %d", c.FEN, d)
			}
		})
	}
}

// TestDivideSumsToPerft checks that the per-move counts add up and name
// legal moves.
func TestDivideSumsToPerft(t *testing.T) {
	v := variants.Chess()
	p, err := v.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	var sum uint64
	entries := p.Divide(3)
	require.Len(t, entries, 48)
	for _, e := range entries {
		sum += e.Nodes
	}
	require.Equal(t, uint64(97862), sum)
	require.Empty(t, p.Divide(0))
}

// TestMoveGenerationDoesNotAllocate proves the hot path allocation-free.
func TestMoveGenerationDoesNotAllocate(t *testing.T) {
	v := variants.Chess()
	p, err := v.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	buf := make([]engine.Move, 0, engine.MaxMoves)
	reply := make([]engine.Move, 0, engine.MaxMoves)
	allocs := testing.AllocsPerRun(100, func() {
		for _, m := range p.LegalMoves(buf) {
			p.Make(m)
			p.LegalMoves(reply)
			p.Unmake()
		}
	})
	require.Zero(t, allocs)
}

func BenchmarkPerft(b *testing.B) {
	benchmarkPerft(b, []perftCase{
		{"startpos-5", "chess", variants.ChessFEN, 5},
		{"kiwipete-4", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
	})
}

// BenchmarkPerftVariants measures the generator where the board and the
// pieces are not chess's: cannons on 10×10 (shako), xiangqi, gating.
func BenchmarkPerftVariants(b *testing.B) {
	benchmarkPerft(b, []perftCase{
		{"shako", "shako", "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1", 4},
		{"xiangqi", "xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 4},
		{"shouse", "shouse", "reb1k1nQ/pppp1p2/p1n4b/3P2pp/8/N1P1q3/RP2PPPe/2BHKBNR[RPhp] w KCEFGHqaceg - 1 14", 3},
	})
}

// perftCase is a named position to count to a depth.
type perftCase struct {
	name, variant, fen string
	depth              int
}

// benchmarkPerft runs one sub-benchmark per case, reporting leaves per
// second.
func benchmarkPerft(b *testing.B, cases []perftCase) {
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			v, err := variants.Lookup(bc.variant)
			require.NoError(b, err)
			p, err := v.ParseFEN(bc.fen)
			require.NoError(b, err)
			var leaves uint64
			for b.Loop() {
				leaves += p.Perft(bc.depth)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// TestVariantRuleMovesDoNotAllocate: the move rules of the Fairy-Stockfish
// families (sittuyin's promotions, cambodian leaps, makpong's checks,
// placement's bishop drops, S-House's gating, shako's king lines) keep
// the generator allocation-free.
func TestVariantRuleMovesDoNotAllocate(t *testing.T) {
	for _, c := range []struct{ variant, fen string }{
		{"sittuyin", "4k3/8/5P2/8/8/2P5/8/4K3[] w - - 0 40"},
		{"cambodian", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"},
		{"makpong", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"},
		{"placement", "8/pppppppp/8/8/8/8/PPPPPPPP/2B5[KQRRBNNkqrrbbnn] b - - 0 1"},
		{"shouse", "reb1k1nQ/pppp1p2/p1n4b/3P2pp/8/N1P1q3/RP2PPPe/2BHKBNR[RPhp] w KCEFGHqaceg - 1 14"},
		{"shako", "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1"},
	} {
		v, err := variants.Lookup(c.variant)
		require.NoError(t, err)
		p, err := v.ParseFEN(c.fen)
		require.NoError(t, err)
		buf := make([]engine.Move, 0, engine.MaxMoves)
		require.NotEmpty(t, p.LegalMoves(buf))
		require.Zero(t, testing.AllocsPerRun(50, func() { p.LegalMoves(buf) }), c.variant)
	}
}
