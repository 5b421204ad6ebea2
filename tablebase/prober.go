package tablebase

import (
	"fmt"
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
	// FiftyMove makes the answers honour the variant's move rule (the
	// TablebaseFiftyMove option): a win the position's clock and its
	// distance to zeroing cannot bring home in time is a draw, and at the
	// root the move keeps the win within the rule.
	FiftyMove bool
	// Report, when set, is told at the root which table answered, by
	// which metric.
	Report func(string)

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
	fifty := pr.FiftyMove && t.HasDTZ()
	var r Result
	if !ep {
		var v, dtz byte
		if root {
			var err error
			if v, dtz, err = t.at(p); err != nil {
				return 0, 0, engine.NoMove, false // a damaged block: no answer, never a wrong one
			}
		} else if v, dtz, ok = t.atCached(p); !ok {
			// Inside the tree a block not decoded yet is no answer: it
			// is decoded in the background, and the search goes on
			// (a decode costs as much as hundreds of nodes).
			return 0, 0, engine.NoMove, false
		}
		r = Decode(v)
		if !root && fifty && r.WDL != 0 && !t.InTime(p, int(dtz)) {
			return 0, 0, engine.NoMove, true // the rule draws it first
		}
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
		wdl := r.WDL
		if fifty {
			wdl, best = t.underRule(p, r, all, best)
		}
		if pr.Report != nil {
			pr.Report(t.explain(p, r, wdl, fifty))
		}
		return wdl, r.DTM, best, true
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

// InTime reports whether a decided position of distance to zeroing d
// (ProbeDTZ's) is decided within the move rule from its clock: the
// zeroing move (or mate) comes before the count runs out.
func (t *Table) InTime(p *engine.Position, d int) bool {
	return p.HalfmoveClock()+max(d, -d) <= RuleLimit(t.Variant)
}

// underRule returns a root position's outcome under the move rule and the
// move to play: winning, one that keeps the win within the rule, the one
// of them closest to mate (dtmBest if it is one); losing, the longest
// resistance to zeroing; where the clock turns a win into a draw (or
// saves a loss), the outcome is a draw and the move the one nearest to
// zeroing (or furthest from it), in case the other side errs.
func (t *Table) underRule(p *engine.Position, r Result, all []MoveValue, dtmBest engine.Move) (int, engine.Move) {
	fits := func(mv MoveValue) bool { return t.InTime(p, mv.DTZ) }
	// pick returns the best move by better among those keep keeps.
	pick := func(keep func(MoveValue) bool, better func(a, b MoveValue) bool) (engine.Move, bool) {
		found := -1
		for i, mv := range all {
			if mv.HasDTZ && keep(mv) && (found < 0 || better(mv, all[found])) {
				found = i
			}
		}
		if found < 0 {
			return engine.NoMove, false
		}
		return all[found].Move, true
	}
	nearer := func(a, b MoveValue) bool { return a.DTZ < b.DTZ } // wins: sooner; losses: later
	switch r.WDL {
	case 1:
		winning := func(mv MoveValue) bool { return mv.DTZ > 0 && fits(mv) }
		for _, mv := range all {
			if mv.Move == dtmBest && mv.HasDTZ && winning(mv) {
				return 1, dtmBest // the fastest mate keeps the win in time
			}
		}
		if m, ok := pick(winning, func(a, b MoveValue) bool { return Better(a.Result, b.Result) }); ok {
			return 1, m
		}
		// The clock draws it: zero as soon as possible, in case.
		m, _ := pick(func(mv MoveValue) bool { return mv.DTZ > 0 }, nearer)
		return 0, m
	case -1:
		// Every move loses by distance to mate; one that reaches the
		// count's end before zeroing draws.
		if m, saved := pick(func(mv MoveValue) bool { return !fits(mv) }, nearer); saved {
			return 0, m
		}
		m, _ := pick(func(MoveValue) bool { return true }, nearer)
		return -1, m
	}
	return 0, dtmBest
}

// explain says which table answered a root position and by which metric.
func (t *Table) explain(p *engine.Position, r Result, wdl int, fifty bool) string {
	s := fmt.Sprintf("tablebase %s: %s by distance to mate", t.Material, r)
	if r.WDL == 0 {
		return s
	}
	if !fifty {
		if t.HasDTZ() {
			s += " (TablebaseFiftyMove off: the move rule is not counted)"
		}
		return s
	}
	dtz, err := t.ProbeDTZ(p)
	if err != nil {
		return s
	}
	rule := t.Variant.MoveRule
	s += fmt.Sprintf("; %d plies to zeroing, %d on the clock", max(dtz, -dtz), p.HalfmoveClock())
	switch {
	case wdl == 0 && r.WDL > 0:
		s += fmt.Sprintf(": the %d-move rule draws it (a cursed win)", rule)
	case wdl == 0:
		s += fmt.Sprintf(": the %d-move rule saves it (a blessed loss)", rule)
	default:
		s += fmt.Sprintf(": decided within the %d-move rule", rule)
	}
	return s
}
