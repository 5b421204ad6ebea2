package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/tablebase"
)

// tableStats are a table's figures as the material page shows them (what
// tb stats prints). File names the table file they were counted from
// (its size and time), so a cached count of a table since rebuilt is not
// trusted.
type tableStats struct {
	Variant string      `json:"variant"`
	Table   string      `json:"table"`
	Sides   []sideStats `json:"sides"`
	File    fileStamp   `json:"file"`
}

// fileStamp identifies one version of a table file.
type fileStamp struct {
	Size    int64 `json:"size"`
	ModTime int64 `json:"mtime_ns"`
}

// sideStats are the figures for one side to move. The histograms are
// [plies, positions] pairs in order of distance.
type sideStats struct {
	Side       string   `json:"side"`
	Legal      int      `json:"legal"`
	Win        int      `json:"win"`
	Draw       int      `json:"draw"`
	Loss       int      `json:"loss"`
	Checkmated int      `json:"checkmated"`
	Stalemate  int      `json:"stalemate"`
	WinPlies   [][2]int `json:"win_plies"`
	LossPlies  [][2]int `json:"loss_plies"`
	// Longest are positions of the longest win, this side to move.
	Longest []string `json:"longest"`
}

// maxStatsPlacements bounds the placements the statistics enumerate per
// side (every square for every piece): four pieces on a 10×10 board, not
// five on 8×8, which would take minutes.
const maxStatsPlacements = 1e8

// abandonAfter is how long a count goes on with no one asking for it (the
// page asks every second or two while it waits): then the client has gone
// and the count stops, to start again if someone asks.
const abandonAfter = 20 * time.Second

// statsCache counts each table's statistics at most once: from a file
// beside the table when one was saved, else by a job on the server's work
// queue, started by the first request (the page asks again until it is
// done) and saved beside the table (not by a read-only server).
type statsCache struct {
	ctx      context.Context
	store    *tablebase.Store
	work     *workQueue
	readOnly bool
	now      func() time.Time

	mu   sync.Mutex
	done map[string]*tableStats
	busy map[string]*statsJob
}

// statsJob is a count under way and when it was last asked for.
type statsJob struct{ asked time.Time }

func newStatsCache(ctx context.Context, store *tablebase.Store, work *workQueue, readOnly bool) *statsCache {
	return &statsCache{ctx: ctx, store: store, work: work, readOnly: readOnly, now: time.Now,
		done: map[string]*tableStats{}, busy: map[string]*statsJob{}}
}

// statsState is what get knows of a table's statistics.
type statsState int

const (
	statsReady     statsState = iota
	statsCounting             // under way or queued
	statsQueueFull            // not started: the work queue is full
	statsRefused              // not started: this client asked for too much
)

// get returns the statistics of t, or the state of their count. admit is
// asked before a new count is queued.
func (c *statsCache) get(t *tablebase.Table, admit func() bool) (*tableStats, statsState) {
	key := buildKey(t.Variant, t.Material)
	stamp, stamped := c.stamp(t.Variant, t.Material)
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.done[key]; ok && (!stamped || st.File == stamp) {
		return st, statsReady
	}
	if job, ok := c.busy[key]; ok {
		job.asked = c.now()
		return nil, statsCounting
	}
	if st, ok := c.load(t.Variant, t.Material, stamp); ok {
		c.done[key] = st
		return st, statsReady
	}
	if c.ctx.Err() != nil {
		return nil, statsQueueFull
	}
	if admit != nil && !admit() {
		return nil, statsRefused
	}
	job := &statsJob{asked: c.now()}
	if !c.work.submit(int64(placements(t)), func() { c.count(t, key, stamp, job) }) {
		return nil, statsQueueFull
	}
	c.busy[key] = job
	return nil, statsCounting
}

// cached returns the saved statistics of m's table, without reading the
// table: for the endgame index.
func (c *statsCache) cached(v *engine.Variant, m tablebase.Material) (*tableStats, bool) {
	c.mu.Lock()
	st, ok := c.done[buildKey(v, m)]
	c.mu.Unlock()
	if ok {
		return st, true
	}
	stamp, ok := c.stamp(v, m)
	if !ok {
		return nil, false
	}
	return c.load(v, m, stamp)
}

// longestWin is the longest win in plies, either side to move.
func (st *tableStats) longestWin() int {
	longest := 0
	for _, side := range st.Sides {
		for _, pair := range side.WinPlies {
			longest = max(longest, pair[0])
		}
	}
	return longest
}

// count runs one count on a worker: saved when done, dropped when the
// server shuts down or no one has asked for it lately.
func (c *statsCache) count(t *tablebase.Table, key string, stamp fileStamp, job *statsJob) {
	goOn := func() bool {
		if c.ctx.Err() != nil {
			return false
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.now().Sub(job.asked) < abandonAfter
	}
	st, err := computeStats(t, goOn)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.busy, key)
	if err != nil {
		return
	}
	st.File = stamp
	c.done[key] = st
	c.save(t, st)
}

// placements is the count's work: every square for every piece.
func placements(t *tablebase.Table) float64 {
	pieces := len(t.Material.Strong) + len(t.Material.Weak)
	return math.Pow(float64(t.Variant.Width*t.Variant.Height), float64(pieces))
}

// path is where a table's statistics are saved: beside its file.
func (c *statsCache) path(v *engine.Variant, m tablebase.Material) string {
	return filepath.Join(c.store.Dir(), tablebase.FileName(v, m)+".stats.json")
}

// stamp identifies a table's file, false when it has none (a table kept
// in memory only).
func (c *statsCache) stamp(v *engine.Variant, m tablebase.Material) (fileStamp, bool) {
	fi, err := os.Stat(filepath.Join(c.store.Dir(), tablebase.FileName(v, m)))
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}, true
}

// load reads saved statistics of this version of a table's file.
func (c *statsCache) load(v *engine.Variant, m tablebase.Material, stamp fileStamp) (*tableStats, bool) {
	data, err := os.ReadFile(c.path(v, m))
	if err != nil {
		return nil, false
	}
	var st tableStats
	if json.Unmarshal(data, &st) != nil || st.File != stamp || st.Table != m.String() || len(st.Sides) != 2 {
		return nil, false // damaged or stale: counted again
	}
	return &st, true
}

// save writes the statistics beside the table, atomically so a reader
// never sees half of one. A failure costs only a count later.
func (c *statsCache) save(t *tablebase.Table, st *tableStats) {
	if c.readOnly {
		return
	}
	// Two workers may save one table's statistics at once: each writes a
	// temporary file of its own, and either complete file will do.
	atomicfile.Write(c.path(t.Variant, t.Material), 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(st)
	})
}

// computeStats enumerates the table for both sides to move, until goOn
// says to stop.
func computeStats(t *tablebase.Table, goOn func() bool) (*tableStats, error) {
	out := &tableStats{Variant: t.Variant.Name, Table: t.Material.String()}
	for stm, side := range []string{"white", "black"} {
		st, err := t.StatsUntil(stm, nil, goOn)
		if err != nil {
			return nil, err
		}
		ss := sideStats{Side: side, Legal: st.Legal, Win: st.Win, Draw: st.Draw, Loss: st.Loss,
			Checkmated: st.Checkmated, Stalemate: st.Stalemate,
			WinPlies: pairs(st.WinPlies), LossPlies: pairs(st.LossPlies), Longest: []string{}}
		for _, p := range st.Longest {
			ss.Longest = append(ss.Longest, p.FEN())
		}
		out.Sides = append(out.Sides, ss)
	}
	return out, nil
}

// pairs turns a histogram into sorted [key, count] pairs.
func pairs(h map[int]int) [][2]int {
	out := [][2]int{}
	for k, n := range h {
		out = append(out, [2]int{k, n})
	}
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

// serveStats answers GET /api/stats/{variant}/{material}: the figures
// (200), or 202 with {"building": ...} or {"computing": true} while the
// table is generated or counted (the page asks again); 429 with
// Retry-After when this client has started too much work lately, 503
// with Retry-After when the work queue is full.
func (s *Server) serveStats(w http.ResponseWriter, r *http.Request) {
	v, ok := s.tablesVariant(w, r)
	if !ok {
		return
	}
	m, err := tablebase.ParseMaterial(v, r.PathValue("material"))
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	pieces := len(m.Strong) + len(m.Weak)
	if math.Pow(float64(v.Width*v.Height), float64(pieces)) > maxStatsPlacements {
		fail(w, http.StatusBadRequest, "statistics of "+m.String()+" on this board are too many placements to count here")
		return
	}
	admit := s.admitter(r)
	t, err := s.cfg.Store.FindMaterial(v, m, tablebase.MemoryOrDisk)
	if err != nil {
		if pieces > s.cfg.BuildPieces || s.cfg.ReadOnly {
			fail(w, http.StatusNotFound, "no table "+m.String()+" for "+v.Name)
			return
		}
		b := s.builds.want(v, m, admit.admit)
		switch {
		case b.State == buildRateLimited:
			s.tooMany(w, admit.retryAfter, b.Error)
		case b.State == buildQueueFull:
			s.busy(w, b.Error)
		case b.Error != "":
			fail(w, http.StatusBadRequest, b.Error)
		default:
			w.Header().Set("Cache-Control", cacheNever)
			writeJSON(w, http.StatusAccepted, map[string]any{"building": b})
		}
		return
	}
	st, state := s.stats.get(t, admit.admit)
	switch state {
	case statsReady:
		w.Header().Set("Cache-Control", cacheForever)
		w.Header().Set("ETag", fmt.Sprintf(`"%x"`, t.Checksum()))
		writeJSON(w, http.StatusOK, st)
	case statsRefused:
		s.tooMany(w, admit.retryAfter, "too many counts asked for at once from this address: try again shortly")
	case statsQueueFull:
		waiting, _ := s.work.load()
		s.busy(w, fmt.Sprintf("the server's work queue is full (%d jobs waiting): try again in a minute", waiting))
	default:
		w.Header().Set("Cache-Control", cacheNever)
		writeJSON(w, http.StatusAccepted, map[string]any{"computing": true})
	}
}
