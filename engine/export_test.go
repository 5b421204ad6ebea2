package engine

// ComputeKey exposes the from-scratch Zobrist key to the external tests.
func (p *Position) ComputeKey() uint64 { return p.computeKey() }

// Snapshot returns a copy of every field of the position but the history,
// so tests can compare states exactly.
func (p *Position) Snapshot() Position {
	q := *p
	q.history = nil
	return q
}
