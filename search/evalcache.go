package search

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
