package tablebase

import (
	"github.com/chimera-chess/chimera/engine"
)

// Prober answers positions of up to MaxProbe pieces for the search (it
// implements search.Prober) from tables in memory: a search on the clock
// never waits on the disk or a generation. At the root a table not in
// memory is reported to Missing (a Builder's Want, which loads or builds
// it in the engine's idle time) or, without Missing, read from disk.
type Prober struct {
	store *Store
	// MaxProbe bounds the material probed (kings included).
	MaxProbe int
	// Missing, when set, is told the material of a root position whose
	// table the generator supports but that is not in memory.
	Missing func(v *engine.Variant, m Material)
	// unavailable remembers materials no table can cover, by material key,
	// so the search does not ask again.
	unavailable map[uint64]bool
}

// Prober returns a prober over the store's tables (up to MaxPieces pieces).
func (s *Store) Prober() *Prober {
	return &Prober{store: s, MaxProbe: MaxPieces, unavailable: map[uint64]bool{}}
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
	t, loaded := pr.store.Loaded(p)
	if !loaded {
		if !root {
			return 0, 0, engine.NoMove, false // no disk reads inside the tree
		}
		key, _ := positionKey(p)
		pr.store.mu.Lock()
		skip := pr.unavailable[key]
		pr.store.mu.Unlock()
		if skip {
			return 0, 0, engine.NoMove, false
		}
		m, err := TableMaterial(p)
		if err != nil {
			pr.store.mu.Lock()
			pr.unavailable[key] = true
			pr.store.mu.Unlock()
			return 0, 0, engine.NoMove, false
		}
		if pr.Missing != nil {
			pr.Missing(p.Variant(), m)
			return 0, 0, engine.NoMove, false
		}
		var found bool
		if t, found = pr.store.stored(p.Variant(), m); !found || !t.Covers(p) {
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
		missing := false
		inMemory := func(c *engine.Position) (*Table, bool) {
			if c.PieceCount() <= 2 {
				return nil, false // bare kings: a draw
			}
			t, ok := pr.store.Loaded(c)
			missing = missing || !ok
			return t, ok
		}
		all, bestMoves, err := t.Moves(p, inMemory)
		if err != nil || missing || len(bestMoves) == 0 {
			return 0, 0, engine.NoMove, false
		}
		best = bestMoves[0]
		if ep {
			r = bestResult(p, all)
		}
	}
	return r.WDL, r.DTM, best, true
}
