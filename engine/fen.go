package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// StartPosition returns the variant's starting position.
func (v *Variant) StartPosition() *Position {
	p, err := v.ParseFEN(v.StartFEN)
	if err != nil {
		panic("engine: start position was checked by NewVariant: " + err.Error())
	}
	return p
}

// ParseFEN reads a position in FEN for this variant. Empty runs may be
// written with several digits ("10"), as Fairy-Stockfish does on big boards.
// The side to move is required; castling, en passant and the clocks may be
// left out ("-", "-", 0, 1). Castling accepts K/Q letters and Shredder-FEN
// rook files. The error says what is wrong and where.
func (v *Variant) ParseFEN(fen string) (*Position, error) {
	return v.parseFENRoomFor(fen, 256)
}

// parseFENRoomFor is ParseFEN with history room for the given number of
// moves before Make allocates: a game or a search makes hundreds, a
// position set up to be probed (SetUp's) one or two, and a history of
// 256 moves is most of the memory a new position takes.
func (v *Variant) parseFENRoomFor(fen string, moves int) (*Position, error) {
	p := &Position{v: v, castles: v.castles, ep: noEPSquares, epVictim: NoSquare, fullmove: 1,
		history: make([]undo, 0, moves), removed: make([]removedPiece, 0, min(moves, 64))}
	if err := p.parseFEN(fen); err != nil {
		return nil, fmt.Errorf("FEN %q: %w", fen, err)
	}
	return p, nil
}

func (p *Position) parseFEN(fen string) error {
	v := p.v
	fields := strings.Fields(fen)
	if len(fields) < 2 {
		return fmt.Errorf("needs at least the board and the side to move, got %d field(s)", len(fields))
	}
	if v.CheckCounting > 0 {
		// The check field ("3+3": checks White and Black still need)
		// stands after the en-passant square.
		p.checks = [2]uint8{uint8(v.CheckCounting), uint8(v.CheckCounting)}
		if len(fields) > 4 && strings.Contains(fields[4], "+") {
			if err := p.parseChecks(fields[4]); err != nil {
				return err
			}
			fields = append(fields[:4:4], fields[5:]...)
		}
		p.key ^= v.zobrist.checks[White][p.checks[White]] ^ v.zobrist.checks[Black][p.checks[Black]]
	}
	if len(fields) == 4 && isCount(fields[2]) && isCount(fields[3]) {
		// Fairy-Stockfish's shogi form: no castling or en-passant field.
		fields = []string{fields[0], fields[1], "-", "-", fields[2], fields[3]}
	}
	if len(fields) > 6 {
		return fmt.Errorf("has %d fields, at most 6", len(fields))
	}
	board, holdings, err := v.splitHoldings(fields[0])
	if err != nil {
		return err
	}
	if err := p.parseBoard(board); err != nil {
		return err
	}
	if err := p.parseHoldings(holdings); err != nil {
		return err
	}
	switch fields[1] {
	case "w":
		p.stm = White
	case "b":
		p.stm = Black
		p.key ^= v.zobrist.black
	default:
		return fmt.Errorf("side to move %q: want w or b", fields[1])
	}
	if len(fields) > 2 {
		if err := p.parseCastling(fields[2]); err != nil {
			return err
		}
	}
	if len(fields) > 3 {
		if v.Counting != NoCounting && isCount(fields[3]) {
			// Fairy-Stockfish writes a running count's limit (plies)
			// where the en-passant square would stand.
			n, err := strconv.Atoi(fields[3])
			if err != nil || n < 1 || n > 1000 {
				return fmt.Errorf("counting limit %q: want 1 to 1000 plies", fields[3])
			}
			p.counting.limit = int16(n)
		} else if err := p.parseEnPassant(fields[3]); err != nil {
			return err
		}
	}
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > 1<<20 {
			return fmt.Errorf("halfmove clock %q: want a count of plies", fields[4])
		}
		p.halfmove = n
		if p.counting.limit != 0 {
			// With a count running, the field is the count.
			if n > 1000 {
				return fmt.Errorf("count %q: want 0 to 1000 plies", fields[4])
			}
			p.counting.ply, p.halfmove = int16(n), 0
			// A count runs to one past its limit (the draw), or starts
			// past it against a bare king (twice the pieces on the board).
			if n > int(p.counting.limit)+1 && n > 2*p.PieceCount() {
				return fmt.Errorf("count %d is above its limit %d", n, p.counting.limit)
			}
		}
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 0 || n > 1<<20 {
			return fmt.Errorf("fullmove number %q: want a move number", fields[5])
		}
		p.fullmove = max(n, 1) // some GUIs write 0
	}
	if err := p.checkLegal(); err != nil {
		return err
	}
	return p.checkCount()
}

// isCount reports whether a field is a plain decimal number.
func isCount(field string) bool {
	for i := 0; i < len(field); i++ {
		if field[i] < '0' || field[i] > '9' {
			return false
		}
	}
	return field != ""
}

// splitHoldings separates the pieces in hand from the board field: written
// in brackets after the board ("…/RNBQKBNR[Qp]", as Fairy-Stockfish
// writes them) or as one rank more ("…/RNBQKBNR/Qp", as lichess does).
func (v *Variant) splitHoldings(field string) (board, holdings string, err error) {
	if i := strings.IndexByte(field, '['); i >= 0 {
		if !strings.HasSuffix(field, "]") || strings.Count(field, "[") != 1 {
			return "", "", fmt.Errorf("holdings %q: want the pieces in hand in brackets after the board", field[i:])
		}
		if !v.HasHands() {
			return "", "", fmt.Errorf("holdings %q: variant %s has no pieces in hand", field[i:], v.Name)
		}
		return field[:i], field[i+1 : len(field)-1], nil
	}
	if v.HasHands() && strings.Count(field, "/") == v.Height {
		i := strings.LastIndexByte(field, '/')
		return field[:i], field[i+1:], nil
	}
	return field, "", nil
}

// parseHoldings reads the pieces in hand: letters, White's uppercase, in
// any order ("-" or nothing for none).
func (p *Position) parseHoldings(holdings string) error {
	v := p.v
	if holdings == "-" {
		return nil
	}
	for i := 0; i < len(holdings); i++ {
		ch := holdings[i]
		t := v.TypeByLetter(ch)
		if t == 0 {
			return fmt.Errorf("holdings %q: unknown piece letter %q in variant %s", holdings, ch, v.Name)
		}
		if v.Pieces[t-1].Royal && !v.MustDrop { // placement drops its king
			return fmt.Errorf("holdings %q: a royal piece (%c) cannot be in hand", holdings, ch)
		}
		c := White
		if ch >= 'a' {
			c = Black
		}
		if p.hand[c][t] == 255 {
			return fmt.Errorf("holdings %q: more than 255 of %c", holdings, ch)
		}
		p.key ^= p.handBy(MakePiece(t, c), +1)
	}
	return nil
}

func (p *Position) parseBoard(board string) error {
	v := p.v
	ranks := strings.Split(board, "/")
	if len(ranks) != v.Height {
		return fmt.Errorf("board has %d ranks, variant %s has %d", len(ranks), v.Name, v.Height)
	}
	for i, text := range ranks {
		rank := v.Height - 1 - i
		file := 0
		for j := 0; j < len(text); j++ {
			ch := text[j]
			switch {
			case ch >= '0' && ch <= '9':
				n := int(ch - '0')
				for j+1 < len(text) && text[j+1] >= '0' && text[j+1] <= '9' && n <= MaxSize {
					j++
					n = n*10 + int(text[j]-'0')
				}
				if n == 0 {
					return fmt.Errorf("rank %d: an empty run of 0 squares", rank+1)
				}
				file += n
			case (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '+':
				n, err := p.parsePiece(text[j:], file, rank)
				if err != nil {
					return fmt.Errorf("rank %d: %w", rank+1, err)
				}
				j += n - 1
				file++
			default:
				return fmt.Errorf("rank %d: unexpected character %q", rank+1, ch)
			}
			if file > v.Width {
				break
			}
		}
		if file != v.Width {
			return fmt.Errorf("rank %d has %d files, board is %d wide", rank+1, file, v.Width)
		}
	}
	return nil
}

// parsePiece reads one piece at the start of text — a letter, a letter
// and ~ (a promoted piece: it was a pawn), or + and a letter (the piece
// that letter promotes to) — and puts it on (file, rank) when that is on
// the board. It returns the characters read.
func (p *Position) parsePiece(text string, file, rank int) (int, error) {
	v := p.v
	n, ch, base := 1, text[0], 0
	if ch == '+' {
		if len(text) < 2 {
			return 0, fmt.Errorf("+ without a piece letter")
		}
		n, ch = 2, text[1]
		base = v.TypeByLetter(ch)
		if base == 0 || v.promotesTo[base] == 0 {
			return 0, fmt.Errorf("+%c: no piece %q that promotes in variant %s", ch, ch, v.Name)
		}
	}
	t := v.TypeByLetter(ch)
	if t == 0 {
		return 0, fmt.Errorf("unknown piece letter %q in variant %s", ch, v.Name)
	}
	if base != 0 {
		t = int(v.promotesTo[base])
	}
	if n < len(text) && text[n] == '~' {
		if base != 0 || !v.CapturesToHand || v.handPawn == 0 {
			return 0, fmt.Errorf("%c~ marks a piece promoted from a pawn, which only variants with pawns whose captures go to hand have", ch)
		}
		// Only a piece a pawn promotes to carries the mark: anything
		// else (a king) marked so would go to hand as a pawn when
		// captured, from a position no game reaches.
		if !slices.Contains(v.promoTypes, uint8(t)) {
			return 0, fmt.Errorf("%c~ marks a piece promoted from a pawn, and no pawn of variant %s promotes to a %s",
				ch, v.Name, strings.ToLower(v.Pieces[t-1].Name))
		}
		n++
		if !v.DropLoop { // there it goes to hand as it stands
			base = int(v.handPawn)
		}
	}
	if file >= v.Width {
		return n, nil // the caller reports the overlong rank
	}
	c := White
	if ch >= 'a' {
		c = Black
	}
	s := SquareAt(file, rank)
	p.put(MakePiece(t, c), s)
	if base != 0 && v.CapturesToHand {
		p.unpromoted[s] = uint8(base)
		p.key ^= v.zobrist.promotedKey(s, uint8(base))
	}
	return n, nil
}

func (p *Position) parseChecks(field string) error {
	w, b, ok := strings.Cut(field, "+")
	nw, errW := strconv.Atoi(w)
	nb, errB := strconv.Atoi(b)
	limit := p.v.CheckCounting
	if !ok || errW != nil || errB != nil || nw < 0 || nb < 0 || nw > limit || nb > limit {
		return fmt.Errorf("check counts %q: want W+B, each 0 to %d", field, limit)
	}
	p.checks = [2]uint8{uint8(nw), uint8(nb)}
	return nil
}

// parseCastling reads the castling field: per letter the rule it names
// (K/Q, or a rook's file as Shredder-FEN writes it) and, in Chess960, the
// king's and rook's squares it takes from the board (castling.go).
func (p *Position) parseCastling(field string) error {
	v := p.v
	if field == "-" {
		return nil
	}
	var rules []CastlingRule // Chess960: the variant's, moved to the board's files
	if v.Chess960 {
		if len(v.Castling) == 0 {
			return fmt.Errorf("castling %q: variant %s has no castling", field, v.Name)
		}
		rules = append([]CastlingRule(nil), v.Castling...)
	}
	for i := 0; i < len(field); i++ {
		ch := field[i]
		c, upper := White, ch
		if ch >= 'a' && ch <= 'z' {
			c, upper = Black, ch-('a'-'A')
		}
		if (v.Gating || v.CambodianMoves) && upper != 'K' && upper != 'Q' && upper >= 'A' && int(upper-'A') < v.Width {
			p.gates |= v.gateBit(SquareAt(int(upper-'A'), v.backRank(c))) // a gate right
			continue
		}
		var rule int
		var err error
		if v.Chess960 {
			rule, err = p.chess960Rule(rules, c, upper, ch)
		} else {
			rule, err = p.fixedRule(c, upper, ch)
		}
		if err != nil {
			return fmt.Errorf("castling %q: %w", field, err)
		}
		if p.castling&(1<<rule) != 0 {
			return fmt.Errorf("castling %q: %q given twice", field, ch)
		}
		p.castling |= 1 << rule
		if v.Gating {
			// Castling rights keep the king's and the rook's gates too.
			cr := &v.Castling[rule]
			p.gates |= v.gateBit(cr.KingFrom) | v.gateBit(cr.RookFrom)
		}
	}
	if v.Gating {
		for c := White; c <= Black; c++ {
			if !p.keepsGates(c) {
				p.gates &^= colourGates(c)
			}
		}
	}
	if v.Gating || v.CambodianMoves {
		p.key ^= v.gatesKey(p.gates)
	}
	if rules != nil {
		p.castles = newCastlingSet(rules)
	}
	p.key ^= v.zobrist.castling[p.castling]
	return nil
}

// fixedRule returns the variant's castling rule a letter of colour c
// names (K/Q, or a file letter naming its rook), with its king and rook
// where the rule wants them.
func (p *Position) fixedRule(c Colour, upper, ch byte) (int, error) {
	v := p.v
	for r, cr := range v.Castling {
		if cr.Colour != c {
			continue
		}
		if cr.Letter == upper || (upper >= 'A' && int(upper-'A') == cr.RookFrom.File() && upper-'A' < byte(v.Width) && upper != 'K' && upper != 'Q') {
			if p.board[cr.KingFrom] != MakePiece(int(v.castleKing), c) || p.board[cr.RookFrom] != MakePiece(int(v.castleRook), c) {
				return 0, fmt.Errorf("%q needs the %s king on %v and rook on %v", ch, c, cr.KingFrom, cr.RookFrom)
			}
			return r, nil
		}
	}
	return 0, fmt.Errorf("no %s castling %q in variant %s", c, ch, v.Name)
}

func (p *Position) parseEnPassant(field string) error {
	v := p.v
	if field == "-" {
		return nil
	}
	// One square, or several written together ("i8i7") after a longer
	// advance.
	var squares []Square
	for rest := field; rest != ""; {
		sq, n, err := scanSquare(rest, v.Width, v.Height)
		if err != nil {
			return fmt.Errorf("en-passant square %q: %w", field, err)
		}
		if p.board[sq] != NoPiece {
			return fmt.Errorf("en-passant square %v is occupied", sq)
		}
		if len(squares) == maxEPSquares {
			return fmt.Errorf("en-passant field %q: at most %d squares", field, maxEPSquares)
		}
		squares = append(squares, sq)
		rest = rest[n:]
	}
	// Find the piece that has just advanced over the squares: a piece of
	// the side that moved, reached by an initial multi-step from an empty
	// square, passing them all.
	mover := p.stm.Other()
	for _, s := range p.Pieces(mover) {
		for o := 0; o < NumSquares; o++ {
			origin := Square(o)
			if !v.onBoard.Has(origin) || p.board[origin] != NoPiece {
				continue
			}
			for _, l := range v.moves[p.board[s]][origin].lame {
				if l.doubleStep && l.to == s && containsAll(l.path, squares) {
					p.key ^= p.setEnPassant(origin, s)
					return nil
				}
			}
		}
	}
	return fmt.Errorf("en-passant square %v: no %s pawn has just stepped over it", squares[0], mover)
}

func containsAll(set, items []Square) bool {
	for _, it := range items {
		found := false
		for _, s := range set {
			found = found || s == it
		}
		if !found {
			return false
		}
	}
	return true
}

// setEnPassant records the en-passant squares after an initial advance
// from `from` to `to`: the squares passed over, but only those where an
// enemy piece could capture (and inside the variant's en-passant region),
// since positions that differ only by an unusable en-passant square are the
// same position. It returns the change to the key.
func (p *Position) setEnPassant(from, to Square) uint64 {
	v := p.v
	df, dr := sign(to.File()-from.File()), sign(to.Rank()-from.Rank())
	taker := p.board[to].Colour().Other()
	var key uint64
	n := 0
	for s := SquareAt(from.File()+df, from.Rank()+dr); s != to; s = SquareAt(s.File()+df, s.Rank()+dr) {
		if r := v.EnPassantRegion; r != nil && !r.Has(s) {
			continue
		}
		for _, a := range v.attacks[taker].epLeaps[s] {
			if a.pieces>>p.board[a.from]&1 != 0 {
				p.ep[n] = s
				n++
				key ^= v.zobrist.ep[s]
				break
			}
		}
	}
	if n > 0 {
		p.epVictim = to
	}
	return key
}

// checkLegal rejects positions the rules could never reach in a way that
// matters to move generation: the side that just moved left a royal piece
// attacked, a pawn stands where it must already have promoted, a piece
// outside its region or where it could never move, two pawns on a file
// where the variant forbids it, more pieces in hand than the game holds.
func (p *Position) checkLegal() error {
	v := p.v
	if err := p.checkHands(); err != nil {
		return err
	}
	for c := White; c <= Black; c++ {
		if err := p.checkRoyals(c); err != nil {
			return err
		}
		if err := p.checkDoubled(c); err != nil {
			return err
		}
		for _, s := range p.Pieces(c) {
			pt := &v.Pieces[p.board[s].Type()-1]
			if pt.Region != nil && !pt.Region[c].Has(s) {
				return fmt.Errorf("%s %s on %v stands outside its region", c, strings.ToLower(pt.Name), s)
			}
			if v.isImmobile(p.board[s], s) {
				return fmt.Errorf("%s %s on %v could never move (it should have promoted)", c, strings.ToLower(pt.Name), s)
			}
			if v.pawnTypes>>p.board[s]&1 != 0 && v.relativeRank(s, c) < v.pawnFloor[c] {
				return fmt.Errorf("%s pawn on %v stands behind the ranks pawns start on", c, s)
			}
			lastRank := s.Rank() == v.Height-1 && c == White || s.Rank() == 0 && c == Black
			mustPromote := v.PromotionZone[c].Has(s) && (!v.OptionalPromotion || lastRank)
			if v.pawnTypes>>p.board[s]&1 != 0 && mustPromote && len(v.promoTypes) > 0 && !v.SittuyinPromotion {
				return fmt.Errorf("%s pawn on %v should have promoted", c, s)
			}
		}
	}
	// In a face-off (janggi's bikjang) a side may pass even in check.
	if p.royalInDanger(p.stm.Other()) && !(p.v.Bikjang && p.generalsFace()) {
		return fmt.Errorf("%s is in check but it is %s's move", p.stm.Other(), p.stm)
	}
	return nil
}

// checkHands checks the pieces in hand against the start position: with
// captures to hand, the two hands hold no more of a type than the game
// has of it; otherwise each hand holds no more of a type than it started
// with; with two boards (bughouse) anything may arrive. (Positions of published perft suites put a pawn in each hand
// beside all sixteen on the board, so the board is not counted.)
func (p *Position) checkHands() error {
	v := p.v
	if !v.startKnown || !v.HasHands() || v.TwoBoards {
		return nil // with two boards, the partner's captures fill the hands
	}
	for t := 1; t <= len(v.Pieces); t++ {
		name := strings.ToLower(v.Pieces[t-1].Name)
		if v.CapturesToHand {
			most := v.startTypes[t]
			if v.DropLoop && slices.Contains(v.promoTypes, uint8(t)) {
				// A promoted pawn captured goes to hand as its piece:
				// every pawn may have become one.
				most += v.startPawns()
			}
			if n := p.InHand(White, t) + p.InHand(Black, t); n > most {
				return fmt.Errorf("%d %ss in hand, variant %s has %d in all", n, name, v.Name, most)
			}
			continue
		}
		for c := White; c <= Black; c++ {
			if n := p.InHand(c, t); n > v.startHand[c][t] {
				return fmt.Errorf("%s holds %d %s(s) in hand, variant %s starts with %d and never adds any",
					c, n, name, v.Name, v.startHand[c][t])
			}
		}
	}
	return nil
}

// startPawns counts the pawns (RolePawn pieces) of the start position,
// both colours, on the board and in hand.
func (v *Variant) startPawns() int {
	n := 0
	for t := 1; t <= len(v.Pieces); t++ {
		if v.Pieces[t-1].Role == RolePawn {
			n += v.startTypes[t]
		}
	}
	return n
}

// originalTypes counts each piece type, both colours, on the board and in
// hand, a promoted piece as the type it was.
func (p *Position) originalTypes() [MaxPieceTypes + 1]int {
	var n [MaxPieceTypes + 1]int
	for c := White; c <= Black; c++ {
		for _, s := range p.Pieces(c) {
			t := int(p.board[s].Type())
			if u := p.unpromoted[s]; u != 0 {
				t = int(u)
			}
			n[t]++
		}
		for t := 1; t <= len(p.v.Pieces); t++ {
			n[t] += p.InHand(c, t)
		}
	}
	return n
}

// checkDoubled refuses two of colour c's DropNoDoubled pieces on a file
// when that piece never leaves its file (shogi's pawns): only a drop
// could have made them, and the rule forbids it.
func (p *Position) checkDoubled(c Colour) error {
	v := p.v
	if !v.doubledImpossible {
		return nil
	}
	t := int(v.noDoubled)
	var seen [MaxSize]bool
	for _, s := range p.Pieces(c) {
		if int(p.board[s].Type()) != t || p.unpromoted[s] != 0 {
			continue
		}
		if seen[s.File()] {
			return fmt.Errorf("%s has two %ss on the %c-file, which variant %s forbids", c, strings.ToLower(v.Pieces[t-1].Name), 'a'+s.File(), v.Name)
		}
		seen[s.File()] = true
	}
	return nil
}

// checkRoyals checks colour c's royal pieces against the variant: as many
// as in the start position, since a royal piece is never captured; in
// atomic-like variants one may have exploded (a decided position); with
// a leftmost-royal rule any but one may have been taken; promotion to a
// royal type may add more.
func (p *Position) checkRoyals(c Colour) error {
	v := p.v
	want, have := v.startRoyals[c], int(p.royals[c])
	if want == 0 {
		return nil
	}
	lo, hi := want, want
	switch {
	case v.BlastOnCapture:
		lo = 0
	case v.RoyalRule == LeftmostRoyal:
		lo = 1
	}
	for _, t := range v.promoTypes {
		if v.Pieces[t-1].Royal {
			hi = MaxSize * MaxSize
		}
	}
	if have >= lo && have <= hi {
		return nil
	}
	name := v.royalName()
	switch {
	case have == 0 && lo > 0:
		return fmt.Errorf("%s has no %s", c, name)
	case have < lo:
		return fmt.Errorf("%s has %d %s(s), variant %s needs at least %d", c, have, name, v.Name, lo)
	case have > hi:
		return fmt.Errorf("%s has %d %s(s), variant %s allows %d", c, have, name, v.Name, hi)
	}
	return nil
}

// royalName is what errors call a royal piece: the first royal type's
// name.
func (v *Variant) royalName() string {
	for _, pt := range v.Pieces {
		if pt.Royal {
			return strings.ToLower(pt.Name)
		}
	}
	return "royal piece"
}

// checkStartRoyals refuses a start position in which a side has no royal
// piece, on the board or in hand (where the rules drop it), in a variant
// that has royal pieces. Later positions are held to the royal pieces the
// start has (checkRoyals), so a start without any would let every FEN
// through, and a side without one is never mated: only a variant that
// ends games by extinction gives such a side a way to lose (horde's
// pawns).
func (p *Position) checkStartRoyals() error {
	v := p.v
	if v.royalTypes == 0 || v.ExtinctionValue != NoValue {
		return nil
	}
	for c := White; c <= Black; c++ {
		n := int(p.royals[c])
		for t := 1; t <= len(v.Pieces); t++ {
			if v.Pieces[t-1].Royal {
				n += p.InHand(c, t)
			}
		}
		if n == 0 {
			return fmt.Errorf("FEN %q: %s has no %s, and a side without a royal piece is never mated: "+
				"each side starts with one (on the board or in hand) unless the variant ends games by extinction",
				v.StartFEN, c, v.royalName())
		}
	}
	return nil
}

// FEN returns the position in FEN, with multi-digit empty runs on wide
// boards, and castling rights in X-FEN in Chess960. Parsing the result
// gives the same position.
func (p *Position) FEN() string { return p.fen(false) }

// ShredderFEN is FEN with Chess960 castling rights written as the rooks'
// files (HAha), as Shredder and some GUIs want them.
func (p *Position) ShredderFEN() string { return p.fen(true) }

func (p *Position) fen(shredder bool) string {
	var b strings.Builder
	v := p.v
	v.writeBoardFEN(&b, func(s Square) Piece { return p.board[s] }, &p.unpromoted)
	if v.HasHands() {
		p.writeHoldings(&b)
	}
	b.WriteString([]string{" w ", " b "}[p.stm])
	p.writeCastling(&b, shredder)
	b.WriteByte(' ')
	if p.counting.limit != 0 {
		// Fairy-Stockfish's form: the limit for the en-passant square
		// (a game with a count has no pawns), the count for the clock.
		fmt.Fprintf(&b, "%d %d %d", p.counting.limit, p.counting.ply, p.fullmove)
		return b.String()
	}
	if p.ep[0] == NoSquare {
		b.WriteByte('-')
	}
	for _, s := range p.ep {
		if s == NoSquare {
			break
		}
		b.WriteString(s.String())
	}
	if v.CheckCounting > 0 {
		fmt.Fprintf(&b, " %d+%d", p.checks[White], p.checks[Black])
	}
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

// writeHoldings writes the pieces in hand in brackets, White's first, each
// side's from the last piece type to the first (for chess pieces
// Fairy-Stockfish's order: QRBNP).
func (p *Position) writeHoldings(b *strings.Builder) {
	b.WriteByte('[')
	for c := White; c <= Black; c++ {
		for t := len(p.v.Pieces); t >= 1; t-- {
			for range p.hand[c][t] {
				b.WriteByte(p.v.pieceLetter(MakePiece(t, c)))
			}
		}
	}
	b.WriteByte(']')
}

// writeBoardFEN writes the board field of a FEN, rank by rank from the
// top, with at giving the piece on each square and unpromoted what each
// promoted piece was (nil: none): a piece promoted by PiecePromotion is
// written + and its old letter (+P), one promoted from a pawn with a ~
// after its letter (Q~).
func (v *Variant) writeBoardFEN(b *strings.Builder, at func(Square) Piece, unpromoted *[NumSquares]uint8) {
	for rank := v.Height - 1; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < v.Width; file++ {
			pc := at(SquareAt(file, rank))
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			var base uint8
			if unpromoted != nil {
				base = unpromoted[SquareAt(file, rank)]
			}
			switch {
			case base != 0 && int(v.promotesTo[base]) == pc.Type():
				b.WriteByte('+')
				b.WriteByte(v.pieceLetter(MakePiece(int(base), pc.Colour())))
			case base != 0:
				b.WriteByte(v.pieceLetter(pc))
				b.WriteByte('~')
			default:
				b.WriteByte(v.pieceLetter(pc))
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
}

// Placement is one piece on one square, for SetUp.
type Placement struct {
	Square Square
	Piece  Piece
}

// SetUp returns the position holding just the given pieces, with stm to
// move, no castling rights or en-passant square and both clocks at their
// start. It is checked as ParseFEN checks a FEN, and fails the same way.
func (v *Variant) SetUp(pieces []Placement, stm Colour) (*Position, error) {
	var board [NumSquares]Piece
	for _, pl := range pieces {
		if !v.OnBoard(pl.Square) {
			return nil, fmt.Errorf("fen: square %d is off the %dx%d board", pl.Square, v.Width, v.Height)
		}
		if t := pl.Piece.Type(); t < 1 || t > len(v.Pieces) {
			return nil, fmt.Errorf("fen: piece code %d is not a piece of %s", pl.Piece, v.Name)
		}
		if board[pl.Square] != NoPiece {
			return nil, fmt.Errorf("fen: two pieces on %s", pl.Square)
		}
		board[pl.Square] = pl.Piece
	}
	var b strings.Builder
	v.writeBoardFEN(&b, func(s Square) Piece { return board[s] }, nil)
	b.WriteString([]string{" w - -", " b - -"}[stm])
	if v.CheckCounting > 0 {
		fmt.Fprintf(&b, " %d+%d", v.CheckCounting, v.CheckCounting)
	}
	b.WriteString(" 0 1")
	// Set-up positions are probed and searched a ply or two, tens of
	// thousands a second by a table's verifier: a short history to start.
	return v.parseFENRoomFor(b.String(), 8)
}
