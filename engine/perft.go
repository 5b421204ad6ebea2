package engine

// Perft counts the leaf nodes of the legal move tree to the given depth, the
// standard test of a move generator. At depth 1 it counts the legal moves
// without making them (bulk counting).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	buffers := make([][]Move, depth)
	for i := range buffers {
		buffers[i] = make([]Move, 0, MaxMoves)
	}
	return p.perft(depth, buffers)
}

func (p *Position) perft(depth int, buffers [][]Move) uint64 {
	moves := p.LegalMoves(buffers[depth-1])
	buffers[depth-1] = moves[:0] // keep a buffer that had to grow
	if depth == 1 {
		return uint64(len(moves))
	}
	var nodes uint64
	for _, m := range moves {
		p.Make(m)
		nodes += p.perft(depth-1, buffers)
		p.Unmake()
	}
	return nodes
}

// DivideEntry is one root move and the leaf count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for each legal move, the perft count of depth-1 below it,
// in move generation order: the tool for finding where two generators differ.
func (p *Position) Divide(depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var out []DivideEntry
	for _, m := range p.LegalMoves(make([]Move, 0, MaxMoves)) {
		p.Make(m)
		out = append(out, DivideEntry{Move: m, Nodes: p.Perft(depth - 1)})
		p.Unmake()
	}
	return out
}
