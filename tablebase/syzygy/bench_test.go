package syzygy_test

import (
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/stretchr/testify/require"
)

// benchPositions returns the oracle's positions of four pieces, and
// tables that have opened every file they need.
func benchPositions(b *testing.B) (*syzygy.Tables, []*engine.Position) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(b, err)
	b.Cleanup(func() { tb.Close() })
	var positions []*engine.Position
	for _, c := range readOracle(b) {
		pos := mustParse(b, c.fen)
		if pos.PieceCount() != 4 {
			continue
		}
		positions = append(positions, pos)
		_, err := tb.ProbeDTZ(pos)
		require.NoError(b, err)
	}
	return tb, positions
}

// BenchmarkProbeWDL: a WDL probe of a four-piece position (the captures'
// search included), every file already open.
func BenchmarkProbeWDL(b *testing.B) {
	tb, positions := benchPositions(b)
	i := 0
	for b.Loop() {
		if _, err := tb.ProbeWDL(positions[i]); err != nil {
			b.Fatal(err)
		}
		i = (i + 1) % len(positions)
	}
}

// BenchmarkProbeDTZ: a DTZ probe likewise (with the one-ply search where
// the file keeps the other side to move).
func BenchmarkProbeDTZ(b *testing.B) {
	tb, positions := benchPositions(b)
	i := 0
	for b.Loop() {
		if _, err := tb.ProbeDTZ(positions[i]); err != nil {
			b.Fatal(err)
		}
		i = (i + 1) % len(positions)
	}
}

// BenchmarkProbeWDLCold: Open, the first WDL probe of a KQvKR position
// (mapping and checking KQvKR.rtbw and the three-piece files its
// captures reach) and Close.
func BenchmarkProbeWDLCold(b *testing.B) {
	pos := mustParse(b, krqFEN)
	for b.Loop() {
		tb, err := syzygy.Open(regularDir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tb.ProbeWDL(pos); err != nil {
			b.Fatal(err)
		}
		tb.Close()
	}
}
