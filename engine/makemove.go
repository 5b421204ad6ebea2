package engine

// Make plays m, which must be legal (or at least pseudo-legal) in the
// position, and pushes what Unmake needs onto the history. It updates the
// Zobrist key incrementally and does not allocate while the history has room.
func (p *Position) Make(m Move) {
	v := p.v
	z := &v.zobrist
	p.history = append(p.history, undo{
		key: p.key, move: m, halfmove: int32(p.halfmove), castling: p.castling,
		ep: p.ep, epVictim: p.epVictim, royalSq: p.royalSq, royals: p.royals, capSq: NoSquare,
		checks: p.checks, gates: p.gates, counting: p.counting,
	})
	if v.Bikjang {
		p.history[len(p.history)-1].facing = p.generalsFace()
	}
	u := &p.history[len(p.history)-1]
	us := p.stm
	from, to := m.From(), m.To()
	key := p.key
	if p.ep[0] != NoSquare {
		for _, s := range p.ep {
			if s == NoSquare {
				break
			}
			key ^= z.ep[s]
		}
		p.ep, p.epVictim = noEPSquares, NoSquare
	}
	p.halfmove++
	var cleared uint8 // castling rights lost to blasts and launches

	switch m.Kind() {
	case Pass:
	case Launch:
		key ^= p.launch(from, to, u, &cleared)
		p.halfmove = 0
	case Drop:
		key ^= p.drop(m.Dropped(), to, u)
		if m.DropsPromoted() {
			key ^= p.promoteDropped(to, u)
		}
	case Castle, CastleGateRook:
		cr := &p.castles.rules[m.castleRule()]
		king, rook := p.board[cr.KingFrom], p.board[cr.RookFrom]
		ki, ri := p.index[cr.KingFrom], p.index[cr.RookFrom]
		// Lift both before placing either: in some set-ups the king lands
		// where the rook stood, or the other way round.
		p.board[cr.KingFrom], p.board[cr.RookFrom] = NoPiece, NoPiece
		p.board[cr.KingTo], p.board[cr.RookTo] = king, rook
		p.occupancy[us] ^= v.squareBit[cr.KingFrom] ^ v.squareBit[cr.RookFrom] ^ v.squareBit[cr.KingTo] ^ v.squareBit[cr.RookTo]
		p.list[us][ki], p.list[us][ri] = cr.KingTo, cr.RookTo
		p.index[cr.KingTo], p.index[cr.RookTo] = ki, ri
		key ^= z.piece[king][cr.KingFrom] ^ z.piece[king][cr.KingTo] ^ z.piece[rook][cr.RookFrom] ^ z.piece[rook][cr.RookTo]
		if v.royalTypes>>king&1 != 0 && p.royals[us] == 1 {
			p.royalSq[us] = cr.KingTo
		}
	default:
		pc := p.board[from]
		u.moved = pc
		capSq := to
		if m.Kind() == EnPassant {
			capSq = u.epVictim
		}
		if victim := p.board[capSq]; victim != NoPiece && capSq != from {
			u.captured, u.capSq = victim, capSq
			u.capIndex = p.remove(capSq)
			key ^= z.piece[victim][capSq]
			p.halfmove = 0
			if v.royalTypes>>victim&1 != 0 {
				p.royals[us.Other()]--
				if p.royals[us.Other()] == 1 {
					p.findRoyal(us.Other())
				}
			}
			if v.CapturesToHand {
				key ^= p.toHand(victim, capSq, u)
			}
		}
		if t := p.unpromoted[from]; t != 0 {
			p.unpromoted[from], p.unpromoted[to] = 0, t
			u.movedUnpromoted = t
			key ^= z.promotedKey(from, t) ^ z.promotedKey(to, t)
		}
		p.relocate(from, to)
		key ^= z.piece[pc][from]
		if t := m.Promotion(); t != 0 {
			promoted := MakePiece(t, us)
			p.board[to] = promoted
			p.pieceCount[pc]--
			p.pieceCount[promoted]++
			p.updateRoyalCount(pc, promoted)
			if m.Demotes() {
				// It is what it was again: nothing left to remember.
				p.unpromoted[to] = 0
				key ^= z.promotedKey(to, uint8(t))
			} else if v.CapturesToHand && !v.DropLoop {
				// Captured, it goes to hand as what it was.
				p.unpromoted[to] = uint8(pc.Type())
				key ^= z.promotedKey(to, uint8(pc.Type()))
			}
			pc = promoted
		}
		key ^= z.piece[pc][to]
		if v.royalTypes>>pc&1 != 0 && p.royals[us] == 1 {
			p.royalSq[us] = to
		}
		if v.pawnTypes>>pc&1 != 0 || m.Promotion() != 0 {
			p.halfmove = 0
		}
		if m.Kind() == DoubleStep {
			key ^= p.setEnPassant(from, to)
		}
		if v.BlastOnCapture && u.captured != NoPiece {
			key ^= p.blast(to, u, &cleared)
		}
	}
	if m.gate() != 0 {
		key ^= p.gateIn(m)
	}
	if p.gates != 0 {
		// The mover's gate where it left, the opponent's where it
		// captured (a gate right on an empty square of one's own, which
		// only a FEN can give, stays, as Fairy-Stockfish keeps it, even
		// when a piece is dropped there).
		lost := v.gateBit(to) & colourGates(us.Other())
		if m.Kind() != Drop {
			lost |= v.gateBit(from)
		}
		if m.isCastle() {
			cr := &p.castles.rules[m.castleRule()]
			lost |= v.gateBit(cr.KingFrom) | v.gateBit(cr.RookFrom)
		}
		if m.gate() != 0 && !p.keepsGates(us) {
			lost |= colourGates(us) // nothing left to gate
		}
		if gates := p.gates &^ lost; gates != p.gates {
			key ^= v.gatesKey(p.gates ^ gates)
			p.gates = gates
		}
	}
	if rights := p.castling &^ (p.castles.clear[from] | p.castles.clear[to] | cleared); rights != p.castling && m.Kind() != Pass {
		key ^= z.castling[p.castling] ^ z.castling[rights]
		p.castling = rights
	}
	if v.CastlingDroppedPiece && m.Kind() == Drop {
		if rights := p.castling | p.droppedCastling(us, to); rights != p.castling {
			key ^= z.castling[p.castling] ^ z.castling[rights]
			p.castling = rights
		}
	}
	key ^= z.black
	if us == Black {
		p.fullmove++
	}
	p.stm = us.Other()
	if v.CheckCounting > 0 && p.checks[us] > 0 && p.InCheck() {
		key ^= z.checks[us][p.checks[us]] ^ z.checks[us][p.checks[us]-1]
		p.checks[us]--
	}
	if v.Counting != NoCounting {
		p.advanceCount(u.captured != NoPiece)
	}
	p.key = key
}

// drop puts a piece of type t from the mover's hand on the empty square
// to, and returns the change to the key.
func (p *Position) drop(t int, to Square, u *undo) uint64 {
	v, us := p.v, p.stm
	pc := MakePiece(t, us)
	u.moved = pc
	key := p.fromHand(pc, to)
	if v.pawnTypes>>pc&1 != 0 {
		p.halfmove = 0
	}
	if v.royalTypes>>pc&1 != 0 {
		p.royals[us]++
		p.findRoyal(us)
	}
	return key
}

// droppedCastling returns the castling rights colour c gains by the drop
// on s: a king dropped on its castling square with a rook on a rule's
// rook square, or such a rook dropped with the king in place.
func (p *Position) droppedCastling(c Colour, s Square) uint8 {
	v := p.v
	king, rook := MakePiece(int(v.castleKing), c), MakePiece(int(v.castleRook), c)
	var rights uint8
	for i, cr := range p.castles.rules {
		if cr.Colour == c && (s == cr.KingFrom || s == cr.RookFrom) &&
			p.board[cr.KingFrom] == king && p.board[cr.RookFrom] == rook {
			rights |= 1 << i
		}
	}
	return rights
}

// promoteDropped turns the piece just dropped on s into its promoted
// form (kyoto shogi's +P@c3), remembering what it was, and returns the
// change to the key.
func (p *Position) promoteDropped(s Square, u *undo) uint64 {
	z := &p.v.zobrist
	pc := p.board[s]
	t := p.v.promotesTo[pc.Type()]
	promoted := MakePiece(int(t), pc.Colour())
	p.board[s] = promoted
	p.pieceCount[pc]--
	p.pieceCount[promoted]++
	p.updateRoyalCount(pc, promoted)
	p.unpromoted[s] = uint8(pc.Type())
	u.moved = promoted
	return z.piece[pc][s] ^ z.piece[promoted][s] ^ z.promotedKey(s, uint8(pc.Type()))
}

// fromHand puts piece pc from its side's hand on the empty square s
// (a drop, or a gate) and returns the change to the key.
func (p *Position) fromHand(pc Piece, s Square) uint64 {
	p.add(pc, s)
	return p.v.zobrist.piece[pc][s] ^ p.handBy(pc, -1)
}

// handBy changes the count of piece pc in its side's hand by delta (±1)
// and returns the change to the key.
func (p *Position) handBy(pc Piece, delta int) uint64 {
	c, t := pc.Colour(), pc.Type()
	n := p.hand[c][t]
	p.hand[c][t] = uint8(int(n) + delta)
	z := &p.v.zobrist
	return z.hand[pc][n%handKeys] ^ z.hand[pc][p.hand[c][t]%handKeys]
}

// toHand puts the victim of a capture on s into the mover's hand, as the
// piece it was if it had promoted, and returns the change to the key.
func (p *Position) toHand(victim Piece, s Square, u *undo) uint64 {
	z := &p.v.zobrist
	var key uint64
	t := uint8(victim.Type())
	if base := p.unpromoted[s]; base != 0 {
		p.unpromoted[s] = 0
		u.capUnpromoted = base
		key ^= z.promotedKey(s, base)
		t = base
	}
	if p.hand[p.stm][t] == 255 {
		return key // a full count (boards hold fewer pieces than this)
	}
	u.handType = t
	return key ^ p.handBy(MakePiece(int(t), p.stm), +1)
}

// takeOff removes the piece on s for a blast or launch, records it for
// Unmake and returns its key.
func (p *Position) takeOff(s Square, u *undo, cleared *uint8) uint64 {
	pc := p.board[s]
	i := p.remove(s)
	p.removed = append(p.removed, removedPiece{sq: s, pc: pc, index: i})
	u.removedCount++
	*cleared |= p.castles.clear[s]
	if p.v.royalTypes>>pc&1 != 0 {
		c := pc.Colour()
		p.royals[c]--
		if p.royals[c] == 1 {
			p.findRoyal(c)
		}
	}
	return p.v.zobrist.piece[pc][s]
}

// blast removes the capturer on `at` and every non-pawn piece around it.
func (p *Position) blast(at Square, u *undo, cleared *uint8) uint64 {
	key := p.takeOff(at, u, cleared)
	for _, s := range p.v.neighbours[at] {
		if pc := p.board[s]; pc != NoPiece && p.v.pawnTypes>>pc&1 == 0 {
			key ^= p.takeOff(s, u, cleared)
		}
	}
	return key
}

// launch removes the missile on from and every non-royal piece on the 3x3
// area centred on target.
func (p *Position) launch(from, target Square, u *undo, cleared *uint8) uint64 {
	key := p.takeOff(from, u, cleared)
	hit := func(s Square) {
		if pc := p.board[s]; pc != NoPiece && p.v.royalTypes>>pc&1 == 0 {
			key ^= p.takeOff(s, u, cleared)
		}
	}
	hit(target)
	for _, s := range p.v.neighbours[target] {
		hit(s)
	}
	return key
}

// updateRoyalCount keeps the royal count right when a promotion changes a
// piece's type (a pawn promoting to a royal piece in some variants).
func (p *Position) updateRoyalCount(from, to Piece) {
	c := from.Colour()
	was, is := p.v.royalTypes>>from&1, p.v.royalTypes>>to&1
	p.royals[c] += uint8(is) - uint8(was)
	if p.royals[c] == 1 {
		p.findRoyal(c)
	}
}

// Unmake takes back the last move made. It restores the position exactly,
// key and piece-list order included.
func (p *Position) Unmake() {
	u := &p.history[len(p.history)-1]
	m := u.move
	us := p.stm.Other()
	from, to := m.From(), m.To()
	for n := u.removedCount; n > 0; n-- {
		r := p.removed[len(p.removed)-1]
		p.removed = p.removed[:len(p.removed)-1]
		p.restore(r.pc, r.sq, r.index)
	}
	if m.gate() != 0 {
		p.gateOut(m, us) // it entered last
	}
	p.gates, p.counting = u.gates, u.counting
	switch m.Kind() {
	case Launch, Pass:
	case Drop:
		if m.DropsPromoted() { // back to the piece it was in hand
			base := MakePiece(m.Dropped(), us)
			p.pieceCount[p.board[to]]--
			p.pieceCount[base]++
			p.board[to] = base
			p.unpromoted[to] = 0
		}
		p.remove(to)
		p.hand[us][m.Dropped()]++
	case Castle, CastleGateRook:
		cr := &p.castles.rules[m.castleRule()]
		king, rook := p.board[cr.KingTo], p.board[cr.RookTo]
		ki, ri := p.index[cr.KingTo], p.index[cr.RookTo]
		p.board[cr.KingTo], p.board[cr.RookTo] = NoPiece, NoPiece
		p.board[cr.KingFrom], p.board[cr.RookFrom] = king, rook
		sb := &p.v.squareBit
		p.occupancy[us] ^= sb[cr.KingFrom] ^ sb[cr.RookFrom] ^ sb[cr.KingTo] ^ sb[cr.RookTo]
		p.list[us][ki], p.list[us][ri] = cr.KingFrom, cr.RookFrom
		p.index[cr.KingFrom], p.index[cr.RookFrom] = ki, ri
	default:
		if t := m.Promotion(); t != 0 {
			p.pieceCount[p.board[to]]--
			p.pieceCount[u.moved]++
			p.board[to] = u.moved
			p.unpromoted[to] = 0
		}
		if t := u.movedUnpromoted; t != 0 {
			p.unpromoted[to], p.unpromoted[from] = 0, t
		}
		p.relocate(to, from)
		if u.captured != NoPiece {
			p.restore(u.captured, u.capSq, u.capIndex)
			p.unpromoted[u.capSq] = u.capUnpromoted
			if u.handType != 0 {
				p.hand[us][u.handType]--
			}
		}
	}
	p.stm = us
	p.key = u.key
	p.halfmove = int(u.halfmove)
	p.castling = u.castling
	p.ep, p.epVictim = u.ep, u.epVictim
	p.royalSq, p.royals = u.royalSq, u.royals
	p.checks = u.checks
	if us == Black {
		p.fullmove--
	}
	p.history = p.history[:len(p.history)-1]
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

// IsCapture reports whether m, a legal move, takes a piece (en passant and
// missile launches included).
func (p *Position) IsCapture(m Move) bool { return p.isCapture(m) || m.Kind() == Launch }

// Captured returns the piece m takes, NoPiece for a non-capture. For a
// launch or a blast it is the piece on the target square only.
func (p *Position) Captured(m Move) Piece {
	switch m.Kind() {
	case EnPassant:
		return p.board[p.epVictim]
	case Castle, CastleGateRook:
		return NoPiece
	}
	if q := p.board[m.To()]; q != NoPiece && q.Colour() != p.stm {
		return q
	}
	return NoPiece
}
