package tablebase

import (
	"sync"

	"github.com/chimera-chess/chimera/engine"
)

// Prober answers positions of up to MaxProbe pieces for the search (it
// implements search.Prober). Inside the tree it looks in memory only
// (Store.Find with MemoryOnly): a search on the clock never waits on the
// disk or a generation. At the root a table not in memory is reported to
// Missing (a builder, which loads or builds it in the engine's idle time)
// or, without Missing, read from its file.
type Prober struct {
	store *Store
	// MaxProbe bounds the material probed (kings included).
	MaxProbe int
	// Missing, when set, is told the material of a root position whose
	// table the generator supports but that is not in memory.
	Missing func(v *engine.Variant, m Material)

	mu sync.Mutex
	// unavailable remembers root positions no table can hold, by variant
	// and material key, so the search does not ask again.
	unavailable map[positionID]bool
}

// Prober returns a prober over the store's tables (up to MaxPieces pieces).
func (s *Store) Prober() *Prober {
	return &Prober{store: s, MaxProbe: MaxPieces, unavailable: map[positionID]bool{}}
}

// Probe implements search.Prober. At the root it also returns a move that
// keeps the optimal distance (the first, in generation order, of the best).
func (pr *Prober) Probe(p *engine.Position, root bool) (wdl, dtm int, best engine.Move, ok bool) {
	// Most positions have too many pieces: answer them before any lookup.
	n := p.PieceCount()
	if n > pr.MaxProbe || n < 3 || (!root && n > int(pr.store.largest.Load())) {
		return 0, 0, engine.NoMove, false
	}
	ep := p.EnPassant() != engine.NoSquare
	if ep && !root {
		return 0, 0, engine.NoMove, false // no table holds it: the search goes one ply on
	}
	t, err := pr.store.Find(p, MemoryOnly)
	if err != nil {
		if !root {
			return 0, 0, engine.NoMove, false // no disk reads inside the tree
		}
		if t = pr.atRoot(p); t == nil {
			return 0, 0, engine.NoMove, false
		}
	}
	var r Result
	if !ep {
		v := t.lookup(p)
		if v == notPosition {
			return 0, 0, engine.NoMove, false
		}
		r = decode(v)
	}
	if root {
		// The move needs every child's table, in memory only: a search
		// never reads or builds one (the builder prepares them).
		all, bestMoves, err := t.Moves(p, pr.store.Finder(MemoryOnly))
		if err != nil || len(bestMoves) == 0 {
			return 0, 0, engine.NoMove, false
		}
		best = bestMoves[0]
		if ep {
			r = bestResult(p, all)
		}
	}
	return r.WDL, r.DTM, best, true
}

// atRoot returns the table of a root position that is not in memory: read
// from its file when there is no Missing to tell, else nil after telling
// it. A position no table can hold is remembered and not asked again.
func (pr *Prober) atRoot(p *engine.Position) *Table {
	key, _ := positionKey(p)
	id := positionID{p.Variant(), key}
	pr.mu.Lock()
	skip := pr.unavailable[id]
	pr.mu.Unlock()
	if skip {
		return nil
	}
	m, err := TableMaterial(p)
	if err != nil {
		pr.mu.Lock()
		pr.unavailable[id] = true
		pr.mu.Unlock()
		return nil
	}
	if pr.Missing != nil {
		pr.Missing(p.Variant(), m)
		return nil
	}
	t, err := pr.store.Find(p, MemoryOrDisk)
	if err != nil {
		return nil
	}
	return t
}
