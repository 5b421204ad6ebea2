package engine_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// perftCase is one EPD line: a position and its leaf counts by depth.
type perftCase struct {
	name   string
	fen    string
	counts map[int]uint64
}

// readPerftEPD reads lines "FEN ;D1 n ;D2 n"; a comment line names the next
// position.
func readPerftEPD(t testing.TB, path string) []perftCase {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var cases []perftCase
	name := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			name = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			continue
		}
		parts := strings.Split(line, ";")
		c := perftCase{name: name, fen: strings.TrimSpace(parts[0]), counts: map[int]uint64{}}
		for _, p := range parts[1:] {
			fields := strings.Fields(p)
			require.Len(t, fields, 2, "bad EPD field %q", p)
			d, err := strconv.Atoi(strings.TrimPrefix(fields[0], "D"))
			require.NoError(t, err)
			n, err := strconv.ParseUint(fields[1], 10, 64)
			require.NoError(t, err)
			c.counts[d] = n
		}
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// TestPerftStandard checks every count of the standard reference positions.
// With -short only counts up to a million leaves run.
func TestPerftStandard(t *testing.T) {
	v := variants.Chess()
	limit := uint64(1) << 62
	if testing.Short() {
		limit = 1_000_000
	}
	for _, c := range readPerftEPD(t, "testdata/standard.epd") {
		t.Run(c.name, func(t *testing.T) {
			p, err := v.ParseFEN(c.fen)
			require.NoError(t, err)
			for d := 1; d <= 10; d++ {
				want, ok := c.counts[d]
				if !ok || want > limit {
					continue
				}
				require.Equal(t, want, p.Perft(d), "%s depth %d", c.fen, d)
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
	v := variants.Chess()
	for _, bc := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"startpos-5", variants.ChessFEN, 5},
		{"kiwipete-4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
	} {
		b.Run(bc.name, func(b *testing.B) {
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
