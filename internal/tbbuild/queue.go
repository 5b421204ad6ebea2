package tbbuild

import (
	"errors"
	"slices"
	"sort"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Prepare plans the tables for the endings reachable from p (the
// variant's start position when p is nil): KBNvK first when the variant
// has those pieces, then each ending at most three captures away, nearest
// first. The plan replaces the one before; tables already stored are
// skipped.
func (b *Builder) Prepare(v *engine.Variant, p *engine.Position) {
	plan := b.plan(v, p)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue = b.queue[:0]
	for _, m := range plan {
		b.enqueue(v, m, false)
	}
	b.startLocked()
}

// Want asks for one table next (the search met its position at the root).
func (b *Builder) Want(v *engine.Variant, m tablebase.Material) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.enqueue(v, m, true)
	b.startLocked()
}

// Hurry asks for one table next and lets it be built even while the
// builder is paused: the search needs it on its next move.
func (b *Builder) Hurry(v *engine.Variant, m tablebase.Material) {
	m, err := m.Normalised(v)
	if err != nil {
		return
	}
	k := keyOf(v, m)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.unmarkLocked(k, tableTried) // a failure before may have been a cap since raised
	b.enqueue(v, m, true)
	cur := b.current
	queued := slices.ContainsFunc(b.queue, func(j job) bool { return j.key == k })
	if (cur != nil && cur.key == k) || b.isLocked(k, tableLoading) || queued {
		b.markLocked(k, tableHurried)
	}
	if cur != nil && queued && cur.key != k && !b.isLocked(cur.key, tableHurried) && cur.state != givingWay {
		// A build nobody waits for gives way to one a search needs; it is
		// queued again. (A file being read needs no way made: reading
		// goes on beside the build.)
		cur.giveWay()
	}
	b.holdChildLocked()
	b.cond.Broadcast()
	b.startLocked()
}

// enqueue adds a buildable, not yet tried table to the queue, at the front
// when first. A table over MaxPieces is only read, when its file exists
// (tb generate makes five-piece tables; the builder does not).
func (b *Builder) enqueue(v *engine.Variant, m tablebase.Material, first bool) {
	m, err := m.Normalised(v)
	if err != nil || tablebase.CheckMaterial(v, m) != nil {
		return
	}
	if len(m.Strong)+len(m.Weak) > b.MaxPieces && !b.store.HasFile(v, m) {
		return
	}
	k := keyOf(v, m)
	if b.isLocked(k, tableTried|tableLoading) || (b.current != nil && b.current.key == k) {
		return
	}
	if _, err := b.store.FindMaterial(v, m, tablebase.MemoryOnly); err == nil {
		return
	}
	if b.store.HasFile(v, m) {
		b.loadLocked(v, m, k)
		return
	}
	b.queueLocked(job{v: v, m: m, key: k}, first)
}

// queueLocked puts a job in the queue, at the front when first (moving it
// there if it was queued).
func (b *Builder) queueLocked(j job, first bool) {
	for i, q := range b.queue {
		if q.key == j.key {
			if !first {
				return
			}
			b.queue = slices.Delete(b.queue, i, i+1)
			break
		}
	}
	if first {
		b.queue = slices.Insert(b.queue, 0, j)
	} else {
		b.queue = append(b.queue, j)
	}
	b.cond.Broadcast()
}

// loadLocked reads a table's file in a goroutine of its own: reading takes
// milliseconds, so it does not wait behind a build in the queue. A file
// that is damaged, or made for another definition of the variant, is
// queued to be built again (the store rebuilds it, and says so).
func (b *Builder) loadLocked(v *engine.Variant, m tablebase.Material, k key) {
	b.markLocked(k, tableLoading)
	go func() {
		_, err := b.store.FindMaterial(v, m, tablebase.MemoryOrDisk)
		if err == nil {
			b.touchBuilt(v, m) // in use: the last to be removed
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		b.unmarkLocked(k, tableLoading)
		rebuild := errors.Is(err, tablebase.ErrCorrupt) || errors.Is(err, tablebase.ErrStale)
		switch {
		case err == nil:
			b.unmarkLocked(k, tableHurried)
		case errors.Is(err, tablebase.ErrGenerating):
			// Await builds it in this process: it is in memory soon.
		case rebuild && len(m.Strong)+len(m.Weak) <= b.MaxPieces:
			b.log("tablebase: %v; building it again", err)
			b.markLocked(k, tableUnreadable)
			hurried := b.isLocked(k, tableHurried)
			b.queueLocked(job{v: v, m: m, key: k}, hurried)
			if cur := b.current; hurried && cur != nil && !b.isLocked(cur.key, tableHurried) && cur.state != givingWay {
				cur.giveWay() // now that it must be built, the search's table goes first
			}
		default:
			b.unmarkLocked(k, tableHurried)
			b.markLocked(k, tableTried)
			b.log("tablebase: %s %s could not be read: %v", v.Name, m, err)
		}
		b.cond.Broadcast()
	}()
}

// Plan returns, as names, the tables Prepare would plan for p (the
// variant's start position when p is nil), best first.
func (b *Builder) Plan(v *engine.Variant, p *engine.Position) []string {
	var names []string
	for _, m := range b.plan(v, p) {
		names = append(names, m.String())
	}
	return names
}

// plan lists the materials worth building for p (the variant's start
// position when p is nil), best first; none when the generator cannot
// model the variant.
func (b *Builder) plan(v *engine.Variant, p *engine.Position) []tablebase.Material {
	if tablebase.CheckVariant(v) != nil {
		return nil
	}
	if p == nil {
		p = v.StartPosition()
	}
	const maxCaptures = 3
	var pieces [2][]byte // each side's non-royal letters
	total := 0
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range p.Pieces(c) {
			total++
			pt := v.PieceType(p.At(s))
			if !pt.Royal {
				pieces[c] = append(pieces[c], pt.Letter)
			}
		}
	}
	type candidate struct {
		m        tablebase.Material
		captures int
	}
	seen := map[tablebase.Material]bool{}
	var cands []candidate
	add := func(m tablebase.Material, captures int) {
		if seen[m] || tablebase.CheckMaterial(v, m) != nil {
			return
		}
		seen[m] = true
		cands = append(cands, candidate{m, captures})
	}
	if m, err := (tablebase.Material{Strong: "KBN", Weak: "K"}).Normalised(v); err == nil {
		add(m, -1) // the mission's ending comes first
	}
	// Up to MaxPieces to build, and up to the generator's limit to read
	// where a file exists.
	for _, white := range subsets(pieces[engine.White], tablebase.MaxPieces-2) {
		for _, black := range subsets(pieces[engine.Black], tablebase.MaxPieces-2-len(white)) {
			n := 2 + len(white) + len(black)
			if n < 3 || total-n > maxCaptures {
				continue
			}
			m, err := (tablebase.Material{Strong: "K" + white, Weak: "K" + black}).Normalised(v)
			if err == nil && (n <= b.MaxPieces || b.store.HasFile(v, m)) {
				add(m, total-n)
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].captures < cands[j].captures })
	out := make([]tablebase.Material, len(cands))
	for i, c := range cands {
		out[i] = c.m
	}
	return out
}

// subsets returns the distinct sub-multisets of letters with at most n
// letters, each in sorted order.
func subsets(letters []byte, n int) []string {
	sorted := append([]byte(nil), letters...)
	slices.Sort(sorted)
	var out []string
	var walk func(from int, prefix string)
	walk = func(from int, prefix string) {
		out = append(out, prefix)
		if len(prefix) == n {
			return
		}
		for i := from; i < len(sorted); i++ {
			if i > from && sorted[i] == sorted[i-1] {
				continue // the same letter again would repeat a subset
			}
			walk(i+1, prefix+string(sorted[i]))
		}
	}
	walk(0, "")
	return out
}
