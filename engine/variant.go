package engine

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// MaxPieceTypes is the most piece types a variant may define; it keeps every
// piece code (type<<1 | colour) below 64 so a set of pieces fits a uint64.
const MaxPieceTypes = 31

// RoyalRule says which royal pieces must be kept safe.
type RoyalRule uint8

// The royal rules.
const (
	// AllRoyal: no royal piece may be left attacked (the default).
	AllRoyal RoyalRule = iota
	// LeftmostRoyal: only the royal piece nearest the a-file (on one file,
	// the one nearest White's first rank) is royal; the others are ordinary
	// pieces that may be captured (Two Kings Each).
	LeftmostRoyal
)

// CastlingRule describes one castling move: the king and rook of Colour stand
// on KingFrom and RookFrom and end on KingTo and RookTo. Letter is the FEN
// castling letter for White ('K' or 'Q'); Black's is its lowercase.
type CastlingRule struct {
	Colour                             Colour
	Letter                             byte
	KingFrom, KingTo, RookFrom, RookTo Square
}

// Rules describes a variant completely; NewVariant checks it and builds the
// tables that positions use. The zero values of the end rules mean chess:
// checkmate loses, stalemate draws.
type Rules struct {
	// Name is the variant's UCI_Variant name ("chess").
	Name string
	// Width and Height are the board size, 1 to 16 each.
	Width, Height int
	// Pieces are the variant's piece types; their index+1 is the type index.
	Pieces []PieceType
	// StartFEN is the starting position.
	StartFEN string
	// InitialRegion is, per colour, where atoms marked Initial may be used.
	InitialRegion [2]SquareSet
	// PromotionZone is, per colour, where pawns (RolePawn) must promote.
	PromotionZone [2]SquareSet
	// PromotionTypes are the FEN letters (uppercase) a pawn may promote to.
	PromotionTypes []byte
	// Castling lists the castling moves; at most 8.
	Castling []CastlingRule
	// CastlingKing and CastlingRook are the letters of the pieces that castle.
	CastlingKing, CastlingRook byte
	// Goal is how a game is won besides checkmate; its zero value is
	// chess's.
	Goal
	// NoChecks forbids moves that give check.
	NoChecks bool
	// FlyingGeneral: the two sides' royal pieces may never face each
	// other on a file or rank with nothing between (xiangqi's generals);
	// a move that leaves them so is illegal, as if each attacked the other.
	FlyingGeneral bool
	// DiagonalLines are the points of the palace diagonals (janggi): a
	// piece standing on one also moves diagonally along them, as its
	// orthogonal atom does (a rook slides, a wazir or king steps, a
	// soldier steps forward, a cannon jumps a screen), ending on another.
	DiagonalLines SquareSet
	// KingPass lets the side with one royal piece pass, written as the
	// royal piece moving to its own square (e2e2), when not in check.
	KingPass bool
	// RoyalRule chooses which royal pieces must be kept safe.
	RoyalRule RoyalRule
	// Missile (a letter) is a piece that, once any non-pawn piece has been
	// captured, may instead be launched at any square while not attacked:
	// it and every non-royal piece on the 3x3 area there are removed.
	Missile byte
	// EnPassantRegion, when set, limits where an en-passant square may
	// arise (so a double step from the first rank can leave none).
	EnPassantRegion *SquareSet
	// EnPassantDoubleStepOnly: only a two-square advance can be taken en
	// passant; by default every square a longer advance passes can.
	EnPassantDoubleStepOnly bool
	// OptionalPromotion lets a pawn in the promotion zone stay a pawn,
	// except on the last rank where it could not move again.
	OptionalPromotion bool
	// PromotionLimit caps, by letter, how many pieces of a type a side may
	// have for a pawn to promote to it (Grand chess).
	PromotionLimit map[byte]int
	// PiecePromotion maps a piece's letter to the letter of the piece it
	// promotes to (shogi: P to G, R to D), when a move starts or ends in
	// its side's PromotionZone; promoting is optional (see
	// ImmobilityIllegal). FEN writes the promoted piece as +P.
	PiecePromotion map[byte]byte
	// CambodianMoves: the king and the met (CambodianMet, a letter) on
	// their unmoved gates may leap ahead (cambodian.go).
	CambodianMoves bool
	CambodianMet   byte
	// SittuyinPromotion: pawns do not promote on reaching the zone; a
	// pawn turns into a promotion piece by a move of its own, in place or
	// one step of the new piece away (e5e5f, e5d6f; see sittuyin.go).
	SittuyinPromotion bool
	// MandatoryPiecePromotion: a piece with its own promotion must take it
	// when it moves into, out of or inside its promotion zone
	// (euroshogi's knights and pawns).
	MandatoryPiecePromotion bool
	// PieceDemotion: a promoted piece may turn back into what it was on a
	// move into, out of or inside its promotion zone (written e2e3-);
	// with MandatoryPiecePromotion it must (kyoto shogi).
	PieceDemotion bool
	// PiecePromotionOnCapture: pieces promote and demote only when they
	// capture (micro shogi).
	PiecePromotionOnCapture bool
	// KingStaysInCheck (makpong): a royal piece in check may not step out
	// of it; it moves only to capture a lone checker, so a check must be
	// blocked or its piece taken.
	KingStaysInCheck bool
	// ImmobilityIllegal: no move or drop may leave a piece on a square from
	// which it could never move again (a shogi pawn on the last rank).
	ImmobilityIllegal bool
	// Chess960 takes the castling king and rooks from the position: any
	// start array castles to the rules' squares, and moves write castling
	// as the king taking its own rook (e1h1).
	Chess960 bool
	// Hands are the rules of pieces in hand and drops; the zero value is a
	// game without them.
	Hands
	// MoveRule is the n-move rule in full moves (50); 0 disables it.
	MoveRule int
	// RepetitionRule is the n-fold repetition draw (3); 0 disables it.
	RepetitionRule int
}

// Hands are the rules of pieces in hand (crazyhouse, shogi), named after
// Fairy-Stockfish's variant keys.
type Hands struct {
	// PieceDrops lets a move put a piece from its side's hand on an empty
	// square (written P@e4).
	PieceDrops bool
	// CapturesToHand puts a captured piece into the capturer's hand, as
	// the piece it was before it promoted (FEN marks a piece promoted
	// from a pawn Q~, one promoted by PiecePromotion +P).
	CapturesToHand bool
	// FirstRankPawnDrops and PromotionZonePawnDrops allow pawns to be
	// dropped on their side's first rank and in its promotion zone.
	FirstRankPawnDrops, PromotionZonePawnDrops bool
	// DropNoDoubled (a letter) forbids dropping that piece on a file that
	// already has one of the side's own (shogi's nifu).
	DropNoDoubled byte
	// DropMateIllegal (a letter) forbids dropping that piece to give
	// checkmate (shogi's uchifuzume, for the pawn).
	DropMateIllegal byte
	// NoDropChecks forbids drops that give check (Fairy-Stockfish's
	// dropChecks = false).
	NoDropChecks bool
	// DropRegion, when set, is per colour where pieces may be dropped
	// (supply: one's own side of the river); a piece confined to a
	// region is dropped only inside it.
	DropRegion *[2]SquareSet
	// MustDrop: while a side holds pieces in hand (of MustDropType, a
	// letter, when set), it must drop one if it can (placement, sittuyin).
	MustDrop     bool
	MustDropType byte
	// RookDropsOnFirstRank: rooks (RoleRook) are dropped on their side's
	// first rank only (sittuyin).
	RookDropsOnFirstRank bool
	// DropBishopsOnBothColours: a side's bishops (RoleBishop) are dropped
	// on squares of different colours, and no other drop may take the
	// last square a bishop still in hand needs (placement).
	DropBishopsOnBothColours bool
	// CastlingDroppedPiece: a king dropped on its castling square, with a
	// rook on a castling rook's square, gains that castling right, as does
	// a rook dropped there beside a king in place (placement).
	CastlingDroppedPiece bool
	// DropPromoted: a piece in hand that promotes may also be dropped
	// promoted (written +P@c3; kyoto shogi).
	DropPromoted bool
	// DropLoop (loop, chessgi): a captured piece goes to hand as it
	// stands, a promoted pawn as its new piece, not as the pawn it was.
	DropLoop bool
	// TwoBoards (bughouse, supply): the hands are also filled from a
	// partner's board, by the interface; no rule here changes with it.
	TwoBoards bool
	// Gating (Seirawan chess): a piece in hand may enter on the square a
	// back-rank piece leaves on its first move; the castling field also
	// holds the gate rights, as file letters.
	Gating bool
}

// HasHands reports whether positions of the variant have hands: pieces
// may be dropped, captures fill them, or they gate.
func (h Hands) HasHands() bool { return h.PieceDrops || h.CapturesToHand || h.Gating }

// Goal holds every rule that changes how a game is won or lost, or that
// forces play toward it, in one place: chess's insufficient-material draw
// holds exactly when all of it is the zero value (chess's own goal), so a
// new rule declared here switches that draw off without another edit.
type Goal struct {
	// CheckmateValue and StalemateValue are the results for the side to move
	// that has no legal move, in check or not (defaults: loss, draw).
	CheckmateValue, StalemateValue Value
	// ShatarShak, when set, switches on shatar's mate rules (shatar.go):
	// the letters of the pieces whose check is a shak.
	ShatarShak []byte
	// StalematePieceCount: a stalemate is decided by the pieces left: the
	// side with fewer gets StalemateValue, equal numbers draw (suicide).
	StalematePieceCount bool
	// ExtinctionValue, when set, is the result for a side that has no piece
	// left of one of ExtinctionTypes (letters; '*' means all pieces together).
	ExtinctionValue Value
	ExtinctionTypes []byte
	// ExtinctionCount is how many pieces of an extinction type a side
	// may keep and still be extinct (Three Kings: two of its three
	// kings left loses); 0 means none left.
	ExtinctionCount int
	// ExtinctionOpponentCount: the extinction counts only while the
	// opponent holds at least this many of the type (koedem: both kings).
	ExtinctionOpponentCount int
	// BareKingValue, when set, is the result for a side left with nothing
	// but royal pieces. With BareKingMove the bared side first gets one
	// move, and bares the opponent in return for a draw.
	BareKingValue Value
	BareKingMove  bool
	// FlagPiece (a letter) wins on reaching its side's FlagRegion. With
	// FlagMove Black gets one more move after White arrives, and a draw if
	// it arrives too.
	FlagPiece  byte
	FlagRegion [2]SquareSet
	FlagMove   bool
	// FlagSurvive: a flag piece wins only once it has stood in its region
	// through the opponent's reply, whoever arrived (Jeson Mor; Fairy-
	// Stockfish 11.1's flagMove); White's arrival answered by Black's
	// draws.
	FlagSurvive bool
	// CheckCounting, when positive, is the number of checks that wins; the
	// FEN carries the checks each side still needs ("3+3").
	CheckCounting int
	// PerpetualCheckIllegal: when a position repeats by the repetition
	// rule and one side gave check with every move of the cycle, that
	// side loses instead of the draw (shogi).
	PerpetualCheckIllegal bool
	// Bikjang (janggi): when the royal pieces face each other on an open
	// line, the side to move must break the face-off or pass (even in
	// check); a face-off that stands two positions running ends the game,
	// as do two passes running, drawn or by MaterialPoints.
	Bikjang bool
	// MaterialPoints, when set, decide the games the rules would draw
	// (repetition, the n-move rule, bikjang, two passes) by points per
	// piece letter: White wins with more than one point more than Black
	// (janggi's 1.5-point komi), else Black.
	MaterialPoints map[byte]int
	// Counting limits how long an ending may take (Makruk); CountingKhon
	// is the letter of the piece its limits call the khon.
	Counting     CountingRule
	CountingKhon byte
	// CountingMet is the letter of the piece AseanCounting calls the met.
	CountingMet byte
	// MustCapture makes captures compulsory when any is legal.
	MustCapture bool
	// BlastOnCapture: a capture removes the capturer and every non-pawn
	// piece on the eight squares around; royal pieces cannot capture, and a
	// side whose royal piece is blown up loses.
	BlastOnCapture bool
}

// Variant is a checked, ready-to-play set of rules with its precomputed
// tables. It is immutable once built and may be shared between goroutines.
type Variant struct {
	Rules

	typeByLetter [256]uint8 // uppercase letter → type index, 0 = none
	promoTypes   []uint8    // type indices pawns may promote to
	pawnTypes    uint64     // piece-code set of RolePawn pieces
	royalTypes   uint64     // piece-code set of royal pieces
	castleKing   uint8      // type index of the castling king
	castleRook   uint8      // type index of the castling rook
	missileType  uint8      // type index of the missile, 0 = none
	flagType     uint8      // type index of the flag piece, 0 = none
	extinction   uint64     // piece-code set whose extinction ends the game
	extinctAll   bool       // extinction of all pieces ends the game
	promoLimit   [MaxPieceTypes + 1]int
	// dropSquares[pc] are the squares piece pc may be dropped on when
	// empty (a pawn: not on its first rank or in its promotion zone
	// unless the rules allow it); nil without drops.
	dropSquares [64][]Square
	handPawn    uint8 // type a pawn promoted with a ~ mark in a FEN was
	noDoubled   uint8 // type index of DropNoDoubled, 0 = none
	// doubledImpossible: the noDoubled piece never leaves its file, so
	// two of a side's on one file could only come from a forbidden drop.
	doubledImpossible bool
	dropMate          uint8 // type index of DropMateIllegal, 0 = none
	// countingKhon and countingMet are the type indices of CountingKhon
	// and CountingMet, 0 = none.
	countingKhon, countingMet uint8
	// cambodianMet is the type index of CambodianMet, 0 = none.
	cambodianMet uint8
	// points[pc] are MaterialPoints by piece code.
	points [64]int
	// sparesOwn is the piece-code set of SparesOwnKind pieces.
	sparesOwn uint64
	// boardSafety: whether a move leaves the mover's royal piece safe
	// depends on the board alone (no blasts, check bans or royal choices),
	// so it can be tested without making the move.
	boardSafety bool
	// unitRay[dx+1][dy+1] is the index in rays of each of the eight unit
	// steps.
	unitRay [3][3]int
	// unitRays are the eight of them.
	unitRays [8]int
	// kingLines[c][k] are the squares on which a move can change whether
	// colour c attacks a royal piece on k, kingLegs[c][k] those of them
	// on blockable leaps (buildKingLines; for legalByMaking; nil for a
	// colour whose attacks the pin analysis handles).
	kingLines, kingLegs [2][]SquareSet
	// unitLines: every line an attack follows is a unit step's (no
	// nightrider), so the line from a square through another is unitRay's.
	unitLines bool
	// promotesTo[t] is the type piece type t promotes to by
	// PiecePromotion (0: none).
	promotesTo [MaxPieceTypes + 1]uint8
	// immobile[pc] are the squares piece pc has no move from on an empty
	// board (with ImmobilityIllegal; nil otherwise).
	immobile [64]*SquareSet
	// pieceRules: piece promotions or immobility shape the moves (push).
	pieceRules bool
	// gateTypes are the gating pieces (those in hand at the start and,
	// when captures go to the hand, every piece that may enter a back
	// rank from it), by the index a move's gate bits give less one.
	gateTypes []uint8
	// gateBits[t] are the gate bits (gateBit) of the squares piece type t
	// may gate on: those it may be dropped on (not a pawn's first rank).
	gateBits [MaxPieceTypes + 1]uint32
	// special is set when a rule beyond royal safety decides legality, so
	// the pin-based fast path does not apply.
	special bool
	// immediateEnds is set when a variant rule can end the game in a
	// position that still has moves (extinction, flags, checks, blasts).
	immediateEnds bool
	// insufficientMaterial: the chess draw with too little material to
	// mate applies, because the goal is chess's.
	insufficientMaterial bool
	neighbours           [NumSquares][]Square
	startNonPawns        int // non-pawn pieces in the start position (missiles)
	// startRoyals are each colour's royal pieces in the start position,
	// and pawnFloor the lowest rank (counted from the colour's own side)
	// its pawns may stand on: what a legal position keeps (checkLegal).
	// Zero, no constraint, while the start position itself is parsed.
	startRoyals [2]int
	pawnFloor   [2]int
	// startTypes counts each piece type in the start position, both
	// colours, on the board and in hand; startHand is each colour's hand
	// there. With hands, a legal position never holds more of a type
	// (a captured piece changes sides, a promoted one goes back to hand
	// as what it was); without captures to hand, a hand only empties.
	startTypes [MaxPieceTypes + 1]int
	startHand  [2][MaxPieceTypes + 1]int
	startKnown bool

	moves   [64][]squareMoves // by piece code, then square
	attacks [2]attackTables   // by attacking colour
	rays    [][NumSquares][]Square
	// simpleAttacks[c]: colour c attacks only by leaps and unlimited rides,
	// so a pinned-piece analysis finds every discovered attack.
	simpleAttacks [2]bool
	// castles are the castling rules of positions outside Chess960 (and
	// the default of those in it).
	castles *castlingSet
	onBoard SquareSet
	zobrist zobristKeys
	small   *smallBoard // bit masks for counting mobility, on boards of at most 64 squares
	// squareBit is each square's small-board bit (all zero on bigger
	// boards), so positions keep their occupancy masks without a test.
	squareBit [NumSquares]uint64
}

// ErrStartPosition marks NewVariant's errors about Rules.StartFEN, so that
// a variant file can name the line that gave the start position.
var ErrStartPosition = errors.New("start position")

// NewVariant checks the rules and builds the variant's tables. The error
// names the first problem found (not the variant: callers know it); one
// about the start position wraps ErrStartPosition. The start position
// passes every check a FEN given later passes (ParseFEN's), and each
// side in it has a royal piece if the variant has any (checkStartRoyals).
func NewVariant(r Rules) (*Variant, error) {
	v := &Variant{Rules: r}
	if err := v.check(); err != nil {
		return nil, err
	}
	v.buildTables()
	v.doubledImpossible = v.noDoubled != 0 &&
		v.staysOnFile(MakePiece(int(v.noDoubled), White)) && v.staysOnFile(MakePiece(int(v.noDoubled), Black))
	v.buildImmobile()
	v.buildDropSquares()
	v.zobrist = newZobristKeys()
	if v.Gating {
		if err := v.findGateTypes(); err != nil {
			return nil, err
		}
	}
	start, err := v.ParseFEN(r.StartFEN)
	if err == nil {
		err = start.checkStartRoyals()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStartPosition, err)
	}
	for c := White; c <= Black; c++ {
		v.startRoyals[c] = int(start.royals[c])
		v.pawnFloor[c] = v.Height
		for _, s := range start.Pieces(c) {
			if v.pawnTypes>>start.board[s]&1 == 0 {
				v.startNonPawns++
			} else {
				v.pawnFloor[c] = min(v.pawnFloor[c], v.relativeRank(s, c))
			}
		}
		// Pawns never stand on their own first rank unless they start
		// there (horde) or are dropped there (chessgi); a variant
		// without pawns at the start sets none.
		v.pawnFloor[c] = min(v.pawnFloor[c], 1)
		if !start.hasPawns(c) || v.PieceDrops && v.FirstRankPawnDrops {
			v.pawnFloor[c] = 0
		}
		for t := 1; t <= len(v.Pieces); t++ {
			v.startHand[c][t] = start.InHand(c, t)
		}
	}
	v.startTypes = start.originalTypes()
	v.startKnown = true
	return v, nil
}

// findGateTypes finds the gating pieces: those in the start position's
// holdings (read before the start position can be: its castling field
// holds gate rights only for a side holding a gating piece) and, when
// captured pieces go to the hand (S-House), every other piece that could
// enter on a back-rank square, as Fairy-Stockfish gates whatever is in
// hand where it could be dropped.
func (v *Variant) findGateTypes() error {
	board, _, _ := strings.Cut(v.StartFEN, " ")
	_, holdings, err := v.splitHoldings(board)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStartPosition, err)
	}
	var held [MaxPieceTypes + 1]bool
	for i := 0; i < len(holdings); i++ {
		held[v.TypeByLetter(holdings[i])] = true
	}
	for t := 1; t <= len(v.Pieces); t++ {
		for c := White; c <= Black; c++ {
			pc := MakePiece(t, c)
			for f := 0; f < v.Width; f++ {
				if s := SquareAt(f, v.backRank(c)); v.mayDropOn(pc, s) {
					v.gateBits[t] |= v.gateBit(s)
				}
			}
		}
		mayHold := held[t] || v.CapturesToHand && !v.Pieces[t-1].Royal
		if mayHold && v.gateBits[t] != 0 {
			v.gateTypes = append(v.gateTypes, uint8(t))
		}
	}
	switch {
	case len(v.gateTypes) == 0:
		return errors.New("gating: no piece can gate: the start position's hand holds none (or none may enter the back rank)")
	case len(v.gateTypes) > MaxGateTypes:
		return fmt.Errorf("gating: %d kinds of piece could gate, at most %d", len(v.gateTypes), MaxGateTypes)
	}
	return nil
}

// buildImmobile finds, with ImmobilityIllegal, the squares each piece
// could never move from.
func (v *Variant) buildImmobile() {
	if !v.ImmobilityIllegal {
		return
	}
	for t := 1; t <= len(v.Pieces); t++ {
		for _, c := range []Colour{White, Black} {
			pc := MakePiece(t, c)
			set := &SquareSet{}
			for r := 0; r < v.Height; r++ {
				for f := 0; f < v.Width; f++ {
					if s := SquareAt(f, r); v.moves[pc][s].empty() {
						set.Add(s)
					}
				}
			}
			v.immobile[pc] = set
		}
	}
}

// staysOnFile reports whether piece pc never leaves its file: every move
// it has, from every square, keeps the file.
func (v *Variant) staysOnFile(pc Piece) bool {
	for s, sm := range v.moves[pc] {
		from := Square(s).File()
		for _, list := range [][]Square{sm.quiet, sm.both, sm.capt} {
			for _, t := range list {
				if t.File() != from {
					return false
				}
			}
		}
		for _, r := range sm.rays {
			for _, t := range r.squares {
				if t.File() != from {
					return false
				}
			}
		}
		if len(sm.lame) > 0 || len(sm.hops) > 0 {
			return false
		}
	}
	return true
}

// isImmobile reports whether piece pc on s could never move again (and
// the rules forbid leaving it there).
func (v *Variant) isImmobile(pc Piece, s Square) bool {
	return v.immobile[pc] != nil && v.immobile[pc].Has(s)
}

// buildDropSquares finds where each piece may be dropped.
func (v *Variant) buildDropSquares() {
	if !v.PieceDrops {
		return
	}
	for t := 1; t <= len(v.Pieces); t++ {
		for _, c := range []Colour{White, Black} {
			pc := MakePiece(t, c)
			for r := 0; r < v.Height; r++ {
				for f := 0; f < v.Width; f++ {
					if s := SquareAt(f, r); v.mayDropOn(pc, s) {
						v.dropSquares[pc] = append(v.dropSquares[pc], s)
					}
				}
			}
		}
	}
}

// mayDropOn reports whether the rules let piece pc enter on square s from
// the hand (by a drop, or by gating): a pawn not on its first rank or in
// its promotion zone unless the rules allow it, no piece where it could
// never move from, every piece in its region.
func (v *Variant) mayDropOn(pc Piece, s Square) bool {
	c, t := pc.Colour(), pc.Type()
	if v.pawnTypes>>pc&1 != 0 && ((!v.FirstRankPawnDrops && v.relativeRank(s, c) == 0) ||
		(!v.PromotionZonePawnDrops && v.PromotionZone[c].Has(s))) || v.isImmobile(pc, s) {
		return false
	}
	if v.RookDropsOnFirstRank && v.Pieces[t-1].Role == RoleRook && v.relativeRank(s, c) != 0 {
		return false
	}
	region := v.Pieces[t-1].Region
	return (region == nil || region[c].Has(s)) && (v.DropRegion == nil || v.DropRegion[c].Has(s))
}

func (v *Variant) check() error {
	if v.Width < 1 || v.Width > MaxSize || v.Height < 1 || v.Height > MaxSize {
		return fmt.Errorf("board %dx%d: width and height must be 1 to %d", v.Width, v.Height, MaxSize)
	}
	if len(v.Pieces) == 0 {
		return errors.New("no piece types")
	}
	if len(v.Pieces) > MaxPieceTypes {
		return fmt.Errorf("%d piece types: at most %d", len(v.Pieces), MaxPieceTypes)
	}
	for f := 0; f < v.Width; f++ {
		for r := 0; r < v.Height; r++ {
			v.onBoard.Add(SquareAt(f, r))
		}
	}
	for i, pt := range v.Pieces {
		l := pt.Letter
		if l < 'A' || l > 'Z' {
			return fmt.Errorf("piece %q: letter %q is not an uppercase letter", pt.Name, l)
		}
		if v.typeByLetter[l] != 0 {
			return fmt.Errorf("piece letter %c used twice", l)
		}
		v.typeByLetter[l] = uint8(i + 1)
		for _, c := range []Colour{White, Black} {
			code := uint64(1) << MakePiece(i+1, c)
			if pt.Role == RolePawn {
				v.pawnTypes |= code
			}
			if pt.Royal {
				v.royalTypes |= code
			}
			if pt.SparesOwnKind {
				v.sparesOwn |= code
			}
		}
		for _, a := range pt.Atoms {
			if err := checkAtom(a); err != nil {
				return fmt.Errorf("piece %q: %w", pt.Name, err)
			}
			if pt.Region != nil && (a.Kind == Hop || a.Kind == Cannon) {
				return fmt.Errorf("piece %q: a piece confined to a region cannot hop", pt.Name)
			}
		}
	}
	for _, l := range v.PromotionTypes {
		t := v.typeByLetter[l]
		if t == 0 {
			return fmt.Errorf("promotion piece %c is not defined", l)
		}
		v.promoTypes = append(v.promoTypes, t)
	}
	if len(v.Castling) > MaxCastlingRules {
		return fmt.Errorf("%d castling rules: at most %d", len(v.Castling), MaxCastlingRules)
	}
	if len(v.Castling) > 0 {
		v.castleKing = v.typeByLetter[v.CastlingKing]
		v.castleRook = v.typeByLetter[v.CastlingRook]
		if v.castleKing == 0 || v.castleRook == 0 {
			return fmt.Errorf("castling pieces %q and %q must both be defined", v.CastlingKing, v.CastlingRook)
		}
	}
	if err := v.checkEndRules(); err != nil {
		return err
	}
	for _, c := range v.Castling {
		for _, s := range []Square{c.KingFrom, c.KingTo, c.RookFrom, c.RookTo} {
			if !v.onBoard.Has(s) {
				return fmt.Errorf("castling rule %c: square %v is off the board", c.Letter, s)
			}
		}
		if c.KingFrom.Rank() != c.RookFrom.Rank() || c.KingTo.Rank() != c.KingFrom.Rank() || c.RookTo.Rank() != c.KingFrom.Rank() {
			return fmt.Errorf("castling rule %c: king and rook must stay on one rank", c.Letter)
		}
	}
	v.castles = newCastlingSet(v.Castling)
	return nil
}

// checkEndRules resolves the letters of the game-end rules and derives the
// fast-path flags.
func (v *Variant) checkEndRules() error {
	letter := func(what string, l byte) (uint8, error) {
		if l == 0 {
			return 0, nil
		}
		t := v.TypeByLetter(l)
		if t == 0 {
			return 0, fmt.Errorf("%s piece %q is not defined", what, l)
		}
		return uint8(t), nil
	}
	var err error
	if v.missileType, err = letter("missile", v.Missile); err != nil {
		return err
	}
	if v.flagType, err = letter("flag", v.FlagPiece); err != nil {
		return err
	}
	for _, l := range v.ExtinctionTypes {
		if l == '*' {
			v.extinctAll = true
			continue
		}
		t, err := letter("extinction", l)
		if err != nil {
			return err
		}
		v.extinction |= 1<<MakePiece(int(t), White) | 1<<MakePiece(int(t), Black)
	}
	if v.noDoubled, err = letter("no-doubled drop", v.DropNoDoubled); err != nil {
		return err
	}
	if v.dropMate, err = letter("drop-mate", v.DropMateIllegal); err != nil {
		return err
	}
	if v.cambodianMet, err = letter("cambodian met", v.CambodianMet); err != nil {
		return err
	}
	if v.countingMet, err = letter("counting met", v.CountingMet); err != nil {
		return err
	}
	if v.countingKhon, err = letter("counting khon", v.CountingKhon); err != nil {
		return err
	}
	for from, to := range v.PiecePromotion {
		f, err := letter("promoting", from)
		if err != nil {
			return err
		}
		t, err := letter("promoted", to)
		if err != nil {
			return err
		}
		v.promotesTo[f] = t
	}
	v.pieceRules = len(v.PiecePromotion) > 0 || v.ImmobilityIllegal || v.PieceDemotion
	for i, pt := range v.Pieces {
		if pt.Role == RolePawn && v.handPawn == 0 {
			v.handPawn = uint8(i + 1)
		}
	}
	for l, n := range v.PromotionLimit {
		t, err := letter("promotion-limit", l)
		if err != nil {
			return err
		}
		v.promoLimit[t] = n
	}
	if v.CheckCounting < 0 || v.CheckCounting > MaxCheckCount {
		return fmt.Errorf("check counting %d: must be 0 to %d", v.CheckCounting, MaxCheckCount)
	}
	v.boardSafety = !v.NoChecks && !v.BlastOnCapture && v.RoyalRule == AllRoyal && v.missileType == 0
	v.special = !v.boardSafety || v.FlyingGeneral || v.Bikjang || v.KingPass
	for l, n := range v.MaterialPoints {
		t, err := letter("material-counting", l)
		if err != nil {
			return err
		}
		v.points[MakePiece(int(t), White)], v.points[MakePiece(int(t), Black)] = n, n
	}
	// With hands, material is never insufficient while any can be
	// dropped; the draw is left out rather than counted with the hands.
	v.insufficientMaterial = reflect.ValueOf(v.Goal).IsZero() && !v.HasHands()
	v.immediateEnds = v.ExtinctionValue != NoValue || v.BareKingValue != NoValue || v.flagType != 0 ||
		v.CheckCounting > 0 || v.BlastOnCapture || v.Bikjang || v.KingPass
	for s := 0; s < NumSquares; s++ {
		sq := Square(s)
		if !v.onBoard.Has(sq) {
			continue
		}
		for _, d := range unitSteps() {
			if t, ok := v.step(sq, d); ok {
				v.neighbours[s] = append(v.neighbours[s], t)
			}
		}
	}
	return nil
}

func checkAtom(a Atom) error {
	if len(a.Vectors) == 0 {
		return errors.New("atom without vectors")
	}
	if a.MoveOnly && a.CaptureOnly {
		return errors.New("atom both move-only and capture-only")
	}
	if a.Range < 0 {
		return fmt.Errorf("negative range %d", a.Range)
	}
	for _, vec := range a.Vectors {
		if vec.DX == 0 && vec.DY == 0 {
			return errors.New("null vector")
		}
		if abs(vec.DX) >= MaxSize || abs(vec.DY) >= MaxSize {
			return fmt.Errorf("vector (%d,%d) is longer than any board", vec.DX, vec.DY)
		}
	}
	return nil
}

// TypeByLetter returns the 1-based type index of the piece with the given
// FEN letter (either case), or 0 when the variant has none.
func (v *Variant) TypeByLetter(l byte) int {
	if l >= 'a' && l <= 'z' {
		l -= 'a' - 'A'
	}
	return int(v.typeByLetter[l])
}

// PieceType returns the definition of a piece's type. p must not be empty.
func (v *Variant) PieceType(p Piece) *PieceType { return &v.Pieces[p.Type()-1] }

// IsPawn reports whether p is a pawn (its type's role is RolePawn).
func (v *Variant) IsPawn(p Piece) bool { return v.pawnTypes>>p&1 != 0 }

// OnBoard reports whether s is a square of this variant's board.
func (v *Variant) OnBoard(s Square) bool { return v.onBoard.Has(s) }

// pieceLetter returns the FEN letter of p: uppercase for White.
func (v *Variant) pieceLetter(p Piece) byte {
	l := v.Pieces[p.Type()-1].Letter
	if p.Colour() == Black {
		l += 'a' - 'A'
	}
	return l
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// relativeRank returns the rank of s counted from colour c's own side
// (0 is White's first rank for White, Black's first rank for Black).
func (v *Variant) relativeRank(s Square, c Colour) int {
	if c == Black {
		return v.Height - 1 - s.Rank()
	}
	return s.Rank()
}

// hasPawns reports whether colour c has a pawn on the board.
func (p *Position) hasPawns(c Colour) bool {
	for _, s := range p.Pieces(c) {
		if p.v.pawnTypes>>p.board[s]&1 != 0 {
			return true
		}
	}
	return false
}
