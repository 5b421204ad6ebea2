package search

import (
	"runtime"
	"sync"
	"sync/atomic"

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

// ttEntry is one stored search result, unpacked. The score is relative to
// the node (see toTT), and valid only as the bound says: storing a cut-off
// score as exact is the classic transposition-table bug.
type ttEntry struct {
	move  engine.Move
	score int16
	depth int8
	bound Bound
	gen   uint8
}

// pack and unpack lay an entry out in one word: move in bits 0–31, score
// 32–47, depth 48–55, bound 56–57, generation 58–63.
func (e ttEntry) pack() uint64 {
	return uint64(e.move) | uint64(uint16(e.score))<<32 | uint64(uint8(e.depth))<<48 |
		uint64(e.bound&3)<<56 | uint64(e.gen&63)<<58
}

func unpack(d uint64) ttEntry {
	return ttEntry{move: engine.Move(uint32(d)), score: int16(uint16(d >> 32)), depth: int8(uint8(d >> 48)),
		bound: Bound(d >> 56 & 3), gen: uint8(d >> 58)}
}

// slot holds one entry for any number of threads without a lock: the data
// word and the key XORed with it are written separately, so a reader that
// sees halves of two different writes finds that the key does not check
// out, and treats the slot as a miss (Hyatt and Mann's lockless hashing).
type slot struct {
	check, data atomic.Uint64
}

// bucketSize is the number of slots a key may use: a deep result and a
// recent one can live side by side.
const bucketSize = 2

// table is the transposition table shared by the search threads: a
// power-of-two array of two-slot buckets indexed by the low bits of the
// key.
type table struct {
	slots []slot
	mask  uint64 // bucket index mask
	gen   uint8  // written only between searches
	// used: a search has begun since the table was made or last
	// cleared, so it may hold entries (written only between searches).
	used bool
}

const ttEntrySize = 16 // bytes per slot

// newTable allocates a table of about mb MiB (at least one bucket).
func newTable(mb int) *table {
	n := tableSlots(mb)
	t := &table{slots: hugeSlice[slot](n), mask: uint64(n/bucketSize) - 1}
	t.touch()
	return t
}

// tableSlots is the number of slots of a table of at most mb MiB: a
// power of two buckets (the mask picks one), at least one.
func tableSlots(mb int) int {
	n := uint64(1)
	for n*2*bucketSize*ttEntrySize <= uint64(max(mb, 0))<<20 {
		n *= 2
	}
	return int(n * bucketSize)
}

// touch writes to every page of the table, in parallel, so that the
// memory is the engine's now, when the GUI sets the option and waits for
// readyok, and not page by page during the first search (the kernel hands
// pages out on first write).
func (t *table) touch() {
	const perPage = 4096 / ttEntrySize
	t.inParallel(func(part []slot) {
		for i := 0; i < len(part); i += perPage {
			part[i].data.Store(0)
		}
	})
}

// inParallel calls do on one share of the slots per processor: a table of
// gigabytes is touched or cleared in a fraction of the time.
func (t *table) inParallel(do func(part []slot)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	size := (len(t.slots) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		part := t.slots[min(w*size, len(t.slots)):min((w+1)*size, len(t.slots))]
		wg.Go(func() { do(part) })
	}
	wg.Wait()
}

// bucket returns the slots key may occupy.
func (t *table) bucket(key uint64) []slot {
	i := (key & t.mask) * bucketSize
	return t.slots[i : i+bucketSize]
}

// probe returns the entry for key, if stored.
func (t *table) probe(key uint64) (ttEntry, bool) {
	b := t.bucket(key)
	for i := range b {
		s := &b[i]
		d := s.data.Load()
		if s.check.Load()^d == key {
			if e := unpack(d); e.bound != BoundNone {
				return e, true
			}
		}
	}
	return ttEntry{}, false
}

// store saves a result: over the key's own slot if it has one, else over
// the slot whose content is worth least (shallow, or from an older
// search).
func (t *table) store(key uint64, move engine.Move, score Score, depth int, bound Bound) {
	b := t.bucket(key)
	victim, worth := 0, 1<<30
	for i := range b {
		d := b[i].data.Load()
		old := unpack(d)
		if b[i].check.Load()^d == key && old.bound != BoundNone {
			if move == engine.NoMove {
				move = old.move // keep the best move of a shallower search
			}
			// A much shallower bound for the same position (a quiescence
			// result over a searched one) does not replace a deeper entry
			// from this search; an exact score always does.
			if old.gen == t.gen&63 && bound != BoundExact && int(old.depth) > depth+3 {
				return
			}
			victim = i
			break
		}
		w := int(old.depth)
		if old.bound == BoundNone {
			w = -1000
		} else if old.gen != t.gen&63 {
			w -= 256 // entries of earlier searches go first
		}
		if w < worth {
			victim, worth = i, w
		}
	}
	d := ttEntry{move: move, score: int16(score), depth: int8(max(min(depth, 127), -1)), bound: bound, gen: t.gen & 63}.pack()
	b[victim].data.Store(d)
	b[victim].check.Store(key ^ d)
}

// newSearch ages the entries of earlier searches. Only between searches.
func (t *table) newSearch() {
	t.gen = (t.gen + 1) & 63
	t.used = true
}

// clear empties the table. Only between searches.
func (t *table) clear() {
	if !t.used {
		// Still zero: made so, or cleared, and no search since (gen is
		// 0 too). A new session cleared its fresh table twice, for its
		// variant and its first search's, 16 MiB each time.
		return
	}
	// Between searches no thread reads or writes the table (as for gen),
	// so plain zeroing will do: an atomic store is a locked exchange on
	// most processors, and two a slot made clearing a 16 MiB table take
	// several times as long, once a game in self-play and tuning.
	t.inParallel(func(part []slot) { clear(part) })
	t.gen, t.used = 0, false
}

// hashfull returns the permille of sampled slots used by this search.
func (t *table) hashfull() int {
	n := min(len(t.slots), 1000)
	used := 0
	for i := 0; i < n; i++ {
		if e := unpack(t.slots[i].data.Load()); e.bound != BoundNone && e.gen == t.gen&63 {
			used++
		}
	}
	return used * 1000 / n
}
