package tablebase_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestSaveLoadAndDamage: a saved table loads with the same values; a
// damaged file is refused as corrupt, and a fresh store says so and
// regenerates it; a file of another material under the name is refused.
// Under -short on the 4×4 board: chess's KRvK, built five times over,
// was most of the test's time, and the files, checks and regenerations
// are the same on a table built in a millisecond.
func TestSaveLoadAndDamage(t *testing.T) {
	v, fen := variants.Chess(), "7k/8/8/8/8/8/8/R5K1 w - - 0 1"
	if testing.Short() {
		v, fen = tbtest.Tiny(t), "3k/4/4/R2K w - - 0 1"
	}
	dir := t.TempDir()
	m, err := tablebase.ParseMaterial(v, "KRvK")
	require.NoError(t, err)
	var logs []string
	store := gen.NewStore(dir)
	store.Log = func(s string) { logs = append(logs, s) }
	tb, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	path := filepath.Join(dir, tablebase.FileName(v, m))
	require.FileExists(t, path)

	loaded, err := tablebase.Load(dir, v, m)
	require.NoError(t, err)
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	a, _ := tb.Probe(p)
	b, _ := loaded.Probe(p)
	require.Equal(t, a, b)
	require.Equal(t, 1, a.WDL, "a win, not a value of nothing")

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for name, damage := range map[string][]byte{
		"flipped byte": append(append([]byte{}, data[:len(data)-10]...), append([]byte{data[len(data)-10] ^ 1}, data[len(data)-9:]...)...),
		"truncated":    data[:len(data)/2],
		"trailing":     append(append([]byte{}, data...), 0),
		"not a table":  []byte("hello"),
	} {
		require.NoError(t, os.WriteFile(path, damage, 0o644))
		damaged, err := tablebase.Load(dir, v, m)
		if err == nil {
			// A damaged block is found when it is read: a probe
			// then fails rather than answer.
			_, err = damaged.Dense()
		}
		require.True(t, errors.Is(err, tablebase.ErrCorrupt), "%s: %v", name, err)

		// A fresh store reports it and regenerates it.
		logs = nil
		fresh := gen.NewStore(dir)
		fresh.Log = func(s string) { logs = append(logs, s) }
		again, err := fresh.Build(v, m, tablebase.Hooks{})
		require.NoError(t, err, name)
		c, _ := again.Probe(p)
		require.Equal(t, a, c, name)
		require.NotEmpty(t, logs, name)
		require.Contains(t, logs[0], "regenerating", name)
	}
	// A table of another material under this name is not trusted either.
	other, err := tablebase.ParseMaterial(v, "KQvK")
	require.NoError(t, err)
	_, err = store.Build(v, other, tablebase.Hooks{})
	require.NoError(t, err)
	require.NoError(t, os.Rename(filepath.Join(dir, tablebase.FileName(v, other)), path))
	_, err = tablebase.Load(dir, v, m)
	require.True(t, errors.Is(err, tablebase.ErrCorrupt), "%v", err)
}

func TestUnsupported(t *testing.T) {
	v := variants.Chess()
	for material, want := range map[string]string{
		"KQRBNvK": "at most 5",
		"KBN":     "want the form",
		"KZvK":    "no piece 'Z'",
		"QvK":     "royal piece",
	} {
		_, err := tablebase.ParseMaterial(v, material)
		require.ErrorContains(t, err, want, material)
	}
	// Rules the generator does not model are refused by name: explosions,
	// hands, hoppers, the Asian games' rules (counting in makruk,
	// stalemate losing in xiangqi and janggi), and pawn rules.
	for _, c := range []struct{ variant, material, want string }{
		{"atomic", "KQvK", "does not model explosions on capture (blastOnCapture)"},
		{"crazyhouse", "KQvK", "does not model pieces in hand: drops"},
		{"grasshopper", "KGvK", "does not model hoppers and cannons"},
		{"makruk", "KRvK", "does not model counting rules"},
		{"xiangqi", "KRvK", "does not model stalemate that does not draw"},
		{"janggi", "KRvK", "does not model stalemate that does not draw"},
		{"shogi", "KRvK", "does not model stalemate that does not draw"},
		{"grand", "KPvK", "does not model optional promotion"},
		{"wildebeest", "KPvK", "does not model optional promotion"},
	} {
		vr, err := variants.Lookup(c.variant)
		require.NoError(t, err)
		requireRefused(t, vr, c.material, c.want)
	}
	// A piece confined to a palace, in a user variant whose other rules
	// the generator models.
	cat := variants.Builtin()
	require.NoError(t, cat.LoadFile(writeFile(t, "palace.ini", "[palace]\nking = k:W\nmobilityRegionWhiteKing = d1 e1 f1 d2 e2 f2\nmobilityRegionBlackKing = d8 e8 f8 d7 e7 f7\n")))
	palace, err := cat.Lookup("palace")
	require.NoError(t, err)
	requireRefused(t, palace, "KRvK", "confined to a region")
}

// requireRefused asserts that the store refuses to build a material's
// table with an error containing want.
func requireRefused(t *testing.T, v *engine.Variant, material, want string) {
	t.Helper()
	m, err := tablebase.ParseMaterial(v, material)
	require.NoError(t, err, v.Name)
	_, err = gen.NewStore(t.TempDir()).Build(v, m, tablebase.Hooks{})
	require.ErrorContains(t, err, want, v.Name)
}

// chessTables is the chess tables of this test binary, each generated
// once: the tests of stores start from their files.
var chessTables = tbtest.NewTables(func(testing.TB) *engine.Variant { return variants.Chess() })

// TestBestMovesKeepTheDistance: every best move of a won position leads to
// a position lost one ply sooner, and colours may be swapped. Under -short
// KPvK (with its promotions' tables) stands in for KBNvK: the same store,
// symmetries and moves, on tables made in a tenth of a second where KBNvK
// takes four.
func TestBestMovesKeepTheDistance(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	won, swapped := "8/8/8/8/8/8/2k5/KNB5 w - - 0 1", "knb5/2K5/8/8/8/8/8/8 b - - 0 1"
	said, plies := "win: mate in 33", 65
	if testing.Short() {
		// Gaviota's 45 plies (cmd/chimera's TestKBNKOutOfTheBox).
		won, swapped = "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", "4k3/4p3/2K5/8/8/8/8/8 b - - 0 1"
		said, plies = "win: mate in 23", 45
		chessTables.SaveTo(t, dir, "KPvK", "KQvK", "KBvK", "KNvK") // KRvK is built here
	} else {
		chessTables.SaveTo(t, dir, "KBNvK", "KBvK", "KNvK") // KRvK is built here
	}
	store := gen.NewStore(dir)
	for _, fen := range []string{
		won,
		swapped, // the same, colours swapped and ranks mirrored
		"7k/8/8/8/8/8/8/R5K1 b - - 0 1",
	} {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		tb, err := store.Find(p, tablebase.Build)
		require.NoError(t, err, fen)
		r, err := tb.Probe(p)
		require.NoError(t, err)
		_, best, err := tb.Moves(p, store.Finder(tablebase.Build))
		require.NoError(t, err)
		require.NotEmpty(t, best)
		for _, m := range best {
			p.Make(m)
			child, err := tb.Probe(p)
			require.NoError(t, err)
			p.Unmake()
			if r.WDL > 0 {
				require.Equal(t, -(r.DTM - 1), child.DTM, "%s %s", fen, v.UCI(m))
			} else {
				require.Equal(t, -r.DTM-1, child.DTM, "%s %s", fen, v.UCI(m))
			}
		}
	}
	p, _ := v.ParseFEN(won)
	r, _ := tbtest.Table(t, store, p).Probe(p)
	require.Equal(t, said, r.String())
	q, _ := v.ParseFEN(swapped)
	r, _ = tbtest.Table(t, store, q).Probe(q)
	require.Equal(t, plies, r.DTM)
}

// TestRootProbeUsesOnlyTablesInMemory: the root's best move needs every
// child's table; one not in memory makes the probe decline (the builder
// prepares it), never a read or a build on the search's clock. Under
// -short KPvK's promotions stand in for KBNvK's captures: moves into
// other tables all the same, from a table made in a tenth of a second.
func TestRootProbeUsesOnlyTablesInMemory(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	material, fen, move := "KBNvK", "8/8/8/8/8/8/2k5/KNB5 b - - 0 1", "c2c1" // Kxc1 leads to KNvK
	children := []string{"KNvK", "KBvK"}
	if testing.Short() {
		material, fen, move = "KPvK", "8/4P3/8/8/8/2k5/8/4K3 w - - 0 1", "e7e8q" // e8=Q leads to KQvK
		children = []string{"KQvK", "KRvK", "KBvK", "KNvK"}
	}
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	chessTables.SaveTo(t, dir, append([]string{material}, children...)...) // as a store building it leaves them

	store := gen.NewStore(dir)
	m, err := tablebase.ParseMaterial(v, material)
	require.NoError(t, err)
	_, err = store.Build(v, m, tablebase.Hooks{}) // only the material's own table is read
	require.NoError(t, err)
	prober := store.Prober()
	// Inside the tree one table is enough, once its block is decoded (a
	// probe that finds it not yet decoded is a miss, the block decoded
	// in the background).
	tbtest.WaitFor(t, func() bool {
		_, _, _, ok := prober.Probe(p, false)
		return ok
	}, "inside the tree one table is enough")
	_, _, _, ok := prober.Probe(p, true)
	require.False(t, ok, "the root declines while %s is not in memory", children[0])
	p.Make(mustMove(t, p, move))
	_, err = store.Find(p, tablebase.MemoryOnly)
	require.ErrorIs(t, err, tablebase.ErrNotInMemory, "the probe read or built nothing")
	p.Unmake()

	for _, child := range children {
		m, err := tablebase.ParseMaterial(v, child)
		require.NoError(t, err)
		_, err = store.Build(v, m, tablebase.Hooks{})
		require.NoError(t, err)
	}
	_, _, best, ok := prober.Probe(p, true)
	require.True(t, ok)
	require.NotEqual(t, engine.NoMove, best)
}

func mustMove(t *testing.T, p *engine.Position, uci string) engine.Move {
	t.Helper()
	m, err := p.ParseUCI(uci)
	require.NoError(t, err)
	return m
}

func TestMaterialNames(t *testing.T) {
	v := variants.Chess()
	m, err := tablebase.ParseMaterial(v, "knbvk")
	require.NoError(t, err)
	require.Equal(t, "KBNvK", m.String())
	capa, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	m, err = tablebase.ParseMaterial(capa, "KAvK")
	require.NoError(t, err)
	require.Equal(t, "KAvK", m.String())
	require.True(t, strings.HasSuffix(tablebase.FileName(capa, m), "capablanca-KAvK.ctb"))
}

// BenchmarkProbe measures one probe of a KBNK table: generated (its
// entries in memory), read from its file (a block in the cache: warm), and
// opened afresh for the probe (cold: header, index and block read, the
// block decoded).
func BenchmarkProbe(b *testing.B) {
	v := variants.Chess()
	dir := b.TempDir()
	store := gen.NewStore(dir)
	p, err := v.ParseFEN("8/8/8/8/8/8/2k5/KNB5 w - - 0 1")
	require.NoError(b, err)
	tb, err := store.Find(p, tablebase.Build)
	require.NoError(b, err)
	prober := store.Prober()
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			tb.Probe(p)
		}
	})
	b.Run("search-prober", func(b *testing.B) {
		for b.Loop() {
			prober.Probe(p, false)
		}
	})
	files := gen.NewStore(dir)
	read, err := files.Find(p, tablebase.MemoryOrDisk)
	require.NoError(b, err)
	b.Run("file-warm", func(b *testing.B) {
		for b.Loop() {
			read.Probe(p)
		}
	})
	fileProber := files.Prober()
	b.Run("search-prober-file-warm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fileProber.Probe(p, false)
		}
	})
	b.Run("file-cold", func(b *testing.B) {
		for b.Loop() {
			t, err := tablebase.Load(dir, v, tb.Material)
			if err != nil {
				b.Fatal(err)
			}
			t.Probe(p)
		}
	})
	// The same tables storing one side's distances (White to move's):
	// Black to move is searched one ply.
	oneDir := b.TempDir()
	for _, name := range []string{"KBNvK", "KBvK", "KNvK"} {
		t, err := files.FindMaterial(v, tbtest.Material(b, v, name), tablebase.MemoryOrDisk)
		require.NoError(b, err)
		dense, err := t.Dense()
		require.NoError(b, err)
		require.NoError(b, dense.SaveOneSide(oneDir))
	}
	oneSide, err := tablebase.NewStore(oneDir).Find(p, tablebase.MemoryOrDisk)
	require.NoError(b, err)
	require.False(b, oneSide.DistancesStored(1))
	searched, err := v.ParseFEN("8/8/8/3k4/8/8/8/KNB5 b - - 0 1")
	require.NoError(b, err)
	b.Run("one-side-stored-warm", func(b *testing.B) {
		for b.Loop() {
			oneSide.Probe(p)
		}
	})
	b.Run("one-side-searched-warm", func(b *testing.B) {
		for b.Loop() {
			oneSide.Probe(searched)
		}
	})
	b.Run("one-side-searched-cold", func(b *testing.B) {
		for b.Loop() {
			t, err := tablebase.NewStore(oneDir).Find(searched, tablebase.MemoryOrDisk) // its own cache
			if err != nil {
				b.Fatal(err)
			}
			if _, err := t.Probe(searched); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A table not in memory: the in-tree probe's answer for every node of
	// an ending whose table is still missing.
	missing := gen.NewStore(b.TempDir()).Prober()
	b.Run("search-prober-missing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			missing.Probe(p, false)
		}
	})
}

// writeFile writes a file in a test's temporary directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// TestLookupsDoNotWaitForGenerations: a lookup that may not build (a
// server's request, the search's root, Await's first look) is answered at
// once while the table is being generated, instead of waiting for it; a
// lookup that may build waits and gets the table.
func TestLookupsDoNotWaitForGenerations(t *testing.T) {
	v := variants.Chess()
	store := gen.NewStore(t.TempDir())
	m := tbtest.Material(t, v, "KRvK")
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	done := make(chan error)
	go func() {
		_, err := store.Build(v, m, tablebase.Hooks{Pause: func() bool {
			once.Do(func() { close(started) })
			<-release
			return true
		}})
		done <- err
	}()
	<-started
	_, err := store.FindMaterial(v, m, tablebase.MemoryOrDisk)
	require.ErrorIs(t, err, tablebase.ErrGenerating)
	p, err := v.ParseFEN("7k/8/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	_, err = store.Find(p, tablebase.MemoryOrDisk)
	require.ErrorIs(t, err, tablebase.ErrGenerating)
	waited := make(chan error)
	go func() {
		_, err := store.FindMaterial(v, m, tablebase.Build)
		waited <- err
	}()
	close(release)
	require.NoError(t, <-done)
	require.NoError(t, <-waited)
	_, err = store.Find(p, tablebase.MemoryOnly)
	require.NoError(t, err)
}

// TestMemoryBudgetEvictsLeastRecentlyUsed fills a store past its budget:
// the table looked up least recently goes, the others stay, and the
// dropped one is read from its file again when asked for, same values.
func TestMemoryBudgetEvictsLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	v := variants.Chess()
	builder := gen.NewStore(dir)
	sizes := map[string]int64{}
	for _, name := range []string{"KQvK", "KRvK", "KBvK"} {
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		_, err = builder.Build(v, m, tablebase.Hooks{})
		require.NoError(t, err)
		tb, err := tablebase.Load(dir, v, m)
		require.NoError(t, err)
		sizes[name] = tb.Bytes()
	}
	store := gen.NewStore(dir)
	store.MemoryBudget = sizes["KQvK"] + sizes["KRvK"] // room for two
	find := func(name string) *tablebase.Table {
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		tb, err := store.FindMaterial(v, m, tablebase.MemoryOrDisk)
		require.NoError(t, err)
		return tb
	}
	inMemory := func(name string) bool {
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		_, err = store.FindMaterial(v, m, tablebase.MemoryOnly)
		return err == nil
	}
	kq := find("KQvK")
	find("KRvK")
	find("KQvK") // KRvK is now the least recently used
	find("KBvK")
	tables, bytes, evicted := store.MemoryUse()
	require.Equal(t, 2, tables)
	require.Equal(t, 1, evicted)
	require.LessOrEqual(t, bytes, store.MemoryBudget)
	require.False(t, inMemory("KRvK"), "the least recently used table stays in memory")
	require.True(t, inMemory("KQvK"))
	require.True(t, inMemory("KBvK"))

	// Asked for again, the dropped table comes back from its file.
	p, err := v.ParseFEN("8/8/8/4k3/8/8/8/KR6 w - - 0 1")
	require.NoError(t, err)
	again, err := store.Find(p, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	r, err := again.Probe(p)
	require.NoError(t, err)
	require.Equal(t, 1, r.WDL)
	require.Same(t, again, find("KRvK"), "a table in memory is the same value")
	_, _, evicted = store.MemoryUse()
	require.Equal(t, 2, evicted)
	require.False(t, inMemory("KQvK"), "KQvK, now the least recently used, made room")
	require.NotSame(t, kq, find("KQvK"), "read again from its file")
}

// TestBuiltTablesAreReadFromTheirFiles: a store that generates a table
// and saves it keeps the file's table, read block by block (its index in
// memory, not its entries), so that building a plan of many tables does
// not hold them all whole; it answers as the generation did.
func TestBuiltTablesAreReadFromTheirFiles(t *testing.T) {
	v := variants.Chess()
	store := gen.NewStore(t.TempDir())
	m := tbtest.Material(t, v, "KQvKR")
	if testing.Short() {
		m = tbtest.Material(t, v, "KRvK")
	}
	tb, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	_, bytes, _ := store.MemoryUse()
	entries := int64(tb.Geo.Size)
	require.Less(t, bytes, entries/8, "tables in memory: their indexes only")
	require.False(t, tb.MarksNonPositions(), "the file's table")
	made, err := gen.Generate(v, m, func(c tablebase.Material) (*tablebase.Table, error) {
		return store.FindMaterial(v, c, tablebase.MemoryOrDisk)
	}, nil)
	require.NoError(t, err)
	for _, p := range tablebase.RandomWins(made, 100, 3) {
		want, err := made.Probe(p)
		require.NoError(t, err)
		got, err := tb.Probe(p)
		require.NoError(t, err)
		require.Equal(t, want, got, p.FEN())
	}
}

// TestStoreWithoutGeneratorOnlyReads: a store given no generator reads
// the files it has and refuses to build, to list what a build would
// generate, to plan and to cost a generation, each with ErrNoGenerator.
func TestStoreWithoutGeneratorOnlyReads(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	m := tbtest.Material(t, v, "KQvK")
	_, err := gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)

	reader := tablebase.NewStore(dir)
	_, err = reader.Build(v, m, tablebase.Hooks{}) // its file is there: read
	require.NoError(t, err)
	missing := tbtest.Material(t, v, "KRvK")
	_, err = reader.Build(v, missing, tablebase.Hooks{})
	require.ErrorIs(t, err, tablebase.ErrNoGenerator)
	_, err = reader.ToBuild(v, missing)
	require.ErrorIs(t, err, tablebase.ErrNoGenerator)
	_, err = reader.Plan(v, []tablebase.Material{missing})
	require.ErrorIs(t, err, tablebase.ErrNoGenerator)
	_, err = reader.GenerationCost(v, missing)
	require.ErrorIs(t, err, tablebase.ErrNoGenerator)
}

// TestStoreFiles: Files lists the table files of the store's directory
// whose variant the lookup knows, with their sizes, and nothing else.
func TestStoreFiles(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	store := gen.NewStore(dir)
	for _, name := range []string{"KQvK", "KRvK"} {
		_, err := store.Build(v, tbtest.Material(t, v, name), tablebase.Hooks{})
		require.NoError(t, err)
	}
	for _, other := range []string{"notes.txt", "chess-KXvK.ctb", "nosuchvariant-KQvK.ctb"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, other), []byte("x"), 0o644))
	}
	files := store.Files(variants.Lookup)
	var names []string
	for _, f := range files {
		require.Same(t, v, f.Variant)
		size, ok := store.FileSize(v, f.Material)
		require.True(t, ok)
		require.Equal(t, size, f.Size)
		names = append(names, f.Material.String())
	}
	require.ElementsMatch(t, []string{"KQvK", "KRvK"}, names)
}

// TestTreeProbesOfOneSideTables: inside the search's tree a table that
// stores one side's distances answers the stored side, and the other
// side's draws (their outcomes are stored); the other side's wins and
// losses are misses there (each would be a search of its moves), and are
// answered exactly at the root.
func TestTreeProbesOfOneSideTables(t *testing.T) {
	v := variants.Chess()
	dir, one := t.TempDir(), t.TempDir()
	m := tbtest.Material(t, v, "KRvK")
	built, err := gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	dense, err := built.Dense()
	require.NoError(t, err)
	require.NoError(t, dense.SaveOneSide(one))
	store := tablebase.NewStore(one)
	read, err := store.FindMaterial(v, m, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	require.True(t, read.DistancesStored(0), "white to move's distances are the smaller")
	require.False(t, read.DistancesStored(1))
	prober := store.Prober()
	position := func(fen string) *engine.Position {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		return p
	}
	stored := position("8/8/8/3k4/8/8/8/R3K3 w - - 0 1")
	tbtest.WaitFor(t, func() bool {
		wdl, _, _, ok := prober.Probe(stored, false)
		return ok && wdl == 1
	}, "the stored side is answered once its block is decoded")
	draw := position("8/8/8/8/8/8/1k6/1R4K1 b - - 0 1") // Kxb1
	tbtest.WaitFor(t, func() bool {
		wdl, _, _, ok := prober.Probe(draw, false)
		return ok && wdl == 0
	}, "a draw of the other side is answered by its outcome")
	loss := position("8/8/8/3k4/8/8/8/R3K3 b - - 0 1")
	for range 100 {
		_, _, _, ok := prober.Probe(loss, false)
		require.False(t, ok, "a loss of the other side is no answer inside the tree")
	}
	want, err := built.Probe(loss)
	require.NoError(t, err)
	wdl, dtm, best, ok := prober.Probe(loss, true)
	require.True(t, ok, "the root searches it")
	require.Equal(t, want.WDL, wdl)
	require.Equal(t, want.DTM, dtm)
	require.NotEqual(t, engine.NoMove, best)

	// The searched side's statistics: its distances rebuilt first, a
	// rebuild that stops when told to.
	st, err := read.StatsUntil(1, nil, nil)
	require.NoError(t, err)
	require.Equal(t, built.Stats(1, nil), st)
	_, err = read.StatsUntil(1, nil, func() bool { return false })
	require.ErrorIs(t, err, tablebase.ErrAbandoned)
}
