package search

import (
	"runtime"
	"sync"

	"github.com/chimera-chess/chimera/engine"
)

// Bound says what a stored score is: the exact value, or only a lower bound
// (the search failed high) or an upper bound (it failed low).
type Bound uint8

// The bounds.
const (
	BoundNone Bound = iota
	BoundUpper
	BoundLower
	BoundExact
)

// ttEntry is one stored search result. The score is relative to the node
// (see toTT), and valid only as the bound says: storing a cut-off score as
// exact is the classic transposition-table bug.
type ttEntry struct {
	key   uint64
	move  engine.Move
	score int16
	depth int8
	bound Bound
	gen   uint8
}

// table is the transposition table: a power-of-two array of entries indexed
// by the low bits of the key.
type table struct {
	entries []ttEntry
	mask    uint64
	gen     uint8
}

const ttEntrySize = 24 // bytes, as laid out on amd64

// newTable allocates a table of about mb MiB (at least one entry).
func newTable(mb int) *table {
	n := uint64(1)
	for n*2*ttEntrySize <= uint64(max(mb, 0))<<20 {
		n *= 2
	}
	t := &table{entries: make([]ttEntry, n), mask: n - 1}
	t.touch()
	return t
}

// touch writes to every page of the table, in parallel, so that the
// memory is the engine's now, when the GUI sets the option and waits for
// readyok, and not page by page during the first search (the kernel hands
// pages out on first write).
func (t *table) touch() {
	const perPage = 4096 / ttEntrySize
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	part := (len(t.entries) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		part := t.entries[min(w*part, len(t.entries)):min((w+1)*part, len(t.entries))]
		wg.Go(func() {
			for i := 0; i < len(part); i += perPage {
				part[i].gen = 0
			}
		})
	}
	wg.Wait()
}

// probe returns the entry for key, if stored.
func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != BoundNone
}

// store saves a result. An entry from the current search that was searched
// deeper for another position is kept; anything else is replaced.
func (t *table) store(key uint64, move engine.Move, score Score, depth int, bound Bound) {
	e := &t.entries[key&t.mask]
	if e.key != key && e.gen == t.gen && int(e.depth) > depth && e.bound != BoundNone {
		return
	}
	if move == engine.NoMove && e.key == key {
		move = e.move // keep the best move of a shallower search
	}
	*e = ttEntry{key: key, move: move, score: int16(score), depth: int8(max(min(depth, 127), -1)), bound: bound, gen: t.gen}
}

// newSearch ages the entries of earlier searches.
func (t *table) newSearch() { t.gen++ }

// clear empties the table.
func (t *table) clear() {
	clear(t.entries)
	t.gen = 0
}

// hashfull returns the permille of sampled entries used by this search.
func (t *table) hashfull() int {
	n := min(len(t.entries), 1000)
	used := 0
	for i := 0; i < n; i++ {
		if t.entries[i].bound != BoundNone && t.entries[i].gen == t.gen {
			used++
		}
	}
	return used * 1000 / n
}
