package tablebase_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
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
	// Both from one look-up, as the explorer asks.
	r, dtz, hasDTZ, err := read.ProbeWithDTZ(p)
	require.NoError(t, err, p.FEN())
	require.Equal(t, a, r, p.FEN())
	require.Equal(t, made.HasDTZ(), hasDTZ, p.FEN())
	if hasDTZ {
		want, err := made.ProbeDTZ(p)
		require.NoError(t, err)
		require.Equal(t, want, dtz, p.FEN())
	}
}

// TestOneSideFilesReadBackEveryEntry: tables saved with one side's
// distances (SaveOneSide), read through a store of such files only, give
// every position's distance to mate and to zeroing of both sides as the
// generation made them (the dropped side searched one ply, en passant
// included), and the same probes and best moves; each file is smaller.
func TestOneSideFilesReadBackEveryEntry(t *testing.T) {
	v := variants.Chess()
	names := []string{"KRvK", "KPvK", "KQvKR", "KPvKP"}
	if testing.Short() {
		v, names = tbtest.Tiny(t), []string{"KRvK", "KQvKR"}
	}
	requireOneSideReadsBack(t, v, names, func(read *tablebase.Table, dir string) error {
		dense, err := read.Dense()
		if err != nil {
			return err
		}
		return dense.SaveOneSide(dir)
	})
}

// TestRepackedOneSideFilesReadBackEveryEntry is
// TestOneSideFilesReadBackEveryEntry for files repacked from a file's
// compressed blocks as they are (RepackOneSide, tb repack's default).
func TestRepackedOneSideFilesReadBackEveryEntry(t *testing.T) {
	v, names := variants.Chess(), []string{"KRvK", "KQvKR"}
	if testing.Short() {
		v = tbtest.Tiny(t)
	}
	requireOneSideReadsBack(t, v, names, (*tablebase.Table).RepackOneSide)
}

// requireOneSideReadsBack builds the named tables, writes each one-sided
// with save (given the table read from its file, its smaller tables at
// hand) and checks what the files give against the generation's entries.
func requireOneSideReadsBack(t *testing.T, v *engine.Variant, names []string, save func(read *tablebase.Table, dir string) error) {
	dir, oneSide := t.TempDir(), t.TempDir()
	store := gen.NewStore(dir)
	for _, name := range names {
		_, err := store.Build(v, tbtest.Material(t, v, name), tablebase.Hooks{})
		require.NoError(t, err)
	}
	sizes := map[string]int64{}
	for _, f := range store.Files(func(string) (*engine.Variant, error) { return v, nil }) {
		read, err := store.FindMaterial(v, f.Material, tablebase.MemoryOrDisk) // its smaller tables at hand
		require.NoError(t, err)
		require.NoError(t, save(read, oneSide)) // the smaller tables too
		sizes[f.Material.String()] = f.Size
	}
	shipped := tablebase.NewStore(oneSide)
	dropped := 0
	for _, name := range names {
		m := tbtest.Material(t, v, name)
		// Every distance, as generated (TestFileReadsBackEveryEntry).
		both, err := store.FindMaterial(v, m, tablebase.MemoryOrDisk)
		require.NoError(t, err)
		made, err := both.Dense()
		require.NoError(t, err)
		read, err := shipped.FindMaterial(v, m, tablebase.MemoryOrDisk)
		require.NoError(t, err)
		require.Equal(t, made.Checksum(), read.Checksum(), "the contents' name is kept")
		size, ok := shipped.FileSize(v, m)
		require.True(t, ok)
		if !read.DistancesStored(0) || !read.DistancesStored(1) {
			dropped++
			require.Less(t, size, sizes[m.String()], m.String())
		}
		dense, err := read.Dense()
		require.NoError(t, err)
		for side := range 2 {
			for idx, want := range made.Val[side] { // no position: a draw in both
				if want != dense.Val[side][idx] || (made.HasDTZ() && made.DTZ[side][idx] != dense.DTZ[side][idx]) {
					require.Failf(t, "entries differ", "%s side %d entry %d: value %d, searched %d", m, side, idx,
						want, dense.Val[side][idx])
				}
			}
		}
		for _, p := range tablebase.RandomWins(made, 50, 7) {
			requireSameProbe(t, made, read, p)
			for _, mv := range p.LegalMoves(nil) {
				p.Make(mv)
				if made.Covers(p) {
					requireSameProbe(t, made, read, p) // en passant through the moves
				}
				p.Unmake()
			}
			finder := store.Finder(tablebase.MemoryOrDisk)
			wantAll, wantBest, err := made.Moves(p, finder)
			require.NoError(t, err)
			gotAll, gotBest, err := read.Moves(p, shipped.Finder(tablebase.MemoryOrDisk))
			require.NoError(t, err)
			require.Equal(t, wantAll, gotAll, p.FEN())
			require.Equal(t, wantBest, gotBest, p.FEN())
		}
	}
	require.Positive(t, dropped, "some file stores one side")
}

// TestOneSideRefusesEntriesTheSearchDoesNotGive: a table whose dropped
// side's entries are not what one ply of search over the other side
// gives (a generator's error, smaller tables changed since) is refused,
// never written to read back otherwise; the distances to mate and to
// zeroing are both checked.
func TestOneSideRefusesEntriesTheSearchDoesNotGive(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	m := tbtest.Material(t, v, "KRvK")
	for _, damage := range []string{"distance to mate", "distance to zeroing"} {
		made, err := gen.Generate(v, m, nil, nil)
		require.NoError(t, err)
		for idx, val := range made.Val[1] { // Black to move: the side dropped
			if val != 255 && tablebase.Decode(val).WDL != 0 {
				if damage == "distance to mate" {
					made.Val[1][idx] += 2 // mated a move later: the same outcome
				} else {
					made.DTZ[1][idx]++
				}
			}
		}
		err = made.SaveOneSide(dir)
		require.ErrorContains(t, err, "cannot be dropped", damage)
		require.NoFileExists(t, filepath.Join(dir, tablebase.FileName(v, m)), damage)
	}
}

// TestSearchedSideMustAgreeWithTheStoredOutcome changes a smaller table
// under a one-side file: the searched side's value then disagrees with
// the outcome the file stores, and the probe is an error, never the
// search's wrong answer. A damaged block of the stored outcomes is an
// error naming the table too.
func TestSearchedSideMustAgreeWithTheStoredOutcome(t *testing.T) {
	v := variants.Chess()
	dir, one := t.TempDir(), t.TempDir()
	m := tbtest.Material(t, v, "KQvKR")
	built, err := gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	dense, err := built.Dense()
	require.NoError(t, err)
	require.NoError(t, dense.SaveOneSide(one))
	for _, f := range []string{"KQvK", "KRvK"} {
		name := tablebase.FileName(v, tbtest.Material(t, v, f))
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(one, name), data, 0o644))
	}
	read, err := tablebase.NewStore(one).FindMaterial(v, m, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	// The rook takes the unguarded queen, the only winning move, for
	// whichever side's distances were dropped.
	fen, side := "K7/8/8/8/3Q4/8/8/3r3k b - - 0 1", 1
	if read.DistancesStored(1) {
		fen, side = "k7/8/8/8/3q4/8/8/3R3K w - - 0 1", 0
	}
	require.False(t, read.DistancesStored(side))
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	want, err := built.Probe(p)
	require.NoError(t, err)
	require.Equal(t, 1, want.WDL)
	got, err := read.Probe(p)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// KRvK replaced by a table of draws: the capture no longer wins.
	krk := tbtest.Material(t, v, "KRvK")
	drawn, err := gen.Generate(v, krk, nil, nil)
	require.NoError(t, err)
	for s := range drawn.Val {
		for idx, val := range drawn.Val[s] {
			if val != 255 {
				drawn.Val[s][idx], drawn.DTZ[s][idx] = 0, 0
			}
		}
	}
	require.NoError(t, drawn.Save(one))
	read, err = tablebase.NewStore(one).FindMaterial(v, m, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	_, err = read.Probe(p)
	require.ErrorIs(t, err, tablebase.ErrCorrupt, "the search through a changed KRvK no longer wins")
	require.ErrorContains(t, err, "KQvKR")

	// Every block of the searched side's outcomes damaged.
	path := filepath.Join(one, tablebase.FileName(v, m))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	blocks := (read.Geo.Size + packedBlockEntries - 1) / packedBlockEntries
	head := 37 + 1 + 2 + len(v.Name) + 2 + len(m.String()) + 4 // fixed header, stored sides, names, CRC
	index := data[head : head+16*blocks]
	first := head + len(index) + 4
	for b := range blocks {
		start := 0
		if j := side*blocks + b; j > 0 {
			start = int(binary.LittleEndian.Uint64(index[8*(j-1):]))
		}
		data[first+start] ^= 0xff
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
	read, err = tablebase.NewStore(one).FindMaterial(v, m, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	_, err = read.Probe(p)
	require.ErrorIs(t, err, tablebase.ErrCorrupt)
	require.ErrorContains(t, err, "KQvKR")
}

// packedBlockEntries is the files' block size (packed.DefaultBlockEntries).
const packedBlockEntries = 1 << 14

// TestSearchedSideReadsItsOwnSmallerTables: a caller that holds a
// memory-only finder (the engine's root, tb verify) still gets a one-side
// table's searched side, whose search reads the smaller tables its store
// has on disk.
func TestSearchedSideReadsItsOwnSmallerTables(t *testing.T) {
	v := variants.Chess()
	dir, one := t.TempDir(), t.TempDir()
	store := gen.NewStore(dir)
	m := tbtest.Material(t, v, "KQvKR")
	built, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	for _, name := range []string{"KQvK", "KRvK", "KQvKR"} {
		file, err := store.FindMaterial(v, tbtest.Material(t, v, name), tablebase.MemoryOrDisk)
		require.NoError(t, err)
		require.NoError(t, file.RepackOneSide(one))
	}
	shipped := tablebase.NewStore(one)
	read, err := shipped.FindMaterial(v, m, tablebase.MemoryOrDisk) // KQvK and KRvK stay on disk
	require.NoError(t, err)
	checked := 0
	for _, p := range tablebase.RandomWins(built, 100, 5) {
		if slices.ContainsFunc(p.LegalMoves(nil), p.IsCapture) {
			continue // a capture's table is the caller's to find
		}
		want, _, err := built.Moves(p, store.Finder(tablebase.MemoryOrDisk))
		require.NoError(t, err)
		got, _, err := read.Moves(p, shipped.Finder(tablebase.MemoryOnly))
		require.NoError(t, err, p.FEN())
		require.Equal(t, want, got, p.FEN())
		checked++
	}
	require.Positive(t, checked)
}
