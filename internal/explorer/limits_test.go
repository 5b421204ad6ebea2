package explorer_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// server returns an explorer over dir with the configuration's limits.
func server(t *testing.T, dir string, cfg explorer.Config) *explorer.Server {
	t.Helper()
	cfg.Catalogue, cfg.Log = variants.Builtin(), func(string) {}
	if cfg.Store == nil {
		cfg.Store = gen.NewStore(dir)
	}
	srv := explorer.New(cfg)
	t.Cleanup(srv.Close)
	return srv
}

// request answers one GET, from the client address given.
func request(h http.Handler, path, client string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.RemoteAddr = client + ":1234"
	h.ServeHTTP(rec, r)
	return rec
}

// TestStatsCachedOnDisk: the figures are counted once, saved beside the
// table, and a server started later over the directory answers them at
// the first request.
func TestStatsCachedOnDisk(t *testing.T) {
	dir := t.TempDir()
	first := server(t, dir, explorer.Config{})
	const path = "/api/stats/chess/KRvK"
	for request(first, path, "10.0.0.1").Code != http.StatusOK {
		time.Sleep(20 * time.Millisecond)
	}
	matches, err := filepath.Glob(filepath.Join(dir, "*.stats.json"))
	require.NoError(t, err)
	require.Len(t, matches, 1)

	second := server(t, dir, explorer.Config{})
	rec := request(second, path, "10.0.0.1")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Contains(t, rec.Body.String(), `"legal":`)

	// A damaged cache is counted again, not trusted.
	require.NoError(t, os.WriteFile(matches[0], []byte("{not json"), 0o644))
	third := server(t, dir, explorer.Config{})
	require.Equal(t, http.StatusAccepted, request(third, path, "10.0.0.1").Code)
}

// TestClientRateLimited: a client that starts more builds than its
// allowance gets 429 with Retry-After; another client is still served.
func TestClientRateLimited(t *testing.T) {
	srv := server(t, t.TempDir(), explorer.Config{ClientBurst: 1, ClientInterval: time.Hour})
	rec := request(srv, "/chess?fen=8/8/8/4k3/8/8/8/KR6_w_-_-_0_1", "10.0.0.1")
	require.Equal(t, http.StatusOK, rec.Code)
	rec = request(srv, "/chess?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1", "10.0.0.1")
	require.Equal(t, http.StatusTooManyRequests, rec.Code, rec.Body.String())
	require.Equal(t, "3600", rec.Header().Get("Retry-After"))
	require.Contains(t, rec.Body.String(), "too many")
	rec = request(srv, "/api/stats/chess/KBvK", "10.0.0.1")
	require.Equal(t, http.StatusTooManyRequests, rec.Code, rec.Body.String())
	// Asking again for what is already under way costs nothing.
	require.Equal(t, http.StatusOK, request(srv, "/chess?fen=8/8/8/4k3/8/8/8/KR6_w_-_-_0_1", "10.0.0.1").Code)
	require.Equal(t, http.StatusOK, request(srv, "/chess?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1", "10.0.0.2").Code)
}

// TestClientHeader: behind a proxy the client is the address the proxy
// appended last, not the proxy's own, nor what a client made up before it.
func TestClientHeader(t *testing.T) {
	srv := server(t, t.TempDir(), explorer.Config{ClientBurst: 1, ClientInterval: time.Hour, ClientHeader: "X-Forwarded-For"})
	ask := func(fen, forwarded string) int {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/chess?fen="+fen, nil)
		r.RemoteAddr = "127.0.0.1:5000" // the balancer
		r.Header.Set("X-Forwarded-For", forwarded)
		srv.ServeHTTP(rec, r)
		return rec.Code
	}
	require.Equal(t, http.StatusOK, ask("8/8/8/4k3/8/8/8/KR6_w_-_-_0_1", "10.0.0.1"))
	require.Equal(t, http.StatusOK, ask("8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1", "10.0.0.2"), "another client behind the same balancer")
	require.Equal(t, http.StatusTooManyRequests, ask("8/8/8/4k3/8/8/4P3/K7_w_-_-_0_1", "10.9.9.9, 10.0.0.1"), "a made-up address before the proxy's does not help")
}

// TestQueueFull: with every worker and waiting place taken, a build or a
// count is refused as such (503, Retry-After), and the probe's answer says
// why it stays unknown.
func TestQueueFull(t *testing.T) {
	srv := server(t, t.TempDir(), explorer.Config{Queue: 2})
	release := explorer.FillWork(srv)
	defer release()
	rec := request(srv, "/api/stats/chess/KRvK", "10.0.0.1")
	require.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
	require.Equal(t, "60", rec.Header().Get("Retry-After"))
	require.Contains(t, rec.Body.String(), "queue is full")
	a := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KR6 w - - 0 1")
	require.Equal(t, "unknown", a.Category)
	require.NotNil(t, a.Building)
	require.Equal(t, "queue full", a.Building.State)
	require.Contains(t, a.Building.Error, "queue is full")
}

// TestDiskBudget: a build that would pass the disk budget is refused as
// over budget, and nothing is generated.
func TestDiskBudget(t *testing.T) {
	srv := server(t, t.TempDir(), explorer.Config{DiskBudget: 1000})
	a := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KR6 w - - 0 1")
	require.NotNil(t, a.Building)
	require.Equal(t, "over budget", a.Building.State)
	require.Contains(t, a.Building.Error, "disk")
	require.Zero(t, explorer.BuildsStarted(srv))
}

// TestReadOnly: a read-only server answers from the tables there are,
// never builds, and counts statistics without writing them.
func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	builder := gen.NewStore(dir)
	m, err := tablebase.ParseMaterial(variants.Chess(), "KQvK")
	require.NoError(t, err)
	_, err = builder.Build(variants.Chess(), m, tablebase.Hooks{})
	require.NoError(t, err)
	before, err := os.ReadDir(dir)
	require.NoError(t, err)

	srv := server(t, dir, explorer.Config{ReadOnly: true})
	require.Equal(t, "win", probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1").Category)
	a := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KR6 w - - 0 1")
	require.Equal(t, "unknown", a.Category)
	require.Nil(t, a.Building, "a read-only server does not build")
	require.Equal(t, http.StatusNotFound, request(srv, "/api/stats/chess/KRvK", "10.0.0.1").Code)
	for request(srv, "/api/stats/chess/KQvK", "10.0.0.1").Code != http.StatusOK {
		time.Sleep(20 * time.Millisecond)
	}
	after, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Equal(t, len(before), len(after), "nothing written")
	require.Zero(t, explorer.BuildsStarted(srv))
}
