package engine

// This file is the rules core's interface to a searcher: the cheap tests a
// search needs at every node.

// ImmediateEnd reports whether a variant rule (extinction, a flag reached,
// the last check given, a king blown up...) has already ended the game;
// such a position has no legal moves.
func (p *Position) ImmediateEnd() (Result, bool) { return p.immediateEnd() }

// NoMoveResult is the result when the side to move has no legal move:
// checkmate or stalemate, valued by the variant.
func (p *Position) NoMoveResult() Result {
	if p.InCheck() {
		return Result{Reason: Checkmate, Outcome: p.v.CheckmateValue.outcome(Loss), Side: p.stm}
	}
	return Result{Reason: Stalemate, Outcome: p.v.StalemateValue.outcome(Draw), Side: p.stm}
}

// IsCapture reports whether m, a legal move, takes a piece (en passant and
// missile launches included).
func (p *Position) IsCapture(m Move) bool { return p.isCapture(m) || m.Kind() == Launch }

// Captured returns the piece m takes, NoPiece for a non-capture. For a
// launch or a blast it is the piece on the target square only.
func (p *Position) Captured(m Move) Piece {
	switch m.Kind() {
	case EnPassant:
		return p.board[p.epVictim]
	case Castle:
		return NoPiece
	}
	if q := p.board[m.To()]; q != NoPiece && q.Colour() != p.stm {
		return q
	}
	return NoPiece
}

// MoveRuleReached reports whether the variant's n-move rule has run out:
// no capture or pawn move for n moves.
func (p *Position) MoveRuleReached() bool {
	return p.v.MoveRule > 0 && p.halfmove >= 2*p.v.MoveRule
}

// Repeated reports whether the position occurred before (since the last
// capture or pawn move) in a variant with a repetition rule. A search
// scores such a cycle as a draw at once.
func (p *Position) Repeated() bool {
	return p.v.RepetitionRule > 0 && p.RepetitionCount() >= 2
}

// MakeNull passes the move to the opponent (null-move pruning). It must be
// undone with UnmakeNull before any other Unmake.
func (p *Position) MakeNull() {
	z := &p.v.zobrist
	p.history = append(p.history, undo{key: p.key, halfmove: int32(p.halfmove), castling: p.castling,
		ep: p.ep, epVictim: p.epVictim, royalSq: p.royalSq, royals: p.royals, checks: p.checks, capSq: NoSquare})
	for _, s := range p.ep {
		if s == NoSquare {
			break
		}
		p.key ^= z.ep[s]
	}
	p.ep, p.epVictim = noEPSquares, NoSquare
	p.key ^= z.black
	p.halfmove++
	p.stm = p.stm.Other()
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull() {
	u := &p.history[len(p.history)-1]
	p.stm = p.stm.Other()
	p.key, p.halfmove = u.key, int(u.halfmove)
	p.ep, p.epVictim = u.ep, u.epVictim
	p.history = p.history[:len(p.history)-1]
}

// HasNonPawnMaterial reports whether c has a piece that is neither a pawn
// nor royal: where it has none, zugzwang is likely and null moves unsafe.
func (p *Position) HasNonPawnMaterial(c Colour) bool {
	for _, s := range p.Pieces(c) {
		pc := p.board[s]
		if (p.v.pawnTypes|p.v.royalTypes)>>pc&1 == 0 {
			return true
		}
	}
	return false
}
