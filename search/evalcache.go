package search

import "github.com/chimera-chess/chimera/engine"

// evalCacheSize is the number of cached evaluations (a power of two).
const evalCacheSize = 1 << 16

// evalCache remembers recent static evaluations by position key: iterative
// deepening visits the same quiescence leaves again and again, and the
// mobility count is the dearest part of the evaluation.
type evalCache struct {
	keys   [evalCacheSize]uint64
	scores [evalCacheSize]int32
}

func (c *evalCache) clear() { *c = evalCache{} }

// evaluate returns the static evaluation of p for the side to move.
func (s *Searcher) evaluate(p *engine.Position) Score {
	key := p.Key()
	i := key & (evalCacheSize - 1)
	// A zero key would match an empty slot; such positions are just not
	// cached.
	if key != 0 && s.evals.keys[i] == key {
		return Score(s.evals.scores[i])
	}
	score := s.eval.Evaluate(p)
	s.evals.keys[i], s.evals.scores[i] = key, int32(score)
	return Score(score)
}
