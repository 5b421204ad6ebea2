package explorer_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// chessTables is the chess tables of this test binary, each generated
// once: most tests start from KQvK, which each used to generate anew.
var chessTables = tbtest.NewTables(func(testing.TB) *engine.Variant { return variants.Chess() })

// newServer returns an explorer over a fresh store in a temporary
// directory, with the chess tables named built first: their files and
// those of the tables they lead into are written from chessTables and
// read by the store, which leaves it as building them would have.
func newServer(t testing.TB, tables ...string) (*explorer.Server, *tablebase.Store) {
	t.Helper()
	dir := t.TempDir()
	store := gen.NewStore(dir)
	chess := variants.Chess()
	var targets []tablebase.Material
	for _, name := range tables {
		m, err := tablebase.ParseMaterial(chess, name)
		require.NoError(t, err)
		targets = append(targets, m)
	}
	if len(targets) > 0 {
		plan, err := store.Plan(chess, targets)
		require.NoError(t, err)
		for _, e := range plan {
			chessTables.SaveTo(t, dir, e.Material.String())
			_, err = store.Build(chess, e.Material, tablebase.Hooks{}) // reads the file
			require.NoError(t, err)
		}
	}
	// No per-client limits: a test asks for many tables from one address.
	srv := explorer.New(explorer.Config{Catalogue: variants.Builtin(), Store: store, ClientInterval: -1, Log: func(string) {}})
	t.Cleanup(srv.Close)
	return srv, store
}

// get requests a path and decodes the JSON answer into out.
func get(t testing.TB, h http.Handler, path string, out any) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	require.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"), path)
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), out), "%s: %s", path, rec.Body.String())
	return rec.Code
}

func probe(t testing.TB, h http.Handler, variant, fen string) explorer.Answer {
	t.Helper()
	var a explorer.Answer
	code := get(t, h, "/"+variant+"?fen="+url.QueryEscape(fen), &a)
	require.Equal(t, http.StatusOK, code, fen)
	return a
}

func TestProbeWinningPosition(t *testing.T) {
	srv, store := newServer(t, "KQvK")
	const fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
	a := probe(t, srv, "standard", fen)
	require.Equal(t, "win", a.Category)
	require.NotNil(t, a.DTM)
	require.Positive(t, *a.DTM)
	require.Equal(t, 1, *a.DTM%2, "a win is mate after an odd number of plies")
	require.NotNil(t, a.DTZ, "a variant with the fifty-move rule: its distance to zeroing")
	require.Positive(t, *a.DTZ)
	require.LessOrEqual(t, *a.DTZ, *a.DTM, "no zeroing move is further than the mate")
	require.Equal(t, a.DTZ, a.PreciseDTZ, "exact, never rounded")
	require.Equal(t, "KQvK", *a.Table)
	require.Equal(t, fen, a.FEN)
	require.False(t, a.Checkmate || a.Stalemate || a.VariantWin || a.VariantLoss || a.InsufficientMaterial)

	// The table agrees.
	p, err := variants.Chess().ParseFEN(fen)
	require.NoError(t, err)
	tb, err := store.Find(p, tablebase.Build)
	require.NoError(t, err)
	r, err := tb.Probe(p)
	require.NoError(t, err)
	require.Equal(t, r.DTM, *a.DTM)

	// Best first: the fastest mate leaves the opponent mated in dtm-1.
	require.Equal(t, "loss", a.Moves[0].Category)
	require.Equal(t, -(*a.DTM - 1), *a.Moves[0].DTM)
	require.Len(t, a.Moves, len(p.LegalMoves(nil)))
	checkOrder(t, a.Moves)
	// Every move is valued from the point of view of the side to move
	// after it: exactly what probing the position after it says.
	for _, m := range a.Moves {
		after := probe(t, srv, "chess", m.FEN)
		require.Equal(t, after.Category, m.Category, m.SAN)
		require.Equal(t, after.DTM, m.DTM, m.SAN)
		require.Equal(t, after.Checkmate, m.Checkmate, m.SAN)
		require.Equal(t, after.Stalemate, m.Stalemate, m.SAN)
		require.NotEmpty(t, m.UCI)
		require.NotEmpty(t, m.SAN)
	}
}

// checkOrder asserts lichess's order: mates soonest, unknown, blessed
// losses, draws, cursed wins, then the opponent's wins, longest first.
func checkOrder(t *testing.T, moves []explorer.MoveAnswer) {
	t.Helper()
	rank := map[string]int{"loss": 0, "unknown": 1, "blessed-loss": 2, "draw": 3, "cursed-win": 4, "win": 5}
	for i := 1; i < len(moves); i++ {
		a, b := moves[i-1], moves[i]
		require.LessOrEqual(t, rank[a.Category], rank[b.Category], "%s before %s", a.SAN, b.SAN)
		if a.Category == b.Category && a.DTM != nil && b.DTM != nil {
			require.GreaterOrEqual(t, *a.DTM, *b.DTM, "%s before %s", a.SAN, b.SAN)
		}
	}
}

func TestProbeLosingPosition(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	a := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KQ6 b - - 0 1")
	require.Equal(t, "loss", a.Category)
	require.Negative(t, *a.DTM)
	require.Equal(t, 0, *a.DTM%2)
	// The longest resistance first: the opponent's longest win.
	require.Equal(t, "win", a.Moves[0].Category)
	require.Equal(t, -*a.DTM-1, *a.Moves[0].DTM)
	checkOrder(t, a.Moves)
}

func TestProbeGameStates(t *testing.T) {
	srv, _ := newServer(t, "KQvK", "KRvK")
	mated := probe(t, srv, "chess", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")
	require.True(t, mated.Checkmate)
	require.Equal(t, "loss", mated.Category)
	require.Nil(t, mated.DTM, "lichess: no distance to mate for a mated position")
	require.Equal(t, -1, *mated.DTZ, "Syzygy's number for a mated position")
	require.Empty(t, mated.Moves)

	stalemate := probe(t, srv, "chess", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
	require.True(t, stalemate.Stalemate)
	require.Equal(t, "draw", stalemate.Category)
	require.Equal(t, 0, *stalemate.DTM, "lichess: 0 for a draw")

	bare := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/K7 w - - 0 1")
	require.True(t, bare.InsufficientMaterial)
	require.Equal(t, "draw", bare.Category)
	require.NotEmpty(t, bare.Moves)
	for _, m := range bare.Moves {
		require.Equal(t, "draw", m.Category, m.SAN)
	}

	// The mating move is flagged and comes first.
	mate := probe(t, srv, "chess", "k7/8/1K6/8/8/8/8/7R w - - 0 1")
	require.True(t, mate.Moves[0].Checkmate, mate.Moves[0].SAN)
	require.Equal(t, "Rh8#", mate.Moves[0].SAN)
	require.Nil(t, mate.Moves[0].DTM)
	require.Equal(t, -1, *mate.Moves[0].DTZ)

	// A capture zeroes the move counter; the rook's loss draws.
	capture := probe(t, srv, "chess", "8/8/8/8/8/2k5/1R6/7K b - - 0 1")
	var kxb2 *explorer.MoveAnswer
	for i, m := range capture.Moves {
		if m.SAN == "Kxb2" {
			kxb2 = &capture.Moves[i]
		}
	}
	require.NotNil(t, kxb2)
	require.True(t, kxb2.Zeroing)
	require.Equal(t, "draw", kxb2.Category)
	require.True(t, kxb2.InsufficientMaterial)
	require.Equal(t, "Kxb2", capture.Moves[0].SAN, "the capture saves Black: best first")
}

func TestProbeOutsideTables(t *testing.T) {
	srv, _ := newServer(t)
	start := probe(t, srv, "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	require.Equal(t, "unknown", start.Category)
	require.Nil(t, start.DTM)
	require.Nil(t, start.Table)
	require.Nil(t, start.Building, "32 pieces: nothing to build")
	require.Len(t, start.Moves, 20)
	for _, m := range start.Moves {
		require.Equal(t, "unknown", m.Category)
	}
	// A variant the generator does not model: unknown, never built.
	atomic := probe(t, srv, "atomic", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
	require.Equal(t, "unknown", atomic.Category)
	require.Nil(t, atomic.Building)
}

func TestBadRequests(t *testing.T) {
	srv, _ := newServer(t)
	long := "/chess?fen=" + strings.Repeat("8", 2000)
	for path, want := range map[string]int{
		"/chess?fen=" + url.QueryEscape("not a fen"):                         http.StatusBadRequest,
		"/chess?fen=" + url.QueryEscape("8/8/8/8/8/8/8/KK5k w - - 0 1"):      http.StatusBadRequest, // two white kings
		"/chess?fen=" + url.QueryEscape("8/8/8/8/8/8/8/K6k w - - 0 1 extra"): http.StatusBadRequest,
		"/chess?fen=" + url.QueryEscape("k6R/8/8/8/8/8/8/K7 w - - 0 1"):      http.StatusBadRequest, // the side not to move in check
		"/chess?fen=" + url.QueryEscape("8/8/8/8/8/8/8/K6k w - - 0 1\x00"):   http.StatusBadRequest,
		"/chess": http.StatusBadRequest,
		"/nosuchvariant?fen=8/8/8/8/8/8/8/K6k_w_-_-_0_1": http.StatusNotFound,
		long:                        http.StatusBadRequest,
		"/api/nosuch":               http.StatusNotFound,
		"/api/stats/chess/KPPPPvK":  http.StatusBadRequest, // six pieces
		"/api/stats/chess/nonsense": http.StatusBadRequest,
		"/api/stats/atomic/KQvK":    http.StatusBadRequest,
		"/api/stats/nosuch/KQvK":    http.StatusNotFound,
		"/api/stats/chess/KQRvKR":   http.StatusBadRequest, // five pieces: too many placements here
	} {
		var body map[string]any
		code := get(t, srv, path, &body)
		require.Equal(t, want, code, "%.80s: %v", path, body)
		require.NotEmpty(t, body["error"], path)
	}
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(method, "/chess?fen=8/8/8/8/8/8/8/K6k_w_-_-_0_1", strings.NewReader("x")))
		require.Equal(t, http.StatusMethodNotAllowed, rec.Code, method)
		require.Equal(t, "GET, HEAD", rec.Header().Get("Allow"))
		require.Contains(t, rec.Body.String(), `"error"`)
	}
}

func TestUnderscoresAndNames(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	a := probe(t, srv, "standard", "8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1")
	require.Equal(t, "win", a.Category)
	require.Equal(t, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", a.FEN)
}

// TestBuildOnRequest asks many times at once for a missing table: the
// answers are unknown with the build's progress until it is there, the
// table is generated once, and then answers.
func TestBuildOnRequest(t *testing.T) {
	srv, _ := newServer(t)
	const fen = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
	var wg sync.WaitGroup
	answers := make([]explorer.Answer, 16)
	for i := range answers {
		wg.Go(func() { answers[i] = probe(t, srv, "chess", fen) })
	}
	wg.Wait()
	for _, a := range answers {
		if a.Category == "unknown" {
			require.NotNil(t, a.Building)
			require.Equal(t, "KRvK", a.Building.Table)
			require.Empty(t, a.Building.Error)
		}
	}
	waitForBuilds(t, srv)
	require.Equal(t, 1, explorer.BuildsStarted(srv), "one generation for all the requests")
	a := probe(t, srv, "chess", fen)
	require.Equal(t, "win", a.Category)
	require.Equal(t, "KRvK", *a.Table)
	require.Nil(t, a.Building)
}

// waitForBuilds polls until no generation is queued or under way.
func waitForBuilds(t *testing.T, h http.Handler) {
	t.Helper()
	for {
		var list []explorer.Build
		require.Equal(t, http.StatusOK, get(t, h, "/api/builds", &list))
		pending := 0
		for _, b := range list {
			if b.Error == "" {
				pending++
			}
		}
		if pending == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStats(t *testing.T) {
	srv, store := newServer(t, "KQvK")
	var st struct {
		Table string `json:"table"`
		Sides []struct {
			Side     string   `json:"side"`
			Legal    int      `json:"legal"`
			Win      int      `json:"win"`
			Draw     int      `json:"draw"`
			Loss     int      `json:"loss"`
			WinPlies [][2]int `json:"win_plies"`
			Longest  []string `json:"longest"`
		} `json:"sides"`
	}
	for get(t, srv, "/api/stats/chess/KQvK", &st) == http.StatusAccepted {
		time.Sleep(10 * time.Millisecond)
	}
	require.Equal(t, "KQvK", st.Table)
	require.Len(t, st.Sides, 2)
	chess := variants.Chess()
	m, err := tablebase.ParseMaterial(chess, "KQvK")
	require.NoError(t, err)
	tb, err := store.Build(chess, m, tablebase.Hooks{})
	require.NoError(t, err)
	want := tb.Stats(0, nil)
	white := st.Sides[0]
	require.Equal(t, "white", white.Side)
	require.Equal(t, want.Legal, white.Legal)
	require.Equal(t, want.Win, white.Win)
	require.Equal(t, want.Draw, white.Draw)
	top, _ := want.MaxWin()
	require.Equal(t, top, white.WinPlies[len(white.WinPlies)-1][0])
	require.NotEmpty(t, white.Longest)
	for _, fen := range white.Longest {
		a := probe(t, srv, "chess", fen)
		require.Equal(t, "win", a.Category, fen)
		require.Equal(t, top, *a.DTM, fen)
	}
}

func TestPagesAndAssets(t *testing.T) {
	srv, _ := newServer(t)
	for path, want := range map[string]string{
		"/":                 "text/html",
		"/?variant=chess":   "text/html",
		"/chess/KBNvK":      "text/html",
		"/assets/app.js":    "text/javascript",
		"/assets/style.css": "text/css",
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, http.StatusOK, rec.Code, path)
		require.Contains(t, rec.Header().Get("Content-Type"), want, path)
		// Offline: nothing is fetched from another host.
		require.NotRegexp(t, `(src|href)="https?://`, rec.Body.String(), path)
		require.NotContains(t, rec.Body.String(), "@import", path)
	}
	var vs []struct {
		Name    string `json:"name"`
		Tables  bool   `json:"tables"`
		Example string `json:"example"`
	}
	require.Equal(t, http.StatusOK, get(t, srv, "/api/variants", &vs))
	require.Equal(t, "chess", vs[0].Name)
	require.True(t, vs[0].Tables)
	require.Equal(t, "k7/8/8/4K3/3BN3/8/8/8 w - - 0 1", vs[0].Example)
	for _, v := range vs {
		if !v.Tables {
			continue
		}
		p, err := variants.Builtin().Lookup(v.Name)
		require.NoError(t, err)
		_, err = p.ParseFEN(v.Example)
		require.NoError(t, err, v.Name)
	}
}

// TestDamagedFileLeftAlone: a damaged table file is reported, never
// rewritten, by a server on a store that keeps its files.
func TestDamagedFileLeftAlone(t *testing.T) {
	dir := t.TempDir()
	chess := variants.Chess()
	m, err := tablebase.ParseMaterial(chess, "KRvK")
	require.NoError(t, err)
	_, err = gen.NewStore(dir).Build(chess, m, tablebase.Hooks{})
	require.NoError(t, err)
	path := filepath.Join(dir, tablebase.FileName(chess, m))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for i := 200; i < len(data); i += 256 { // past the header and index: every block, whatever its size
		data[i] ^= 0xff
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))

	store := gen.NewStore(dir)
	store.KeepFiles = true
	srv := explorer.New(explorer.Config{Catalogue: variants.Builtin(), Store: store, Log: func(string) {}})
	t.Cleanup(srv.Close)
	const fen = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
	probe(t, srv, "chess", fen)
	waitForBuilds(t, srv)
	a := probe(t, srv, "chess", fen)
	require.Equal(t, "unknown", a.Category)
	require.NotNil(t, a.Building)
	require.Contains(t, a.Building.Error, "damaged")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, data, after, "the file is as it was")
}

// TestHugeTableRefused: a table whose generation would take more memory
// than the server allows is refused at once, with the reason.
func TestHugeTableRefused(t *testing.T) {
	srv, _ := newServer(t)
	a := probe(t, srv, "reallybig", "k15/16/16/16/16/16/16/8K7/7BN7/16/16/16/16/16/16/16 w - - 0 1")
	require.Equal(t, "unknown", a.Category)
	require.NotNil(t, a.Building)
	require.Contains(t, a.Building.Error, "over this server's cap")
	require.Zero(t, explorer.BuildsStarted(srv))
}

// TestProbePawnEnding: a pawn ending is answered like the others, with
// promotions valued through the tables they lead into (Gaviota gives the
// position 45 plies: mate in 23).
func TestProbePawnEnding(t *testing.T) {
	srv, _ := newServer(t, "KPvK")
	a := probe(t, srv, "chess", "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1")
	require.Equal(t, "win", a.Category)
	require.Equal(t, 45, *a.DTM)
	require.Equal(t, "KPvK", *a.Table)
	checkOrder(t, a.Moves)
	// A promotion leaves KQvK (or an under-promotion's table).
	b := probe(t, srv, "chess", "8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
	require.Equal(t, "win", b.Category)
	promotions := 0
	for _, m := range b.Moves {
		if len(m.UCI) == 5 {
			promotions++
			require.NotEmpty(t, m.Category, m.UCI)
		}
	}
	require.Equal(t, 4, promotions)
}

// TestExamplesLegal: every built-in variant with tables opens on a legal
// position that is not check, whose table the server would build, and
// the API answers it.
func TestExamplesLegal(t *testing.T) {
	srv, _ := newServer(t)
	// The builds the probes ask for are queued, not run: each answer is
	// checked as it comes, and the first example's generation (chess's
	// KBNvK) ran beside the whole test, over a CPU-second of work no
	// assertion looked at.
	defer explorer.HoldWorkers(srv)()
	var vs []struct {
		Name        string `json:"name"`
		Tables      bool   `json:"tables"`
		Example     string `json:"example"`
		StatsPieces int    `json:"stats_pieces"`
	}
	require.Equal(t, http.StatusOK, get(t, srv, "/api/variants", &vs))
	for _, v := range vs {
		if !v.Tables {
			continue
		}
		variant, err := variants.Builtin().Lookup(v.Name)
		require.NoError(t, err)
		p, err := variant.ParseFEN(v.Example)
		require.NoError(t, err, v.Name)
		require.False(t, p.InCheck(), "%s: %s", v.Name, v.Example)
		require.LessOrEqual(t, p.PieceCount(), 4, "%s: %s is not an ending", v.Name, v.Example)
		m, err := tablebase.TableMaterial(p)
		require.NoError(t, err, v.Name)
		cost, err := gen.GenerationCost(variant, m)
		require.NoError(t, err, v.Name)
		require.LessOrEqual(t, cost.Memory, int64(1<<30), "%s: %s would be refused", v.Name, m)
		a := probe(t, srv, v.Name, v.Example)
		if a.Building != nil && a.Building.State != "queue full" { // so many builds at once
			require.Empty(t, a.Building.Error, v.Name)
		}
		require.Positive(t, v.StatsPieces, v.Name)
	}
}

// TestOneSideFilesAnswerAlike: a server reading tables that store one
// side's distances (chimera tb repack) answers every request as one
// reading every distance: probes of both sides to move, their moves,
// mainlines byte for byte, and the same statistics.
func TestOneSideFilesAnswerAlike(t *testing.T) {
	srv, store := newServer(t, "KPvK", "KRvK")
	chess := variants.Chess()
	oneStore := repackedOneSide(t, store)
	kpk, err := oneStore.FindMaterial(chess, tbtest.Material(t, chess, "KPvK"), tablebase.MemoryOrDisk)
	require.NoError(t, err)
	require.NotEqual(t, kpk.DistancesStored(0), kpk.DistancesStored(1), "one side's distances")
	one := explorer.New(explorer.Config{Catalogue: variants.Builtin(), Store: oneStore, ClientInterval: -1, Log: func(string) {}})
	t.Cleanup(one.Close)
	body := func(h http.Handler, path string) string {
		t.Helper()
		for {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if rec.Code != http.StatusAccepted { // statistics being counted
				require.Equal(t, http.StatusOK, rec.Code, path)
				return rec.Body.String()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, fen := range []string{
		"8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", "8/8/8/8/8/2k5/4P3/4K3 b - - 0 1",
		"8/4P3/8/8/8/2k5/8/4K3 w - - 0 1", "8/8/8/8/3k4/8/4P3/4K3 b - - 0 1",
		"8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
	} {
		for _, path := range []string{"/chess?fen=", "/chess/mainline?fen="} {
			path += url.QueryEscape(fen)
			require.Equal(t, body(srv, path), body(one, path), path)
		}
	}
	// The statistics, but for the file they were counted from (its size).
	stats := func(h http.Handler, path string) map[string]any {
		var st map[string]any
		require.NoError(t, json.Unmarshal([]byte(body(h, path)), &st))
		require.Contains(t, st, "file")
		delete(st, "file")
		return st
	}
	for _, path := range []string{"/api/stats/chess/KPvK", "/api/stats/chess/KRvK"} {
		require.Equal(t, stats(srv, path), stats(one, path), path)
	}
}

// repackedOneSide returns a store of store's chess tables written again
// storing one side's distances (as chimera tb repack writes them).
func repackedOneSide(t testing.TB, store *tablebase.Store) *tablebase.Store {
	t.Helper()
	dir := t.TempDir()
	chess := variants.Chess()
	for _, f := range store.Files(func(string) (*engine.Variant, error) { return chess, nil }) {
		tb, err := store.FindMaterial(chess, f.Material, tablebase.MemoryOrDisk)
		require.NoError(t, err)
		dense, err := tb.Dense()
		require.NoError(t, err)
		require.NoError(t, dense.SaveOneSide(dir))
	}
	return tablebase.NewStore(dir)
}
