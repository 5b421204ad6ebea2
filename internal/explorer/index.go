package explorer

import (
	"net/http"
	"slices"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// IndexEntry is one table of a variant's endgame index: present (with its
// file's size and, once counted, its longest win), being built, or
// buildable on request (with its estimated size), or refused.
type IndexEntry struct {
	Material string  `json:"material"`
	Pieces   int     `json:"pieces"`
	State    string  `json:"state"` // present, queued, running, buildable, failed, over budget
	Size     int64   `json:"size"`  // bytes of its file (estimated when not present)
	Progress float64 `json:"progress,omitempty"`
	Error    string  `json:"error,omitempty"`
	// LongestWin is the longest win in plies (either side to move), when
	// the statistics have been counted; 0 otherwise.
	LongestWin int `json:"longest_win,omitempty"`
}

// maxIndexEntries bounds the buildable tables listed: a variant with
// many piece types has thousands of four-piece materials.
const maxIndexEntries = 400

// serveIndex answers GET /api/tables/{variant}: the variant's endgame
// index, present tables first, then by pieces and name.
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	v, ok := s.tablesVariant(w, r)
	if !ok {
		return
	}
	entries := map[string]*IndexEntry{}
	for _, f := range s.tableFiles() {
		if f.Variant != v {
			continue
		}
		e := &IndexEntry{Material: f.Material.String(), Pieces: pieces(f.Material), State: "present", Size: f.Size}
		if st, ok := s.stats.cached(v, f.Material); ok {
			e.LongestWin = st.longestWin()
		}
		entries[e.Material] = e
	}
	for _, b := range s.builds.list() {
		if b.Variant != v.Name {
			continue
		}
		if e := entries[b.Table]; e == nil || e.State != "present" {
			m, _ := tablebase.ParseMaterial(v, b.Table)
			entries[b.Table] = &IndexEntry{Material: b.Table, Pieces: pieces(m), State: b.State, Progress: b.Progress, Error: b.Error}
		}
	}
	if !s.cfg.ReadOnly {
		for _, m := range materials(v, s.cfg.BuildPieces) {
			if len(entries) >= maxIndexEntries {
				break
			}
			if _, ok := entries[m.String()]; ok {
				continue
			}
			cost, err := s.cfg.Store.GenerationCost(v, m)
			if err != nil {
				continue
			}
			e := &IndexEntry{Material: m.String(), Pieces: pieces(m), State: "buildable", Size: cost.File}
			if cost.Memory > s.cfg.BuildMemory {
				e.State, e.Error = buildOverBudget, "over this server's memory cap for a generation"
			}
			entries[e.Material] = e
		}
	}
	out := make([]IndexEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b IndexEntry) int {
		if (a.State == "present") != (b.State == "present") {
			if a.State == "present" {
				return -1
			}
			return 1
		}
		if a.Pieces != b.Pieces {
			return a.Pieces - b.Pieces
		}
		return strings.Compare(a.Material, b.Material)
	})
	w.Header().Set("Cache-Control", cacheBrief)
	writeJSON(w, http.StatusOK, map[string]any{"variant": v.Name, "build_pieces": s.cfg.BuildPieces, "read_only": s.cfg.ReadOnly, "tables": out})
}

// tablesVariant reads the request's variant, one with tables, or answers
// the error (404 unknown, 400 without tables).
func (s *Server) tablesVariant(w http.ResponseWriter, r *http.Request) (*engine.Variant, bool) {
	v, err := s.variant(r.PathValue("variant"))
	if err != nil {
		fail(w, http.StatusNotFound, err.Error())
		return nil, false
	}
	if err := tablebase.CheckVariant(v); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	return v, true
}

// pieces is a material's piece count, kings included.
func pieces(m tablebase.Material) int { return len(m.Strong) + len(m.Weak) }

// materials lists the materials of up to n pieces (the royal pieces
// included) the generator takes for v, fewer pieces first.
func materials(v *engine.Variant, n int) []tablebase.Material {
	var out []tablebase.Material
	for k := 3; k <= n; k++ {
		out = append(out, tablebase.Materials(v, k)...)
	}
	return out
}
