package explorer_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// stormTables builds n distinct three-piece tables (the royal piece and
// one other against the royal piece, across variants) into dir and
// returns a won position of each.
func stormTables(t testing.TB, dir string, n int) []*engine.Position {
	t.Helper()
	store := gen.NewStore(dir)
	cat := variants.Builtin()
	var wins []*engine.Position
	for _, name := range []string{"chess", "capablanca", "grand", "amazon", "chancellor", "knightmate", "embassy", "shatranj", "gothic", "janus", "wildebeest", "tuttifrutti", "almost", "twokings"} {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		if tablebase.CheckVariant(v) != nil {
			continue
		}
		for _, pt := range v.Pieces {
			if pt.Royal || pt.Role == engine.RolePawn || len(wins) == n {
				continue
			}
			m, err := tablebase.ParseMaterial(v, "K"+string(pt.Letter)+"vK")
			if err != nil {
				continue
			}
			tb, err := store.Build(v, m, tablebase.Hooks{})
			require.NoError(t, err)
			if w := tablebase.RandomWins(tb, 1, 1); len(w) == 1 {
				wins = append(wins, w[0])
			}
		}
	}
	require.Len(t, wins, n, "enough distinct won tables")
	return wins
}

// TestMemoryBudgetUnderStorm: clients ask at once for positions of 30
// distinct tables, more than the memory budget holds: every answer is
// right (tables dropped are read again), and the tables in memory stay
// within the budget.
func TestMemoryBudgetUnderStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 30 tables")
	}
	dir := t.TempDir()
	wins := stormTables(t, dir, 30)
	store := gen.NewStore(dir)
	store.KeepFiles = true
	var largest int64
	sizes := map[string]int64{}
	for _, p := range wins {
		tb, err := gen.NewStore(dir).Find(p, tablebase.MemoryOrDisk)
		require.NoError(t, err)
		sizes[p.Variant().Name+tb.Material.String()] = tb.Bytes()
		largest = max(largest, tb.Bytes())
	}
	require.Len(t, sizes, 30)
	store.MemoryBudget = 3 * largest // a few tables at a time
	srv := explorer.New(explorer.Config{Catalogue: variants.Builtin(), Store: store, ReadOnly: true, Log: func(string) {}})
	t.Cleanup(srv.Close)

	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for c := range 16 {
		wg.Go(func() {
			for i := range 60 {
				p := wins[(c*7+i)%len(wins)]
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/"+p.Variant().Name+"?fen="+url.QueryEscape(p.FEN()), nil))
				if rec.Code != http.StatusOK || !jsonHas(rec.Body.String(), `"category":"win"`) {
					errs <- fmt.Errorf("%s %s: %d %.200s", p.Variant().Name, p.FEN(), rec.Code, rec.Body.String())
					return
				}
				if _, bytes, _ := store.MemoryUse(); bytes > store.MemoryBudget {
					errs <- fmt.Errorf("%d bytes of tables in memory, over the budget of %d", bytes, store.MemoryBudget)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	tables, bytes, evicted := store.MemoryUse()
	require.LessOrEqual(t, bytes, store.MemoryBudget)
	require.Positive(t, evicted, "the storm went through more tables than the budget holds")
	t.Logf("%d tables in memory (%d bytes of %d), %d dropped", tables, bytes, store.MemoryBudget, evicted)
}

func jsonHas(body, fragment string) bool { return strings.Contains(body, fragment) }

// BenchmarkProbeUnderWork measures probes while the server works: 20
// statistics counts (every four-piece chess table without pawns) and 4
// generations (grand's four-piece tables) are asked for first, then 8
// clients probe KQvK positions. It reports requests per second and the
// 99th-percentile latency of the probes (issue 35's goal: under 50 ms on
// this 2-core machine).
//
//	go test ./internal/explorer -run XXX -bench ProbeUnderWork -benchtime 20000x
func BenchmarkProbeUnderWork(b *testing.B) {
	dir := b.TempDir()
	store := gen.NewStore(dir)
	chess := variants.Chess()
	counts := []string{"KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KRvKR", "KRvKB", "KRvKN", "KBvKB", "KBvKN", "KNvKN",
		"KQQvK", "KQRvK", "KQBvK", "KQNvK", "KRRvK", "KRBvK", "KRNvK", "KBBvK", "KBNvK", "KNNvK"}
	for _, name := range append(counts, "KQvK") {
		m, err := tablebase.ParseMaterial(chess, name)
		require.NoError(b, err)
		_, err = store.Build(chess, m, tablebase.Hooks{})
		require.NoError(b, err)
	}
	kq, err := store.FindMaterial(chess, tablebase.Material{Strong: "KQ", Weak: "K"}, tablebase.MemoryOrDisk)
	require.NoError(b, err)
	var paths []string
	for _, p := range tablebase.RandomWins(kq, 200, 1) {
		paths = append(paths, "/standard?fen="+url.QueryEscape(p.FEN()))
	}
	srv := explorer.New(explorer.Config{Catalogue: variants.Builtin(), Store: store, Queue: 64, ClientInterval: -1, Log: func(string) {}})
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	get := func(path string) int {
		res, err := client.Get(ts.URL + path)
		require.NoError(b, err)
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	for _, name := range counts {
		require.Equal(b, http.StatusAccepted, get("/api/stats/chess/"+name))
	}
	for _, fen := range []string{"r9/10/10/10/4k5/10/10/10/10/KR8", "q9/10/10/10/4k5/10/10/10/10/KR8", "n9/10/10/10/4k5/10/10/10/10/KB8", "n9/10/10/10/4k5/10/10/10/10/KN8"} {
		require.Equal(b, http.StatusOK, get("/grand?fen="+url.QueryEscape(fen+" w - - 0 1")))
	}
	loadProbes(b, ts.URL, paths)
	waiting, running := explorer.WorkLoad(srv)
	b.ReportMetric(float64(waiting+running), "jobs-left") // still working at the end
}
