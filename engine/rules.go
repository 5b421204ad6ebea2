package engine

import "math/bits"

// This file holds the rules that variants switch on beyond royal safety:
// immediate game ends (extinction, bare king, flags, check counting,
// explosions), the legality test for special rules, compulsory captures and
// missile launches. Chess uses none of them, and the flags on Variant keep
// them off its hot path.

// immediateEnd reports whether a variant rule has already decided the game,
// although moves may remain; such a position has no legal moves.
func (p *Position) immediateEnd() (Result, bool) {
	v := p.v
	if !v.immediateEnds {
		return Result{}, false
	}
	us, them := p.stm, p.stm.Other()
	end := func(reason Reason, o Outcome) (Result, bool) {
		return Result{Reason: reason, Outcome: o, Side: us}, true
	}
	if v.BlastOnCapture {
		if p.royals[us] == 0 {
			return end(RoyalLost, Loss)
		}
		if p.royals[them] == 0 {
			return end(RoyalLost, Win)
		}
	}
	if v.CheckCounting > 0 {
		if p.checks[them] == 0 {
			return end(CheckLimit, Loss)
		}
		if p.checks[us] == 0 {
			return end(CheckLimit, Win)
		}
	}
	if v.ExtinctionValue != NoValue {
		o := v.ExtinctionValue.Outcome(Loss)
		if p.extinct(us) {
			return end(Extinction, o)
		}
		if p.extinct(them) {
			return end(Extinction, -o)
		}
	}
	if v.BareKingValue != NoValue {
		o := v.BareKingValue.Outcome(Loss)
		usBare, themBare := p.bare(us), p.bare(them)
		switch {
		case usBare && themBare:
			return end(BareKing, Draw)
		case themBare:
			return end(BareKing, -o)
		case usBare && !v.BareKingMove:
			return end(BareKing, o)
		}
	}
	if v.Bikjang || v.KingPass {
		if r, over := p.janggiEnd(); over {
			return r, true
		}
	}
	if v.flagType != 0 && v.FlagSurvive {
		// Only the side to move can have held the region through a
		// reply; White's arrival that Black matched draws.
		if p.flagReached(us) {
			if us == White && p.flagReached(Black) {
				return end(FlagReached, Draw)
			}
			return end(FlagReached, Win)
		}
		return Result{}, false
	}
	if v.flagType != 0 {
		white, black := p.flagReached(White), p.flagReached(Black)
		switch {
		case white && black:
			return end(FlagReached, Draw)
		case white && v.FlagMove && us == Black && p.canReachFlag(Black):
			// Black's reply may still reach the flag region too; when
			// no legal move can, the game is over now (lichess's and
			// python-chess's rule).
		case white || black:
			o := Loss
			if (white && us == White) || (black && us == Black) {
				o = Win
			}
			return end(FlagReached, o)
		}
	}
	return Result{}, false
}

// extinct reports whether c has lost every piece of one of the extinction
// types (or every piece, for '*'), but for ExtinctionCount of them, while
// the opponent holds at least ExtinctionOpponentCount; pieces in hand
// count, as in Fairy-Stockfish.
func (p *Position) extinct(c Colour) bool {
	v := p.v
	if v.extinctAll && p.count[c] <= v.ExtinctionCount {
		return true
	}
	for t := 1; t <= len(v.Pieces); t++ {
		pc := MakePiece(t, c)
		if v.extinction>>pc&1 != 0 && p.withHand(c, t) <= v.ExtinctionCount &&
			p.withHand(c.Other(), t) >= v.ExtinctionOpponentCount {
			return true
		}
	}
	return false
}

// withHand counts colour c's pieces of type t on the board and in hand.
func (p *Position) withHand(c Colour, t int) int {
	return int(p.pieceCount[MakePiece(t, c)]) + int(p.hand[c][t])
}

// bare reports whether c has nothing left but royal pieces.
func (p *Position) bare(c Colour) bool { return p.count[c] == int(p.royals[c]) }

// canReachFlag reports whether c, to move, has a legal move that takes a
// flag piece into c's flag region.
func (p *Position) canReachFlag(c Colour) bool {
	mode := p.mode
	p.mode = genAll // a capture may reach the flag too, whatever list is being built
	defer func() { p.mode = mode }()
	var buf [MaxMoves]Move
	for _, m := range p.legalMoves(buf[:0]) {
		if m.Dropped() == 0 && int(p.board[m.From()].Type()) == int(p.v.flagType) && p.v.FlagRegion[c].Has(m.To()) {
			return true
		}
	}
	return false
}

// flagReached reports whether c's flag piece stands in c's flag region.
func (p *Position) flagReached(c Colour) bool {
	if sb := p.v.small; sb != nil {
		for in := p.occupancy[c] & sb.flag[c]; in != 0; in &= in - 1 {
			if int(p.board[sb.square[bits.TrailingZeros64(in)]].Type()) == int(p.v.flagType) {
				return true
			}
		}
		return false
	}
	for _, s := range p.Pieces(c) {
		if int(p.board[s].Type()) == int(p.v.flagType) && p.v.FlagRegion[c].Has(s) {
			return true
		}
	}
	return false
}

// royalInDanger reports whether c is in check by the variant's rules.
func (p *Position) royalInDanger(c Colour) bool {
	v := p.v
	switch {
	case v.FlyingGeneral && p.generalsFace():
		return true
	case v.BlastOnCapture:
		return p.atomicCheck(c)
	case v.RoyalRule == LeftmostRoyal && p.royals[c] > 1:
		return p.Attacked(p.leftmostRoyal(c), c.Other())
	}
	return p.royalAttacked(c)
}

// generalsFace reports whether the two sides' royal pieces (one each)
// stand on one file or rank with no piece between them.
func (p *Position) generalsFace() bool {
	if p.royals[White] != 1 || p.royals[Black] != 1 {
		return false
	}
	a, b := p.royalSq[White], p.royalSq[Black]
	if a.File() != b.File() && a.Rank() != b.Rank() {
		return false
	}
	step := Vector{sign(b.File() - a.File()), sign(b.Rank() - a.Rank())}
	for t, _ := p.v.step(a, step); t != b; t, _ = p.v.step(t, step) {
		if p.board[t] != NoPiece {
			return false
		}
	}
	return true
}

// leftmostRoyal returns the square of c's royal piece nearest the a-file,
// and on one file the one nearest White's first rank.
func (p *Position) leftmostRoyal(c Colour) Square {
	best := NoSquare
	for _, s := range p.Pieces(c) {
		if p.v.royalTypes>>p.board[s]&1 == 0 {
			continue
		}
		if best == NoSquare || s.File() < best.File() || (s.File() == best.File() && s.Rank() < best.Rank()) {
			best = s
		}
	}
	return best
}

// atomicCheck: c's king is attacked by a piece that may capture it. Kings
// never capture, and a king touching the enemy king cannot be taken, since
// the blast would destroy the capturer's own king.
func (p *Position) atomicCheck(c Colour) bool {
	them := c.Other()
	if p.royals[c] != 1 || p.royals[them] != 1 {
		return false
	}
	k := p.royalSq[c]
	if p.adjacent(k, p.royalSq[them]) {
		return false
	}
	return p.attackedBy(k, them, ^p.v.royalTypes)
}

func (p *Position) adjacent(a, b Square) bool {
	for _, s := range p.v.neighbours[a] {
		if s == b {
			return true
		}
	}
	return false
}

// legalAfterMove reports whether the side that just moved, us, obeys the
// variant's invariant in the position after its move.
func (p *Position) legalAfterMove(us Colour) bool {
	v := p.v
	if v.BlastOnCapture {
		switch {
		case p.royals[us] == 0:
			return false // blew up its own king
		case p.royals[us.Other()] == 0:
			return true // blew up the enemy king: wins at once
		}
		return !p.atomicCheck(us)
	}
	if p.royalInDanger(us) {
		return false
	}
	return !v.NoChecks || !p.royalInDanger(us.Other())
}

// isCapture reports whether m takes a piece.
func (p *Position) isCapture(m Move) bool {
	switch m.Kind() {
	case EnPassant:
		return true
	case Castle, CastleGateRook, Launch:
		return false
	}
	q := p.board[m.To()]
	return q != NoPiece && q.Colour() != p.stm
}

// capturesOnly keeps only the captures when there is any (compulsory
// capture rules).
func (p *Position) capturesOnly(moves []Move) []Move {
	kept := 0
	for _, m := range moves {
		if p.isCapture(m) {
			moves[kept] = m
			kept++
		}
	}
	if kept == 0 {
		return moves
	}
	return moves[:kept]
}

// castlingSquareAttacked is Attacked for a square s of the king's castling
// path, by the variant's notion of attack. Where captures explode, the
// king is lifted off its start square kingFrom, as it is when it stands on
// s: a king touching the enemy king is not in check, yet may not pass a
// square a rider attacks once the king has left the line (python-chess's
// and lichess's rule). Elsewhere that line would be a check already, and
// Fairy-Stockfish tests the path with the king in place (a hopper may jump
// it).
func (p *Position) castlingSquareAttacked(s, kingFrom Square) bool {
	them := p.stm.Other()
	if p.v.BlastOnCapture {
		if s != kingFrom {
			king, bit := p.board[kingFrom], p.v.squareBit[kingFrom]
			p.board[kingFrom] = NoPiece
			p.occupancy[p.stm] ^= bit
			defer func() { p.board[kingFrom] = king; p.occupancy[p.stm] ^= bit }()
		}
		if p.royals[them] == 1 && (s == p.royalSq[them] || p.adjacent(s, p.royalSq[them])) {
			return false
		}
		return p.attackedBy(s, them, ^p.v.royalTypes)
	}
	return p.Attacked(s, them)
}

// escalated reports whether missiles may be launched: some non-pawn piece
// has been captured, seen as fewer non-pawn pieces than at the start. (A
// FEN has no history, so the material tells.)
func (p *Position) escalated() bool {
	n := 0
	for c := White; c <= Black; c++ {
		for _, s := range p.Pieces(c) {
			if p.v.pawnTypes>>p.board[s]&1 == 0 {
				n++
			}
		}
	}
	return n < p.v.startNonPawns
}

// genLaunches appends every launch of the mover's missiles that are not
// attacked: at any square whose 3x3 area holds a piece other than the
// missile and the kings.
func (p *Position) genLaunches(dst []Move) []Move {
	v := p.v
	if v.missileType == 0 || p.mode == genTactical || !p.escalated() {
		return dst
	}
	them := p.stm.Other()
	missile := MakePiece(int(v.missileType), p.stm)
	for _, from := range p.Pieces(p.stm) {
		if p.board[from] != missile || p.Attacked(from, them) {
			continue
		}
		for t := 0; t < NumSquares; t++ {
			to := Square(t)
			if v.onBoard.Has(to) && p.launchHits(from, to) {
				dst = append(dst, newSpecialMove(from, to, Launch, 0))
			}
		}
	}
	return dst
}

// launchHits reports whether a launch from `from` at `to` removes a piece
// other than the missile itself.
func (p *Position) launchHits(from, to Square) bool {
	hit := func(s Square) bool {
		pc := p.board[s]
		return pc != NoPiece && s != from && p.v.royalTypes>>pc&1 == 0
	}
	if hit(to) {
		return true
	}
	for _, s := range p.v.neighbours[to] {
		if hit(s) {
			return true
		}
	}
	return false
}
