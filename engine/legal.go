package engine

import "slices"

// LegalMoves appends to dst[:0] the legal moves of the side to move and
// returns the extended slice. With a buffer of capacity MaxMoves it does not
// allocate.
//
// Legality is the variant's invariant: no royal piece of the mover may be
// attacked after the move. The common case (one royal piece, an enemy that
// attacks only by leaps and rides) is decided without making moves: the king
// and its pins and checkers are analysed once, and only king moves, pinned
// pieces, en passant and castling are checked square by square.
func (p *Position) LegalMoves(dst []Move) []Move {
	v := p.v
	if v.immediateEnds {
		if _, over := p.immediateEnd(); over {
			return dst[:0]
		}
	}
	if v.MustCapture {
		return p.capturesOnly(p.legalMoves(dst[:0]))
	}
	dst = p.legalMoves(dst[:0])
	// Rules on top of the moves: forbidden drops go, gating forms join.
	if (v.dropMate != 0 || v.NoDropChecks) && p.mode != genTactical {
		dst = p.withoutBadDrops(dst)
	}
	if p.gates != 0 {
		dst = p.withGates(dst)
	}
	if v.KingStaysInCheck {
		dst = p.withoutKingFlight(dst)
	}
	if v.CambodianMoves && p.gates != 0 {
		dst = p.appendCambodianMoves(dst)
	}
	if v.SittuyinPromotion {
		dst = p.appendSittuyinPromotions(dst)
	}
	if v.DropBishopsOnBothColours && p.mode != genTactical {
		dst = p.withoutSameColourBishops(dst)
	}
	if v.MustDrop && p.mode != genTactical {
		dst = p.dropsFirst(dst)
	}
	return dst
}

// dropsFirst keeps only the drops while the side to move holds a piece it
// must drop and can (MustDrop).
func (p *Position) dropsFirst(moves []Move) []Move {
	holds := false
	for t := 1; t <= len(p.v.Pieces); t++ {
		if p.hand[p.stm][t] > 0 && (p.v.MustDropType == 0 || p.v.Pieces[t-1].Letter == p.v.MustDropType) {
			holds = true
		}
	}
	if !holds || !slices.ContainsFunc(moves, func(m Move) bool { return m.Kind() == Drop }) {
		return moves
	}
	return slices.DeleteFunc(moves, func(m Move) bool { return m.Kind() != Drop })
}

// withoutSameColourBishops removes the drops that would leave a side
// with two bishops on squares of one shade, now or for want of a square
// of the other shade for a bishop still in hand
// (DropBishopsOnBothColours).
func (p *Position) withoutSameColourBishops(moves []Move) []Move {
	v, us := p.v, p.stm
	var onShade [2]bool // a bishop of ours stands on a square of that shade
	inHand, bishop := 0, Piece(NoPiece)
	for t := 1; t <= len(v.Pieces); t++ {
		if v.Pieces[t-1].Role != RoleBishop {
			continue
		}
		bishop = MakePiece(t, us)
		inHand += int(p.hand[us][t])
		for _, s := range p.Pieces(us) {
			if p.board[s].Type() == t {
				onShade[s.shade()] = true
			}
		}
	}
	if bishop == NoPiece {
		return moves
	}
	// The empty squares a bishop in hand could still take, by shade.
	var free [2]int
	var bishopSquares SquareSet
	for _, s := range v.dropSquares[bishop] {
		if p.board[s] == NoPiece && !onShade[s.shade()] {
			free[s.shade()]++
			bishopSquares.Add(s)
		}
	}
	return slices.DeleteFunc(moves, func(m Move) bool {
		if m.Kind() != Drop {
			return false
		}
		to := m.To()
		if v.Pieces[m.Dropped()-1].Role == RoleBishop {
			return onShade[to.shade()]
		}
		left := free // another piece on to takes that square from the bishops
		if bishopSquares.Has(to) {
			left[to.shade()]--
		}
		shades := 0
		for _, n := range left {
			if n > 0 {
				shades++
			}
		}
		return shades < inHand
	})
}

// withoutKingFlight removes, in check, every move of a royal piece but the
// capture of a lone checker (makpong).
func (p *Position) withoutKingFlight(moves []Move) []Move {
	if !p.InCheck() {
		return moves
	}
	return slices.DeleteFunc(moves, p.fleesCheck)
}

// fleesCheck reports whether m, played in check, is a move of a royal
// piece other than the capture of a lone checker: what KingStaysInCheck
// forbids.
func (p *Position) fleesCheck(m Move) bool {
	royal := m.Dropped() == 0 && p.v.royalTypes>>p.board[m.From()]&1 != 0
	return royal && !p.loneChecker(m.From(), m.To())
}

// loneChecker reports whether the enemy piece on s is all that attacks the
// royal piece on k: with it lifted, k is safe. (A line attacker it would
// uncover also attacks s, so a king taking it there is illegal anyway.)
func (p *Position) loneChecker(k, s Square) bool {
	victim := p.board[s]
	if victim == NoPiece || victim.Colour() == p.stm {
		return false
	}
	them, bit := victim.Colour(), p.v.squareBit[s]
	p.board[s] = NoPiece
	p.occupancy[them] ^= bit
	safe := !p.Attacked(k, them)
	p.occupancy[them] ^= bit
	p.board[s] = victim
	return safe
}

// withoutBadDrops removes the drops that give check where the rules
// forbid it (NoDropChecks), and the drops of the DropMateIllegal piece
// that checkmate (shogi's uchifuzume). Whether the opponent can answer
// needs none of this test: a drop never answers a check by such a piece,
// which stands next to the king.
func (p *Position) withoutBadDrops(moves []Move) []Move {
	kept := moves[:0]
	for _, m := range moves {
		if !p.badDrop(m) {
			kept = append(kept, m)
		}
	}
	return kept
}

// badDrop reports whether m is a drop withoutBadDrops removes: one that
// gives check where the rules forbid it, or mates with the DropMateIllegal
// piece.
func (p *Position) badDrop(m Move) bool {
	v := p.v
	t := m.Dropped()
	if t == 0 || !(v.NoDropChecks || t == int(v.dropMate)) || !p.dropMayCheck(m) {
		return false
	}
	p.Make(m)
	mode := p.mode
	p.mode = genAll // any answer counts, the capture of the piece dropped first
	var buf [MaxMoves]Move
	bad := p.InCheck() && (v.NoDropChecks || len(p.legalMoves(buf[:0])) == 0)
	p.mode = mode
	p.Unmake()
	return bad
}

// dropMayCheck reports whether the drop m may give check: a drop reveals
// no line, so only the piece it puts down can, by a leap or a ride from
// its square to an enemy royal piece (a piece moving otherwise, or a
// position with several royal pieces, is answered "maybe").
func (p *Position) dropMayCheck(m Move) bool {
	v, them := p.v, p.stm.Other()
	if p.royals[them] != 1 || m.DropsPromoted() {
		return p.royals[them] != 0
	}
	pc, to, k := MakePiece(m.Dropped(), p.stm), m.To(), p.royalSq[them]
	at := &v.attacks[p.stm]
	if len(at.lame[k]) > 0 || len(at.hopDirs) > 0 || len(at.cannonDirs) > 0 {
		return true
	}
	for _, a := range at.leaps[k] {
		if a.from == to && a.pieces>>pc&1 != 0 {
			return true
		}
	}
	for _, d := range at.rayDirs {
		if d.pieces>>pc&1 == 0 {
			continue
		}
		for _, t := range v.rays[d.ray][k] {
			if t == to {
				return true
			}
			if p.board[t] != NoPiece {
				break
			}
		}
	}
	return false
}

func (p *Position) legalMoves(dst []Move) []Move {
	us := p.stm
	if p.royals[us] != 1 || !p.v.simpleAttacks[us.Other()] || p.v.special {
		return p.legalByMaking(dst)
	}
	if p.v.CambodianMoves && p.cambodianMetAttack(p.royalSq[us], us.Other()) {
		// A check by the met's jump, which the pin and check analysis
		// does not know (it pins nothing: a leap).
		return p.legalByMaking(dst)
	}
	ksq := p.royalSq[us]
	var evasions, pinned SquareSet
	checkers := p.analyseRoyal(ksq, &evasions, &pinned)
	for _, from := range p.Pieces(us) {
		if from == ksq {
			dst = p.genRoyal(dst, ksq)
			continue
		}
		if checkers > 1 {
			continue
		}
		start := len(dst)
		dst = p.gen(dst, from)
		if checkers == 0 && !pinned.Has(from) && p.ep[0] == NoSquare {
			continue
		}
		// Keep only the moves that answer the check and respect the pin;
		// en passant removes a second piece from the line, so make it.
		kept := start
		for _, m := range dst[start:] {
			var ok bool
			switch {
			case m.Kind() == EnPassant || pinned.Has(from):
				ok = p.legalAfter(m)
			case checkers > 0:
				ok = evasions.Has(m.To())
			default:
				ok = true
			}
			if ok {
				dst[kept] = m
				kept++
			}
		}
		dst = dst[:kept]
	}
	if p.v.PieceDrops && checkers < 2 {
		// A drop exposes nothing; in check it must land between.
		start := len(dst)
		dst = p.genDrops(dst)
		if checkers == 1 {
			kept := start
			for _, m := range dst[start:] {
				if evasions.Has(m.To()) {
					dst[kept] = m
					kept++
				}
			}
			dst = dst[:kept]
		}
	}
	if checkers == 0 && p.castling != 0 {
		start := len(dst)
		dst = p.genCastling(dst)
		kept := start
		for _, m := range dst[start:] {
			if p.legalAfter(m) {
				dst[kept] = m
				kept++
			}
		}
		dst = dst[:kept]
	}
	return dst
}

// genRoyal appends the royal piece's moves to squares that are not attacked
// once it has left ksq (so a rider cannot hide behind it).
func (p *Position) genRoyal(dst []Move, ksq Square) []Move {
	start := len(dst)
	dst = p.gen(dst, ksq)
	them := p.stm.Other()
	king := p.board[ksq]
	kept := start
	for _, m := range dst[start:] {
		var ok bool
		if m.Kind() == Normal && m.gate() == 0 { // a gated piece would stand on ksq
			// The royal piece lifted (board and occupancy, which the
			// attack test reads both) so it blocks no line to its target.
			bit := p.v.squareBit[ksq]
			p.board[ksq] = NoPiece
			p.occupancy[p.stm] ^= bit
			ok = !p.Attacked(m.To(), them)
			p.occupancy[p.stm] ^= bit
			p.board[ksq] = king
		} else {
			ok = p.legalAfter(m) // a royal pawn's double step, say: rare
		}
		if ok {
			dst[kept] = m
			kept++
		}
	}
	return dst[:kept]
}

// analyseRoyal finds the pieces checking the royal piece on ksq and the
// mover's pieces pinned to it. evasions receives the squares a non-royal
// move must reach to answer a single check: the checker and, for a rider,
// the squares between. It returns the number of checkers.
func (p *Position) analyseRoyal(ksq Square, evasions, pinned *SquareSet) int {
	us := p.stm
	at := &p.v.attacks[us.Other()]
	checkers := 0
	for _, a := range at.leaps[ksq] {
		if a.pieces>>p.board[a.from]&1 != 0 {
			checkers++
			evasions.Add(a.from)
		}
	}
	for _, d := range at.rayDirs {
		ray := p.v.rays[d.ray][ksq]
		for k, t := range ray {
			pc := p.board[t]
			if pc == NoPiece {
				continue
			}
			if pc.Colour() != us {
				if d.pieces>>pc&1 != 0 {
					checkers++
					for _, b := range ray[:k+1] {
						evasions.Add(b)
					}
				}
				break
			}
			// A piece of ours: pinned if the next piece beyond is a rider
			// of this line.
			for _, u := range ray[k+1:] {
				if pu := p.board[u]; pu != NoPiece {
					if d.pieces>>pu&1 != 0 {
						pinned.Add(t)
					}
					break
				}
			}
			break
		}
	}
	return checkers
}

// legalAfter reports whether m leaves no royal piece of the mover attacked,
// by making it.
func (p *Position) legalAfter(m Move) bool {
	us := p.stm
	facing := p.bikjangBefore()
	if facing && m.Kind() == Pass {
		return true // passing answers a face-off, even in check
	}
	p.Make(m)
	ok := p.legalAfterMove(us) && !(facing && p.generalsFace())
	p.Unmake()
	return ok
}

// bikjangBefore reports whether the royal pieces face each other under the
// bikjang rule: the side to move must break the face-off (or pass).
func (p *Position) bikjangBefore() bool { return p.v.Bikjang && p.generalsFace() }

// legalByMaking is the general path for every variant: generate the
// pseudo-legal moves and keep those after which no royal piece of the mover
// is attacked. Where safety depends on the board alone (one royal piece,
// no rule that blows up or forbids checks), an ordinary move is tested by
// changing the board only, and not at all when neither of its squares is
// one from which anything could reach the royal piece (kingLines).
func (p *Position) legalByMaking(dst []Move) []Move {
	dst = p.PseudoLegalMoves(dst)
	if p.royals[p.stm] == 0 && !p.v.special {
		return dst
	}
	safety := p.moveSafety()
	kept := 0
	for _, m := range dst {
		if safety.safe(p, m) {
			dst[kept] = m
			kept++
		}
	}
	return dst[:kept]
}

// moveSafety is what legalByMaking learns once per position to test each
// pseudo-legal move for the mover's royal safety: whether the board alone
// decides it, and the squares that can matter (IsLegal asks it of one
// move).
type moveSafety struct {
	onBoard, sure, facing bool
	k                     Square
	lines, legs           SquareSet
}

// moveSafety prepares the test of the side to move's pseudo-legal moves.
func (p *Position) moveSafety() moveSafety {
	v, us := p.v, p.stm
	s := moveSafety{onBoard: v.boardSafety && p.royals[us] == 1, facing: p.bikjangBefore(), k: p.royalSq[us]}
	// The lines are built only where legalMoves' pin analysis does not
	// serve (IsLegal asks in every variant): without them every move is
	// tested on the board.
	s.sure = s.onBoard && !s.facing && v.kingLines[us.Other()] != nil && !p.royalInDanger(us)
	if s.sure {
		s.lines, s.legs = v.kingLines[us.Other()][s.k], v.kingLegs[us.Other()][s.k]
		if v.unitLines {
			p.dropDeadRays(&s.lines, &s.legs, s.k, us.Other())
		}
	}
	return s
}

// safe reports whether the pseudo-legal move m leaves the mover's royal
// pieces safe.
func (s *moveSafety) safe(p *Position, m Move) bool {
	v := p.v
	if v.BlastOnCapture && v.royalTypes>>p.board[m.From()]&1 != 0 && p.isCapture(m) {
		return false // kings cannot capture in atomic chess
	}
	switch {
	case !s.onBoard || m.Kind() != Normal && m.Kind() != DoubleStep || m.gate() != 0:
		// Made and unmade. A pawn's double step is not: on the board
		// it is an ordinary move (its en-passant square is no threat
		// to its own king).
		return p.legalAfter(m)
	case s.sure && m.From() != s.k && !s.lines.Has(m.From()) && !s.lines.Has(m.To()):
		return true
	default:
		return p.safeAfterOnBoard(m, s.sure, s.facing, &s.legs)
	}
}

// buildKingLines returns the squares whose occupancy can decide whether
// the royal piece on k is attacked by colour by: every square of each line a rider, hopper
// or cannon could attack it along, every square a blockable leap toward it
// passes (also alone, as legs); the flying general's file and rank are
// among the lines (buildLineAttackers). A move that neither leaves nor enters one of them cannot expose
// k (the mover's own pieces attack nothing of its own, and enemy pieces
// only disappear).
func (v *Variant) buildKingLines(by Colour, k Square) (set, legs SquareSet) {
	at := &v.attacks[by]
	for ray, a := range at.along {
		if a != (lineAttackers{}) {
			for _, t := range v.rays[ray][k] {
				set.Add(t)
			}
		}
	}
	for _, a := range at.lame[k] {
		for _, t := range a.path {
			set.Add(t)
			legs.Add(t)
		}
	}
	return set, legs
}

// dropDeadRays takes out of the royal piece's lines (on k) each unit ray
// along which colour them has no piece that attacks toward k (a rider,
// hopper or cannon of that direction, or the flying general): a move can
// open an attack only along a ray with such a piece, since the mover's
// own pieces attack nothing of its own and enemy pieces only disappear.
// The legs of blockable leaps stay.
func (p *Position) dropDeadRays(lines, legs *SquareSet, k Square, them Colour) {
	v := p.v
	at := &v.attacks[them]
	dead := false
	for _, ray := range v.unitRays {
		a := &at.along[ray]
		pieces := a.ride | a.hop | a.cannon
		if pieces == 0 {
			continue
		}
		live := false
		for _, t := range v.rays[ray][k] {
			if pieces>>p.board[t]&1 != 0 {
				live = true
				break
			}
		}
		if !live {
			for _, t := range v.rays[ray][k] {
				lines.Remove(t)
			}
			dead = true
		}
	}
	if dead {
		lines.Union(legs)
	}
}

// openedAttack reports whether, with the board changed on from and to by
// a move of another piece, the royal piece on k (safe before) is attacked:
// only along the lines from k through those squares, or by a blockable
// leap, can an attack have appeared.
func (p *Position) openedAttack(k, from, to Square, legs *SquareSet) bool {
	v := p.v
	them := p.board[k].Colour().Other()
	at := &v.attacks[them]
	for _, x := range [2]Square{from, to} {
		dx, dy := x.File()-k.File(), x.Rank()-k.Rank()
		if dx != 0 && dy != 0 && abs(dx) != abs(dy) {
			continue
		}
		if p.attackedAlong(k, v.unitRay[sign(dx)+1][sign(dy)+1], at) {
			return true
		}
	}
	return (legs.Has(from) || legs.Has(to)) && p.lameAttack(k, them, ^uint64(0))
}

// attackedAlong reports whether a rider, hopper or cannon of the tables at
// attacks k along the one ray.
func (p *Position) attackedAlong(k Square, ray int, at *attackTables) bool {
	a := &at.along[ray]
	if a.ride != 0 {
		for _, t := range p.v.rays[ray][k] {
			if pc := p.board[t]; pc != NoPiece {
				if a.ride>>pc&1 != 0 {
					return true
				}
				break
			}
		}
	}
	if a.hop != 0 && p.hopAttack(k, attackDir{ray: ray, pieces: a.hop}, ^uint64(0)) {
		return true
	}
	return a.cannon != 0 && p.cannonAttack(k, attackDir{ray: ray, pieces: a.cannon}, ^uint64(0))
}

// safeAfterOnBoard is legalAfter for an ordinary move where safety depends
// on the board alone: it moves the piece on the board and the occupancy
// masks only (no key, lists or history), tests, and puts it back. With
// safeBefore (the royal piece was safe and not in a face-off), a move of
// another piece is tested only for the attacks it can open (legs: the
// squares on blockable leaps to the royal piece); in a face-off (facing)
// the move must part the royal pieces.
func (p *Position) safeAfterOnBoard(m Move, safeBefore, facing bool, legs *SquareSet) bool {
	v, us := p.v, p.stm
	from, to := m.From(), m.To()
	pc, victim := p.board[from], p.board[to]
	moved := pc
	if t := m.Promotion(); t != 0 {
		moved = MakePiece(t, us)
	}
	p.board[from], p.board[to] = NoPiece, moved
	p.occupancy[us] ^= v.squareBit[from] ^ v.squareBit[to]
	if victim != NoPiece {
		p.occupancy[us.Other()] ^= v.squareBit[to]
	}
	ksq := p.royalSq[us]
	if from == ksq {
		p.royalSq[us] = to
	}
	var ok bool
	if safeBefore && from != ksq && v.unitLines {
		ok = !p.openedAttack(ksq, from, to, legs)
	} else {
		ok = p.legalAfterMove(us) && !(facing && p.generalsFace())
	}
	p.royalSq[us] = ksq
	if victim != NoPiece {
		p.occupancy[us.Other()] ^= v.squareBit[to]
	}
	p.occupancy[us] ^= v.squareBit[from] ^ v.squareBit[to]
	p.board[from], p.board[to] = pc, victim
	return ok
}

// LegalCaptures appends to dst[:0] the legal captures and promotions: the
// moves a quiescence search looks at. They are legal moves: LegalMoves
// holds each of them, and LegalQuiets the rest.
func (p *Position) LegalCaptures(dst []Move) []Move {
	v := p.v
	if v.MustCapture {
		// Every legal move is a capture, or none is: then only
		// promotions remain tactical.
		dst = p.LegalMoves(dst)
		kept := dst[:0]
		for _, m := range dst {
			if p.isCapture(m) || m.Promotion() != 0 {
				kept = append(kept, m)
			}
		}
		return kept
	}
	if v.MustDrop && p.mustDropHeld() && p.canDropNow() {
		return dst[:0] // a drop is compulsory, and no drop is tactical
	}
	p.mode = genTactical
	dst = p.LegalMoves(dst)
	p.mode = genAll
	return dst
}

// LegalQuiets appends to dst[:0] the legal moves LegalCaptures leaves
// out: a search that has tried the captures generates the rest only
// when it needs them.
func (p *Position) LegalQuiets(dst []Move) []Move {
	v := p.v
	if v.MustCapture {
		// LegalCaptures' filter, the other way.
		return slices.DeleteFunc(p.LegalMoves(dst), func(m Move) bool { return p.isCapture(m) || m.Promotion() != 0 })
	}
	if !v.QuietsApart() {
		var buf [MaxMoves]Move
		tactical := p.LegalCaptures(buf[:0])
		return slices.DeleteFunc(p.LegalMoves(dst), func(m Move) bool { return slices.Contains(tactical, m) })
	}
	p.mode = genQuiet
	dst = p.LegalMoves(dst)
	p.mode = genAll
	return dst
}

// QuietsApart reports whether LegalCaptures and LegalQuiets each
// generate only their own share of the moves. Where a rule weighs the
// list as a whole (compulsory captures) or adds moves of either kind
// (Cambodian and sittuyin moves), each generates them all, and a search
// that may want both had better ask LegalMoves once.
func (v *Variant) QuietsApart() bool {
	return !v.MustCapture && !v.CambodianMoves && !v.SittuyinPromotion
}

// canDropNow reports whether the side to move has a legal drop.
func (p *Position) canDropNow() bool {
	var buf [MaxMoves]Move
	return slices.ContainsFunc(p.LegalMoves(buf[:0]), func(m Move) bool { return m.Kind() == Drop })
}

// gen appends the pseudo-legal moves of the piece on from: by masks when
// only captures are wanted on a small board, square by square otherwise.
func (p *Position) gen(dst []Move, from Square) []Move {
	if p.mode == genTactical && p.v.small != nil {
		return p.v.small.genTactical(p, dst, from, &p.occupancy)
	}
	return p.genPiece(dst, from)
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	var buf [MaxMoves]Move
	return len(p.LegalMoves(buf[:0])) > 0
}
