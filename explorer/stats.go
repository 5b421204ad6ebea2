package explorer

import (
	"context"
	"math"
	"net/http"
	"slices"
	"sync"

	"github.com/chimera-chess/chimera/tablebase"
)

// tableStats are a table's figures as the material page shows them (what
// tb stats prints).
type tableStats struct {
	Variant string      `json:"variant"`
	Table   string      `json:"table"`
	Sides   []sideStats `json:"sides"`
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

// statsCache computes each table's statistics once, in the background:
// the first request starts it, and the page asks again until it is done.
type statsCache struct {
	ctx  context.Context
	mu   sync.Mutex
	done map[string]*tableStats
	busy map[string]bool
	wg   sync.WaitGroup
}

func newStatsCache(ctx context.Context) *statsCache {
	return &statsCache{ctx: ctx, done: map[string]*tableStats{}, busy: map[string]bool{}}
}

// get returns the statistics of t, or nil while they are computed.
func (c *statsCache) get(t *tablebase.Table) *tableStats {
	key := buildKey(t.Variant, t.Material)
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.done[key]; ok {
		return st
	}
	if !c.busy[key] && c.ctx.Err() == nil {
		c.busy[key] = true
		c.wg.Go(func() {
			st := computeStats(t)
			c.mu.Lock()
			c.done[key] = st
			delete(c.busy, key)
			c.mu.Unlock()
		})
	}
	return nil
}

func (c *statsCache) wait() { c.wg.Wait() }

// computeStats enumerates the table for both sides to move.
func computeStats(t *tablebase.Table) *tableStats {
	out := &tableStats{Variant: t.Variant.Name, Table: t.Material.String()}
	for stm, side := range []string{"white", "black"} {
		st := t.Stats(stm, nil)
		ss := sideStats{Side: side, Legal: st.Legal, Win: st.Win, Draw: st.Draw, Loss: st.Loss,
			Checkmated: st.Checkmated, Stalemate: st.Stalemate,
			WinPlies: pairs(st.WinPlies), LossPlies: pairs(st.LossPlies), Longest: []string{}}
		for _, p := range st.Longest {
			ss.Longest = append(ss.Longest, p.FEN())
		}
		out.Sides = append(out.Sides, ss)
	}
	return out
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
// table is generated or counted; the page asks again.
func (s *Server) serveStats(w http.ResponseWriter, r *http.Request) {
	v, err := s.variant(r.PathValue("variant"))
	if err != nil {
		fail(w, http.StatusNotFound, err.Error())
		return
	}
	if err := tablebase.CheckVariant(v); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
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
	t, err := s.cfg.Store.FindMaterial(v, m, tablebase.MemoryOrDisk)
	if err != nil {
		if pieces > s.cfg.BuildPieces {
			fail(w, http.StatusNotFound, "no table "+m.String()+" for "+v.Name)
			return
		}
		b := s.builds.want(v, m)
		if b != nil && b.Error != "" {
			fail(w, http.StatusBadRequest, b.Error)
			return
		}
		writeJSON(w, http.StatusAccepted, map[string]any{"building": b})
		return
	}
	st := s.stats.get(t)
	if st == nil {
		writeJSON(w, http.StatusAccepted, map[string]any{"computing": true})
		return
	}
	writeJSON(w, http.StatusOK, st)
}
