package explorer

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// metrics counts the requests answered, by route and status, and their
// latency, for /metrics in Prometheus's text format (no client library:
// the format is a few lines of text).
type metrics struct {
	mu       sync.Mutex
	requests map[routeStatus]uint64
	buckets  []uint64 // by latencyBuckets, cumulative when written
	count    uint64
	sum      float64 // seconds
}

type routeStatus struct {
	route  string
	status int
}

// latencyBuckets are the histogram's upper bounds, in seconds.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

func newMetrics() *metrics {
	return &metrics{requests: map[routeStatus]uint64{}, buckets: make([]uint64, len(latencyBuckets))}
}

// record counts one answered request.
func (m *metrics) record(route string, status int, took time.Duration) {
	sec := took.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[routeStatus{route, status}]++
	m.count++
	m.sum += sec
	if i, _ := slices.BinarySearch(latencyBuckets, sec); i < len(m.buckets) {
		m.buckets[i]++
	}
}

// serveMetrics answers GET /metrics.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", cacheNever)
	s.metrics.write(w)
	tables, bytes, evicted := s.cfg.Store.MemoryUse()
	waiting, running := s.work.load()
	gauge := func(name, help string, v any) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %v\n", name, help, name, name, v)
	}
	gauge("chimera_tables_in_memory", "Tables held in memory.", tables)
	gauge("chimera_tables_memory_bytes", "Bytes of the tables held in memory.", bytes)
	gauge("chimera_tables_memory_budget_bytes", "The memory budget of the tables (0: none).", s.cfg.Store.MemoryBudget)
	cached, cacheLimit := s.cfg.Store.CacheUse()
	gauge("chimera_tables_cache_bytes", "Bytes of decoded blocks of table files in the cache.", cached)
	gauge("chimera_tables_cache_limit_bytes", "The bound of the block cache (serve --cache).", cacheLimit)
	fmt.Fprintf(w, "# HELP chimera_tables_evicted_total Tables dropped from memory for the budget.\n# TYPE chimera_tables_evicted_total counter\nchimera_tables_evicted_total %d\n", evicted)
	gauge("chimera_work_waiting", "Generations and counts waiting for a worker.", waiting)
	gauge("chimera_work_running", "Generations and counts under way.", running)
	gauge("chimera_ready", "1 once the tables present at start are loaded.", btoi(s.ready.Load()))
}

// write writes the request counters and the latency histogram.
func (m *metrics) write(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(w, "# HELP chimera_http_requests_total Requests answered, by route and status.")
	fmt.Fprintln(w, "# TYPE chimera_http_requests_total counter")
	keys := make([]routeStatus, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b routeStatus) int {
		if a.route != b.route {
			if a.route < b.route {
				return -1
			}
			return 1
		}
		return a.status - b.status
	})
	for _, k := range keys {
		fmt.Fprintf(w, "chimera_http_requests_total{route=%q,status=\"%d\"} %d\n", k.route, k.status, m.requests[k])
	}
	fmt.Fprintln(w, "# HELP chimera_http_request_duration_seconds Time to answer a request.")
	fmt.Fprintln(w, "# TYPE chimera_http_request_duration_seconds histogram")
	var cum uint64
	for i, le := range latencyBuckets {
		cum += m.buckets[i]
		fmt.Fprintf(w, "chimera_http_request_duration_seconds_bucket{le=\"%s\"} %d\n", strconv.FormatFloat(le, 'g', -1, 64), cum)
	}
	fmt.Fprintf(w, "chimera_http_request_duration_seconds_bucket{le=\"+Inf\"} %d\n", m.count)
	fmt.Fprintf(w, "chimera_http_request_duration_seconds_sum %g\n", m.sum)
	fmt.Fprintf(w, "chimera_http_request_duration_seconds_count %d\n", m.count)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
