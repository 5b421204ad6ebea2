package tbbuild_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/tbbuild"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// logLines collects a builder's log.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }

func (l *logLines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func TestBuilderPlan(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	b := tbbuild.New(gen.NewStore(dir))
	defer b.Close()
	for fen, want := range map[string][]string{
		// The start position: KBNvK only, the mission's ending.
		variants.ChessFEN: {"KBNvK"},
		// Five pieces: KBNvK, then the endings of up to four pieces one
		// capture away, then two.
		"8/8/4k3/8/3r4/8/2B5/K1N5 w - - 0 1": {"KBNvK", "KRvKB", "KRvKN", "KRvK", "KBvK", "KNvK"},
		// Pawns are pieces like the others.
		"8/8/4k3/8/8/3p4/8/KQ6 w - - 0 1": {"KBNvK", "KQvKP", "KPvK", "KQvK"},
	} {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		require.Equal(t, want, b.Plan(v, p), fen)
	}
	capa, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	require.Equal(t, []string{"KBNvK"}, b.Plan(capa, nil))
	// Wildebeest's pawns triple-step, which the generator cannot un-move:
	// its pawn endings are not planned.
	wb, err := variants.Lookup("wildebeest")
	require.NoError(t, err)
	wp, err := wb.ParseFEN("11/11/11/11/5k5/11/11/2p8/11/K1C8 w - - 0 1")
	require.NoError(t, err)
	require.Equal(t, []string{"KBNvK", "KCvK"}, b.Plan(wb, wp))
	atomic, err := variants.Lookup("atomic")
	require.NoError(t, err)
	require.Empty(t, b.Plan(atomic, nil), "variants the generator cannot model plan nothing")
}

// TestBuilderPausesAndAwaits: a paused builder builds nothing until it is
// resumed, or until a search awaits a table; both log start and end.
// Under -short on Gardner's 5x5 board, whose KBNvK (the plan) builds in a
// twentieth of chess's time.
func TestBuilderPausesAndAwaits(t *testing.T) {
	v, fen := variants.Chess(), "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"
	if testing.Short() {
		v, fen = gardner(t), "5/5/2k2/5/KQ3 w - - 0 1"
	}
	dir := t.TempDir()
	store := gen.NewStore(dir)
	b := tbbuild.New(store)
	defer b.Close()
	var log logLines
	b.Log = log.add
	held := make(chan struct{}, 1)
	tbbuild.OnHeld(b, func() {
		select {
		case held <- struct{}{}:
		default:
		}
	})
	b.Pause()
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	b.Prepare(v, p)
	m, missing := b.Missing(p)
	require.True(t, missing)
	require.Equal(t, "KQvK", m.String())
	require.Positive(t, b.Estimate(v, m))
	// The builder reaches its wait with the plan queued, having built
	// nothing (a builder that ignored the pause would build instead).
	select {
	case <-held:
	case <-time.After(time.Minute): // guards a hang only
		t.Fatal("the paused builder never waited with its plan queued")
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries, "built while paused")

	require.NoError(t, b.Await(context.Background(), v, m))
	_, missing = b.Missing(p)
	require.False(t, missing)
	require.Contains(t, log.text(), "tablebase: building "+v.Name+" KQvK")
	require.Contains(t, log.text(), "tablebase: built "+v.Name+" KQvK in")

	// Resumed, it goes on with its plan (KBNvK first).
	b.Resume()
	tbtest.WaitFor(t, func() bool { return strings.Contains(log.text(), "built "+v.Name+" KBNvK") }, "the plan was not built")
	_, err = os.Stat(filepath.Join(dir, v.Name+"-KBNvK.ctb"))
	require.NoError(t, err)
}

// TestReadOnlyBuilderAwaitsFiles: a builder that builds nothing
// (TablebaseBuild 0) still reports a root position's table as missing
// when its file is there, so a search waits for the read (the engine
// used to search its first move without a table on disk); a table with
// no file, or whose file fails to load, is not missing: nothing can
// bring it.
func TestReadOnlyBuilderAwaitsFiles(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	tbtest.BuildIn(t, dir, v, "KQvK", "KRvK")
	// KRvK's file made for another variant's rules: stale.
	require.NoError(t, os.Rename(filepath.Join(dir, v.Name+"-KRvK.ctb"), filepath.Join(dir, v.Name+"-KNvK.ctb")))
	b := tbbuild.New(tablebase.NewStore(dir))
	defer b.Close()
	b.MaxPieces = 0
	var log logLines
	b.Log = log.add
	b.Pause()
	queen, err := v.ParseFEN("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")
	require.NoError(t, err)
	m, missing := b.Missing(queen)
	require.True(t, missing, "a file to read")
	require.NoError(t, b.Await(context.Background(), v, m))
	_, missing = b.Missing(queen)
	require.False(t, missing, "read")

	rook, err := v.ParseFEN("8/8/8/8/8/2k5/8/KR6 w - - 0 1")
	require.NoError(t, err)
	_, missing = b.Missing(rook)
	require.False(t, missing, "no file, and nothing is built")

	knight, err := v.ParseFEN("8/8/8/8/2k5/8/8/KN6 w - - 0 1")
	require.NoError(t, err)
	m, missing = b.Missing(knight)
	require.True(t, missing, "a file, not read yet")
	err = b.Await(context.Background(), v, m)
	require.ErrorIs(t, err, tablebase.ErrCorrupt, "the file's own reason")
	_, missing = b.Missing(knight)
	require.False(t, missing, "a file that failed to load is not read again on every move")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "nothing built")
}

// gardner is Gardner's minichess: KBNvK on its 5x5 board has 93,750
// entries a side to move, chess's 2.6 million.
func gardner(t *testing.T) *engine.Variant {
	t.Helper()
	v, err := variants.Lookup("gardner")
	require.NoError(t, err)
	return v
}

func TestBuilderCaps(t *testing.T) {
	v := variants.Chess()
	b := tbbuild.New(gen.NewStore(t.TempDir()))
	defer b.Close()
	var log logLines
	b.Log = log.add
	b.MaxMemory = 1 << 20
	m, err := tablebase.ParseMaterial(v, "KBNvK")
	require.NoError(t, err)
	require.Error(t, b.Await(context.Background(), v, m))
	require.Contains(t, log.text(), "over the cap of 1 MiB")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, b.Await(ctx, v, m), context.Canceled)
}

// TestBuilderCloseAbandons: Close stops a build under way and returns when
// nothing more will be written.
func TestBuilderCloseAbandons(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	b := tbbuild.New(gen.NewStore(dir))
	var log logLines
	b.Log = log.add
	b.Prepare(v, nil) // KBNvK
	tbtest.WaitFor(t, func() bool { return strings.Contains(log.text(), "building chess KBNvK") }, "no build started")
	b.Close()
	require.True(t, tbbuild.Stopped(b), "Close returned with a writer still running")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, strings.HasPrefix(e.Name(), ".tmp-"), "a half-written file is left: %s", e.Name())
	}
	b.Close() // twice is harmless
}

// TestFivePieceTablesAreReadNotBuilt: a builder that builds up to four
// pieces reads a five-piece table whose file exists (tb generate made it)
// and plans it; the search's prober then answers it in the tree. A
// five-piece table without a file is not built.
func TestFivePieceTablesAreReadNotBuilt(t *testing.T) {
	v := tbtest.Tiny(t)
	dir := t.TempDir()
	m, err := tablebase.ParseMaterial(v, "KRRvKR")
	require.NoError(t, err)
	_, err = gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)

	store := gen.NewStore(dir)
	b := tbbuild.New(store)
	defer b.Close()
	prober := store.Prober()
	prober.Missing = b.Want
	p, err := v.ParseFEN("3k/2r1/1R2/R2K w - - 0 1")
	require.NoError(t, err)
	require.Contains(t, b.Plan(v, p), "KRRvKR")
	_, _, _, ok := prober.Probe(p, false)
	require.False(t, ok, "not in memory yet: the tree does not read files")
	_, _, _, ok = prober.Probe(p, true) // the root asks for it
	require.False(t, ok)
	tbtest.WaitFor(t, func() bool { _, _, _, ok := prober.Probe(p, false); return ok }, "the five-piece file was not read")

	// Without a file, nothing is built.
	q, err := v.ParseFEN("3k/2n1/1R2/R2K w - - 0 1")
	require.NoError(t, err)
	require.NotContains(t, b.Plan(v, q), "KRRvKN")
	prober.Probe(q, true)
	b.Close()
	require.NoFileExists(t, filepath.Join(dir, tablebase.FileName(v, tbtest.Material(t, v, "KRRvKN"))))
}

// TestSearchUsesTablebase: with KBNK on the board the search plays a
// DTM-optimal move at once and reports the true mate distance; a missing
// table is reported to the builder, which builds it in the background.
// Under -short KBNK is played on Gardner's 5x5 board, whose table builds
// in a twentieth of chess's time (mate in 12, as tb probe says).
func TestSearchUsesTablebase(t *testing.T) {
	v, fen, mate := variants.Chess(), "8/8/8/8/8/8/2k5/KNB5 w - - 0 1", 33
	if testing.Short() {
		v, fen, mate = gardner(t), "5/5/5/2k2/KNB2 w - - 0 1", 12
	}
	store := gen.NewStore(t.TempDir())
	prober := store.Prober()
	s := search.New(search.Options{Prober: prober})
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)

	// Without a builder nothing is built.
	r := s.Search(context.Background(), p, search.Limits{Depth: 2}, nil)
	require.False(t, r.Score.IsMate())
	_, _, _, ok := prober.Probe(p, true)
	require.False(t, ok)

	// With one, the table is built in the background; the search goes on
	// without it meanwhile.
	builder := tbbuild.New(store)
	defer builder.Close()
	prober.Missing = builder.Want
	r = s.Search(context.Background(), p, search.Limits{Depth: 2}, nil)
	require.False(t, r.Score.IsMate())
	tbtest.WaitFor(t, func() bool { _, _, _, ok := prober.Probe(p, true); return ok }, "KBNvK was not built in the background")

	var infos []search.Info
	r = s.Search(context.Background(), p, search.Limits{Depth: 20}, func(i search.Info) { infos = append(infos, i) })
	tb, err := store.Find(p, tablebase.Build)
	require.NoError(t, err)
	require.Equal(t, mate, r.Score.MateMoves())
	require.Equal(t, "mate "+strconv.Itoa(mate), r.Score.String())
	_, best, err := tb.Moves(p, store.Finder(tablebase.Build))
	require.NoError(t, err)
	require.True(t, slices.Contains(best, r.Best))
	require.NotEmpty(t, infos)
	require.Positive(t, infos[len(infos)-1].TBHits)

	// A three-piece table is built when first met.
	v = variants.Chess()
	q, err := v.ParseFEN("7k/8/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	s.Search(context.Background(), q, search.Limits{Depth: 1}, nil)
	tbtest.WaitFor(t, func() bool { _, _, _, ok := prober.Probe(q, true); return ok }, "KRvK was not built in the background")
	r = s.Search(context.Background(), q, search.Limits{Depth: 3}, nil)
	require.Equal(t, 10, r.Score.MateMoves())
}

// TestStaleFilesAreRebuilt: a file made for another definition of the
// variant is not read into the engine: the builder builds it again.
func TestStaleFilesAreRebuilt(t *testing.T) {
	dir := t.TempDir()
	custom := func(betza string) *engine.Variant {
		cat := variants.Builtin()
		require.NoError(t, cat.Load("custom.ini", []byte("[custom:chess]\ncustomPiece1 = a:"+betza+"\n")))
		v, err := cat.Lookup("custom")
		require.NoError(t, err)
		return v
	}
	rook := custom("R")
	_, err := gen.NewStore(dir).Build(rook, tbtest.Material(t, rook, "KAvK"), tablebase.Hooks{})
	require.NoError(t, err)

	knight := custom("N")
	store := gen.NewStore(dir)
	b := tbbuild.New(store)
	defer b.Close()
	// Its estimate is a build's, not a read's: the engine must not wait
	// on the clock for what it takes to be a file read.
	fresh := tbbuild.New(gen.NewStore(dir))
	defer fresh.Close()
	read := fresh.Estimate(rook, tbtest.Material(t, rook, "KAvK"))
	require.Greater(t, b.Estimate(knight, tbtest.Material(t, knight, "KAvK")), 4*read)
	var log logLines
	b.Log = log.add
	m := tbtest.Material(t, knight, "KAvK")
	b.Want(knight, m)
	tbtest.WaitFor(t, func() bool { return strings.Contains(log.text(), "built custom KAvK") }, "the stale table was not rebuilt")
	require.Contains(t, log.text(), "made for another definition of custom")
	p, err := knight.ParseFEN("8/8/8/8/4k3/8/8/A3K3 w - - 0 1")
	require.NoError(t, err)
	tb, err := store.Find(p, tablebase.MemoryOnly)
	require.NoError(t, err)
	r, err := tb.Probe(p)
	require.NoError(t, err)
	require.Zero(t, r.WDL, "a knight does not mate")
}

// TestDiskBudget: the tables the builder builds stay within MaxDisk: the
// one it built that was used least recently is removed to make room, a
// table it did not build (a user's) neither counts nor is ever removed,
// and each build says what it wrote.
func TestDiskBudget(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	tbtest.BuildIn(t, dir, v, "KNNvK") // a user's

	b := tbbuild.New(gen.NewStore(dir))
	defer b.Close()
	b.MaxDisk = 50 << 10
	var log logLines
	b.Log = log.add
	for _, name := range []string{"KRvK", "KQvK", "KBvK"} {
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		require.NoError(t, b.Await(context.Background(), v, m), name)
		require.Contains(t, log.text(), "tablebase: wrote chess-"+name+".ctb", name)
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, "chess-"+name+".ctb"))
		return err == nil
	}
	require.False(t, exists("KRvK"), "the least recently used table the engine built made room")
	require.True(t, exists("KQvK"))
	require.True(t, exists("KBvK"))
	require.True(t, exists("KNNvK"), "a user's table stays")
	require.True(t, exists("KNvK"), "a user's table stays")
	require.Contains(t, log.text(), "tablebase: removed chess-KRvK.ctb")

	// Nothing fits in a budget smaller than the table: it is not built.
	b.MaxDisk = 1
	m, err := tablebase.ParseMaterial(v, "KPvK")
	require.NoError(t, err)
	require.Error(t, b.Await(context.Background(), v, m))
	require.Regexp(t, `tablebase: chess KPvK not built: needs about .* \(TablebaseDisk\)`, log.text())
	require.False(t, exists("KPvK"))
	b.MaxDisk = 40 << 10
	m, err = tablebase.ParseMaterial(v, "KBNvK")
	require.NoError(t, err)
	require.Error(t, b.Await(context.Background(), v, m))
	require.True(t, exists("KQvK") && exists("KBvK"), "nothing removed for a table that could never fit")
	require.True(t, exists("KNNvK"), "a user's table stays")
}
