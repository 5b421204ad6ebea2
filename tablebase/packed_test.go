package tablebase_test

import (
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestFileReadsBackEveryEntry: every position's entry of a table read
// from its compressed file, distance to mate and distance to zeroing,
// equals the generation's (block by block and decoded whole), and probes
// of the file's table answer as the generated one does.
func TestFileReadsBackEveryEntry(t *testing.T) {
	v := variants.Chess()
	names := []string{"KRvK", "KPvK", "KQvKR", "KPvKP"}
	if testing.Short() {
		v, names = tbtest.Tiny(t), []string{"KRvK", "KQvKR"}
	}
	dir := t.TempDir()
	store := gen.NewStore(dir)
	for _, name := range names {
		m := tbtest.Material(t, v, name)
		_, err := store.Build(v, m, tablebase.Hooks{}) // its file, and its smaller tables'
		require.NoError(t, err)
		made, err := gen.Generate(v, m, func(child tablebase.Material) (*tablebase.Table, error) {
			return store.FindMaterial(v, child, tablebase.MemoryOrDisk)
		}, nil)
		require.NoError(t, err)
		require.True(t, made.MarksNonPositions(), "a generated table")
		read, err := tablebase.Load(dir, v, m)
		require.NoError(t, err)
		require.Equal(t, made.Checksum(), read.Checksum(), "the file's name for its contents")
		require.Equal(t, made.HasDTZ(), read.HasDTZ())
		dense, err := read.Dense()
		require.NoError(t, err)
		positions := 0
		for side := range 2 {
			for idx, want := range made.Val[side] {
				if want == 255 { // no position: the file does not keep it
					continue
				}
				positions++
				require.Equal(t, want, dense.Val[side][idx], "%s side %d entry %d", name, side, idx)
				if made.HasDTZ() {
					require.Equal(t, made.DTZ[side][idx], dense.DTZ[side][idx], "%s side %d entry %d", name, side, idx)
				}
			}
		}
		require.Positive(t, positions)
		for _, p := range tablebase.RandomWins(made, 200, 7) {
			requireSameProbe(t, made, read, p)
			for _, m := range p.LegalMoves(nil) {
				p.Make(m)
				// Load's table alone has no tables after captures, through
				// which a position with an en-passant capture is valued.
				if made.Covers(p) && p.EnPassant() == engine.NoSquare {
					requireSameProbe(t, made, read, p)
				}
				p.Unmake()
			}
		}
	}
}

func requireSameProbe(t *testing.T, made, read *tablebase.Table, p *engine.Position) {
	t.Helper()
	a, err := made.Probe(p)
	require.NoError(t, err, p.FEN())
	b, err := read.Probe(p)
	require.NoError(t, err, p.FEN())
	require.Equal(t, a, b, p.FEN())
	if made.HasDTZ() {
		a, err := made.ProbeDTZ(p)
		require.NoError(t, err)
		b, err := read.ProbeDTZ(p)
		require.NoError(t, err)
		require.Equal(t, a, b, p.FEN())
	}
}
