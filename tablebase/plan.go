package tablebase

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/chimera-chess/chimera/engine"
)

// PlanEntry is one table of a plan: what it needs and what it takes.
type PlanEntry struct {
	Material Material
	// Level is 0 for a table that needs no other, else one more than the
	// deepest table it needs: the tables of one level are independent of
	// each other, so a cluster builds them at once.
	Level int
	// Needs are the tables its captures and promotions lead into.
	Needs []Material
	Cost  Cost
	// Exists says the table is in memory or has a file in the store's
	// directory: nothing to build.
	Exists bool
}

// Plan returns every table the targets need, the targets included, by
// level and then by name: the dependency graph of a table set.
func (s *Store) Plan(v *engine.Variant, targets []Material) ([]PlanEntry, error) {
	if s.Generator == nil {
		return nil, fmt.Errorf("%s: a plan of what to build: %w", v.Name, ErrNoGenerator)
	}
	entries := map[Material]*PlanEntry{}
	var visit func(m Material) (*PlanEntry, error)
	visit = func(m Material) (*PlanEntry, error) {
		m, err := m.Normalised(v)
		if err != nil {
			return nil, err
		}
		if e, ok := entries[m]; ok {
			return e, nil
		}
		cost, err := s.Generator.Cost(v, m)
		if err != nil {
			return nil, err
		}
		needs, err := s.Generator.Needs(v, m)
		if err != nil {
			return nil, err
		}
		_, inMemory := s.FindMaterial(v, m, MemoryOnly)
		e := &PlanEntry{Material: m, Needs: needs, Cost: cost, Exists: inMemory == nil || s.HasFile(v, m)}
		entries[m] = e
		for _, n := range needs {
			child, err := visit(n)
			if err != nil {
				return nil, err
			}
			e.Level = max(e.Level, child.Level+1)
		}
		return e, nil
	}
	for _, m := range targets {
		if _, err := visit(m); err != nil {
			return nil, err
		}
	}
	out := make([]PlanEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b PlanEntry) int {
		return cmp.Or(cmp.Compare(a.Level, b.Level), cmp.Compare(a.Material.String(), b.Material.String()))
	})
	return out, nil
}

// Materials returns every material of exactly n pieces (the royal pieces
// included) that the generator takes for v, each once, in order of the
// pieces' letters: a variant's table set (chess: 5 of three pieces, 30 of
// four).
func Materials(v *engine.Variant, n int) []Material {
	var royal byte
	var others []byte
	for _, pt := range v.Pieces {
		switch {
		case pt.Royal && royal == 0:
			royal = pt.Letter
		case !pt.Royal:
			others = append(others, pt.Letter)
		}
	}
	if royal == 0 || n < 3 {
		return nil
	}
	// sides lists the multisets of k letters from others[from:].
	var sides func(k, from int) []string
	sides = func(k, from int) []string {
		if k == 0 {
			return []string{""}
		}
		var out []string
		for i := from; i < len(others); i++ {
			for _, rest := range sides(k-1, i) {
				out = append(out, string(others[i])+rest)
			}
		}
		return out
	}
	seen := map[Material]bool{}
	var out []Material
	total := n - 2
	for weak := 0; weak*2 <= total; weak++ {
		for _, a := range sides(total-weak, 0) {
			for _, b := range sides(weak, 0) {
				m, err := Material{Strong: string(royal) + a, Weak: string(royal) + b}.Normalised(v)
				if err != nil || seen[m] {
					continue
				}
				if _, err := newGeometry(v, m); err != nil {
					continue // the generator does not take it
				}
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}
