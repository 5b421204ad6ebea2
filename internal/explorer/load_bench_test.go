package explorer_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// BenchmarkProbeHTTP measures the API under load as clients see it: a
// real HTTP server, 8 concurrent clients (4 per core on this 2-core
// machine) asking for random KQvK and KBNvK positions, each answer read
// in full. It reports requests per second and the 99th-percentile
// latency.
//
//	go test ./internal/explorer -run XXX -bench ProbeHTTP -benchtime 20000x
func BenchmarkProbeHTTP(b *testing.B) {
	b.Run("both-sides", func(b *testing.B) { probeHTTP(b, false) })
	b.Run("one-side", func(b *testing.B) { probeHTTP(b, true) })
}

func probeHTTP(b *testing.B, oneSide bool) {
	srv, store := newServer(b, "KQvK", "KBNvK")
	chess := variants.Chess()
	var paths []string
	for _, name := range []string{"KQvK", "KBNvK"} {
		m, err := tablebase.ParseMaterial(chess, name)
		require.NoError(b, err)
		tb, err := store.Build(chess, m, tablebase.Hooks{})
		require.NoError(b, err)
		for _, p := range tablebase.RandomWins(tb, 200, 1) {
			paths = append(paths, "/standard?fen="+url.QueryEscape(p.FEN()))
		}
	}
	if oneSide {
		// The same tables storing one side's distances (chimera tb
		// repack): each answer values every move, most of them searched.
		srv = explorer.New(explorer.Config{Catalogue: variants.Builtin(), Store: repackedOneSide(b, store), ClientInterval: -1, Log: func(string) {}})
		defer srv.Close()
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	loadProbes(b, ts.URL, paths)
}

// loadProbes has 8 clients (4 per core on this 2-core machine) probe
// the paths at base until the benchmark's count, each answer read in
// full, and reports requests per second and the 99th-percentile latency.
func loadProbes(b *testing.B, base string, paths []string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var mu sync.Mutex
	var latencies []time.Duration
	const clients = 8
	b.SetParallelism((clients + 1) / 2) // RunParallel starts GOMAXPROCS × this
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		i := 0
		for pb.Next() {
			start := time.Now()
			res, err := client.Get(base + paths[i%len(paths)])
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Errorf("status %d", res.StatusCode)
				return
			}
			mine = append(mine, time.Since(start))
			i += 7
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "req/s")
		b.ReportMetric(float64(latencies[n*99/100].Microseconds())/1000, "p99-ms")
	}
}
