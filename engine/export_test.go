package engine

// ComputeKey exposes the from-scratch Zobrist key to the external tests.
func (p *Position) ComputeKey() uint64 { return p.computeKey() }

// Snapshot returns a copy of every field of the position but the history,
// so tests can compare states exactly.
func (p *Position) Snapshot() Position {
	q := *p
	q.history = nil
	q.removed = nil
	// Slots of empty squares and of list entries past the end hold stale
	// values that nothing reads.
	for s := range q.index {
		if q.board[s] == NoPiece {
			q.index[s] = 0
		}
	}
	for c := range q.list {
		for i := q.count[c]; i < len(q.list[c]); i++ {
			q.list[c][i] = 0
		}
	}
	return q
}

// LegalMovesByMaking keeps the pseudo-legal moves after which, made, the
// mover is safe: the oracle for the fast paths (pins, and legalByMaking's
// tests on the board).
func (p *Position) LegalMovesByMaking(dst []Move) []Move {
	dst = p.PseudoLegalMoves(dst[:0])
	if p.royals[p.stm] == 0 && !p.v.special {
		return dst
	}
	kept := 0
	for _, m := range dst {
		if p.v.BlastOnCapture && p.v.royalTypes>>p.board[m.From()]&1 != 0 && p.isCapture(m) {
			continue
		}
		if p.legalAfter(m) {
			dst[kept] = m
			kept++
		}
	}
	return dst[:kept]
}

// MobilitiesByLoop counts mobility square by square (and the drops, as
// Mobilities does), the oracle for the bit-mask count of small boards.
func (p *Position) MobilitiesByLoop() (white, black int) {
	for _, from := range p.Pieces(White) {
		white += p.countPiece(from, White)
	}
	for _, from := range p.Pieces(Black) {
		black += p.countPiece(from, Black)
	}
	if p.v.PieceDrops {
		white, black = white+p.countDrops(White), black+p.countDrops(Black)
	}
	return white, black
}

// DrawsInsufficientMaterial exposes whether the variant applies chess's
// insufficient-material draw.
func (v *Variant) DrawsInsufficientMaterial() bool { return v.insufficientMaterial }
