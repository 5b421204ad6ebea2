package engine

import (
	"fmt"
	"strings"
)

// Move is a compact move: from and to squares, a promotion piece type, and a
// kind. Castling is the king's move (e1g1) that also knows its rook's
// square, so that Chess960 writes it as the king taking its rook (e1h1).
type Move uint32

// NoMove is the zero Move, never a legal move.
const NoMove Move = 0

// MoveKind distinguishes the moves that Make treats specially.
type MoveKind uint8

// The move kinds.
const (
	Normal MoveKind = iota
	DoubleStep
	EnPassant
	Castle
	// Launch fires a missile at To: the missile on From and every
	// non-royal piece on the 3x3 area around To are removed.
	Launch
	// Drop puts a piece of the mover's hand on To (From is To too).
	Drop
	// CastleGateRook is castling that gates a piece from the hand on the
	// rook's square (Castle with a gate puts it on the king's).
	CastleGateRook
	// Pass moves nothing (KingPass): From and To are the royal piece's
	// square, as Fairy-Stockfish writes it (e2e2).
	Pass
)

// A Move's bits: from (0–7), to (8–15), an extra byte (16–23: the
// promotion type, or a castling move's rook square), the kind (24–26), a
// castling move's rule (27–28) and a gate (29–31: which of the variant's
// gating pieces enters behind the moving piece, 0 none). The kinds fit
// three bits: at most eight; the castling rules two: at most four (two
// per side); the gating pieces three: at most seven (S-House gates any
// piece but the pawn and the king, six).
const (
	moveToShift    = 8
	movePromoShift = 16
	moveKindShift  = 24
	moveRuleShift  = 27
	moveGateShift  = 29
)

// MaxCastlingRules and MaxGateTypes are how many castling rules and
// gating pieces a variant may have: a Move names one in its bits.
const (
	MaxCastlingRules = 1 << (moveGateShift - moveRuleShift)
	MaxGateTypes     = 1<<(32-moveGateShift) - 1
)

// moveAltBit, in the castling-rule bits that only castling moves use
// otherwise, marks a Normal move's promotion as a demotion (the piece
// turns back into what it was: kyoto shogi) and a Drop as putting the
// piece down promoted.
const moveAltBit Move = 1 << moveRuleShift

// Demotes reports whether m turns a promoted piece back into the piece it
// was (its Promotion is that piece's type).
func (m Move) Demotes() bool { return m.Kind() == Normal && m&moveAltBit != 0 && m.Promotion() != 0 }

// DropsPromoted reports whether the drop m puts its piece down promoted.
func (m Move) DropsPromoted() bool { return m.Kind() == Drop && m&moveAltBit != 0 }

// gate returns the index (1–MaxGateTypes) into the variant's gating
// pieces of the piece m gates, 0 when it gates none.
func (m Move) gate() int { return int(m >> moveGateShift) }

// withGate returns m gating the variant's gating piece i (1–MaxGateTypes).
func (m Move) withGate(i int) Move { return m | Move(i)<<moveGateShift }

// isCastle reports whether m castles (gating on either square or not).
func (m Move) isCastle() bool { k := m.Kind(); return k == Castle || k == CastleGateRook }

// NewMove returns a normal move from one square to another.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<moveToShift }

func newSpecialMove(from, to Square, kind MoveKind, extra int) Move {
	return NewMove(from, to) | Move(extra)<<movePromoShift | Move(kind)<<moveKindShift
}

// NewDrop returns the move that drops a piece of type typ (1-based) from
// the hand on to.
func NewDrop(typ int, to Square) Move { return newSpecialMove(to, to, Drop, typ) }

// Dropped returns the type index of the piece a drop puts down, or 0 for
// any other move.
func (m Move) Dropped() int {
	if m.Kind() != Drop {
		return 0
	}
	return int(m>>movePromoShift) & 0xff
}

// From returns the square the piece leaves (a drop's target square).
func (m Move) From() Square { return Square(m) }

// To returns the square the piece (the king, when castling) arrives on.
func (m Move) To() Square { return Square(m >> moveToShift) }

// Kind returns the move kind.
func (m Move) Kind() MoveKind { return MoveKind(m>>moveKindShift) & 7 }

// Promotion returns the 1-based type index of the promotion piece, or 0.
func (m Move) Promotion() int {
	if m.Kind() != Normal {
		return 0
	}
	return int(m>>movePromoShift) & 0xff
}

// newCastleMove returns the castling move of rule i: the king's move, with
// the rook's square and the rule's index.
func newCastleMove(cr *CastlingRule, i int) Move {
	return newSpecialMove(cr.KingFrom, cr.KingTo, Castle, int(cr.RookFrom)) | Move(i)<<moveRuleShift
}

// castleRule returns the index of the castling rule of a Castle move.
func (m Move) castleRule() int { return int(m>>moveRuleShift) & (MaxCastlingRules - 1) }

// castleRook returns the square a Castle move's rook starts on.
func (m Move) castleRook() Square { return Square(m >> movePromoShift) }

// UCI returns the move in UCI long algebraic form for the variant: e2e4,
// e7e8q, a10a9. A missile launch is written from*target: b2*e5.
func (v *Variant) UCI(m Move) string {
	if m == NoMove {
		return "0000"
	}
	switch m.Kind() {
	case Launch:
		return m.From().String() + "*" + m.To().String()
	case Drop:
		return v.dropText(m)
	}
	if m.Kind() == Castle && v.Chess960 {
		return m.From().String() + m.castleRook().String() // the king takes its rook
	}
	if m.Kind() == CastleGateRook {
		// Gating on the rook's square: the rook's square to the king's.
		return m.castleRook().String() + m.From().String() + v.gateLetter(m)
	}
	s := m.From().String() + m.To().String()
	if m.gate() != 0 {
		return s + v.gateLetter(m)
	}
	if t := m.Promotion(); t != 0 {
		if m.Demotes() {
			return s + "-" // a demotion, as Fairy-Stockfish writes it
		}
		if v.piecePromotion(t) {
			return s + "+" // a shogi-style promotion, as Fairy-Stockfish writes it
		}
		s += strings.ToLower(string(v.Pieces[t-1].Letter))
	}
	return s
}

// ParseUCI finds the legal move written in UCI form in the position. The
// error says whether the text is malformed or the move is not legal.
func (p *Position) ParseUCI(s string) (Move, error) {
	v := p.v
	if len(s) > 1 && s[1] == '@' || len(s) > 2 && s[0] == '+' && s[2] == '@' {
		return p.parseDrop(s)
	}
	from, n, err := scanSquare(s, v.Width, v.Height)
	if err != nil {
		return NoMove, fmt.Errorf("move %q: %w", s, err)
	}
	launch := n < len(s) && s[n] == '*'
	if launch {
		n++
	}
	to, n2, err := scanSquare(s[n:], v.Width, v.Height)
	if err != nil {
		return NoMove, fmt.Errorf("move %q: %w", s, err)
	}
	rest := s[n+n2:]
	promo := 0
	demote := rest == "-"
	switch {
	case rest == "+":
		promo = -1 // the piece's own promotion (shogi)
	case demote:
		promo = -2 // a promoted piece's demotion (kyoto shogi)
	case rest != "":
		if len(rest) != 1 || v.TypeByLetter(rest[0]) == 0 {
			what := "promotion"
			if v.Gating {
				what = "promotion or gating piece"
			}
			return NoMove, fmt.Errorf("move %q: bad %s %q", s, what, rest)
		}
		promo = v.TypeByLetter(rest[0])
	}
	var buf [MaxMoves]Move
	for _, m := range p.LegalMoves(buf[:0]) {
		// Castling is the king's move (e1g1) or the king taking its rook
		// (e1h1, as Chess960 writes it); a plain king move comes first.
		castleTo := m.Kind() == Castle && m.castleRook() == to
		samePromotion := !m.Demotes() && (m.Promotion() == promo || (promo == -1 && m.Promotion() != 0 && v.piecePromotion(m.Promotion()))) ||
			m.Demotes() && demote
		if m.gate() != 0 {
			// The letter names the gating piece, not a promotion.
			samePromotion = promo > 0 && int(v.gateTypes[m.gate()-1]) == promo
			if m.Kind() == CastleGateRook {
				if m.castleRook() == from && m.From() == to && samePromotion {
					return m, nil
				}
				continue
			}
		}
		if m.From() == from && (m.To() == to || castleTo) && samePromotion && (m.Kind() == Launch) == launch {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("move %q is not legal in %s", s, p.FEN())
}

// piecePromotion reports whether a promotion to type t is a piece's own
// promotion (written +), not a pawn's choice of piece.
func (v *Variant) piecePromotion(t int) bool {
	for _, pt := range v.promoTypes {
		if int(pt) == t {
			return false
		}
	}
	for _, to := range v.promotesTo {
		if int(to) == t {
			return true
		}
	}
	return false
}

// parseDrop finds the legal drop written P@e4 (the piece's letter in
// either case).
func (p *Position) parseDrop(s string) (Move, error) {
	v := p.v
	text := s
	promoted := s[0] == '+' // +P@c3: dropped promoted (kyoto shogi)
	if promoted {
		s = s[1:]
	}
	typ := v.TypeByLetter(s[0])
	if typ == 0 {
		return NoMove, fmt.Errorf("move %q: no piece %q in variant %s", text, s[0], v.Name)
	}
	to, n, err := scanSquare(s[2:], v.Width, v.Height)
	if err != nil || n != len(s)-2 {
		return NoMove, fmt.Errorf("move %q: want a piece, @ and a square", text)
	}
	var buf [MaxMoves]Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if m.Kind() == Drop && m.Dropped() == typ && m.To() == to && m.DropsPromoted() == promoted {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("move %q is not legal in %s", text, p.FEN())
}

// dropText writes a drop as Fairy-Stockfish does: P@e4, or +P@e4 for a
// piece dropped promoted.
func (v *Variant) dropText(m Move) string {
	text := string(v.Pieces[m.Dropped()-1].Letter) + "@" + m.To().String()
	if m.DropsPromoted() {
		return "+" + text
	}
	return text
}

// MaxMoves is a buffer size that holds the legal moves of any position that
// occurs in practice; move lists grow past it when needed.
const MaxMoves = 512
