package variants

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// spec is one variant as a file describes it, in Fairy-Stockfish's terms,
// before it is turned into engine rules. A child section starts from a copy
// of its parent's spec.
type spec struct {
	name, description string
	// aliasOf is the variant this one is under another name: a section
	// that sets nothing but its description is its parent (or what its
	// parent is an alias of); empty for a variant of its own.
	aliasOf string
	file    string // where it was defined, for error messages
	line    int

	files, ranks int
	startFEN     string
	// startFENFrom is the section that set startFEN ("chess" for the
	// default), to tell an inherited start position from a given one;
	// startFENLine is the line of its file that did, where errors about
	// it are reported.
	startFENFrom string
	startFENLine int
	pieces       []pieceSpec

	// rules holds every rule that a key sets directly (the keys table
	// points into it), so a new engine rule needs one line in keys().
	rules engine.Rules

	// Keys that depend on the board size or the piece list, kept as text
	// until the spec is built (a child may change maxRank after them).
	promotionRegion       [2]string
	doubleStep            bool
	doubleStepRegion      [2]string
	tripleStepRegion      [2]string
	enPassantRegion       string
	dropRegion            [2]string
	flagRegion            [2]string
	extinctionPseudoRoyal bool
	// shogiNoDoubledPawn and shogiPawnDropMateIllegal name the shogi
	// pawn's rules (Fairy-Stockfish's shogiDoubledPawn = false and
	// shogiPawnDropMateIllegal); the build finds the pawn's letter.
	shogiNoDoubledPawn, shogiPawnDropMateIllegal bool
	// shatarMateRule names shatar's mate rules; the build finds the
	// letters of knight, rook and bers, whose checks are shaks.
	shatarMateRule bool
	// mobilityRegion holds each piece's mobilityRegionWhite…/Black… text
	// by piece key; a setter replaces the map whole (clone shares it).
	mobilityRegion map[string][2]string
	// diagonalLines is the janggi palace diagonals' region text;
	// materialCounting is its value ("janggi" or "").
	diagonalLines, materialCounting string
	// soldierRank is the rank (1-based, from the soldier's side) from which
	// the xiangqi soldier also steps sideways (soldierPromotionRank).
	soldierRank int
	royal       string
	pieceValues string // letter:value list
	pieceNames  string // letter:name list

	castling                          bool
	castlingKingsideFile              int
	castlingQueensideFile             int
	castlingRank                      int
	castlingRookKingsideFile          int // -1: the last file
	castlingRookQueensideFile         int
	castlingKingPiece, castlingRookPc byte
}

// pieceSpec is one piece type of a spec.
type pieceSpec struct {
	key    string // the file's key: "knight", "customPiece1"
	name   string // the name pieceNames gives it, if any
	letter byte   // lowercase FEN letter
	betza  string
	role   engine.Role
	value  int
	custom bool // movement given in the file, not the predefined default
}

// chessSpec is the default every section starts from: FIDE chess, as in
// Fairy-Stockfish.
func chessSpec() *spec {
	s := &spec{
		name: "chess", files: 8, ranks: 8, startFEN: ChessFEN, startFENFrom: "chess", doubleStep: true, soldierRank: 1,
		rules:    engine.Rules{PromotionTypes: []byte("QRBN"), MoveRule: 50, RepetitionRule: 3},
		castling: true, castlingKingsideFile: 6, castlingQueensideFile: 2, castlingRank: 1,
		castlingRookKingsideFile: -1, castlingRookQueensideFile: 0,
		castlingKingPiece: 'k', castlingRookPc: 'r',
	}
	for _, key := range []string{"pawn", "knight", "bishop", "rook", "queen", "king"} {
		p, _ := findPredefined(key)
		s.pieces = append(s.pieces, pieceSpec{key: key, letter: key[0], betza: p.betza, role: p.role, value: p.value})
	}
	s.pieces[1].letter = 'n'
	return s
}

// clone returns a deep copy for a child section. The slices and the map in
// rules are replaced whole by their setters, never changed in place, so
// sharing them with the parent is safe.
func (s *spec) clone() *spec {
	c := *s
	c.pieces = append([]pieceSpec(nil), s.pieces...)
	return &c
}

// setter applies one key's value to a spec.
type setter func(s *spec, value string) error

// keys maps every accepted key to its setter. Keys marked "Chimera" in the
// README are extensions of Fairy-Stockfish's format.
func keys() map[string]setter {
	return map[string]setter{
		"description":                  func(s *spec, v string) error { s.description = v; return nil },
		"maxRank":                      intSetter(func(s *spec) *int { return &s.ranks }, 1, engine.MaxSize),
		"maxFile":                      fileCountSetter,
		"startFen":                     startFENSetter,
		"pieceToCharTable":             func(*spec, string) error { return nil }, // display only
		"promotionRegionWhite":         regionSetter(func(s *spec) *string { return &s.promotionRegion[0] }),
		"promotionRegionBlack":         regionSetter(func(s *spec) *string { return &s.promotionRegion[1] }),
		"promotionPieceTypes":          ruleLettersSetter(func(r *engine.Rules) *[]byte { return &r.PromotionTypes }),
		"mandatoryPawnPromotion":       negatedSetter(func(r *engine.Rules) *bool { return &r.OptionalPromotion }),
		"promotionLimit":               promotionLimitSetter,
		"doubleStep":                   boolSetter(func(s *spec) *bool { return &s.doubleStep }),
		"doubleStepRegionWhite":        regionSetter(func(s *spec) *string { return &s.doubleStepRegion[0] }),
		"doubleStepRegionBlack":        regionSetter(func(s *spec) *string { return &s.doubleStepRegion[1] }),
		"tripleStepRegionWhite":        regionSetter(func(s *spec) *string { return &s.tripleStepRegion[0] }),
		"tripleStepRegionBlack":        regionSetter(func(s *spec) *string { return &s.tripleStepRegion[1] }),
		"enPassantRegion":              regionSetter(func(s *spec) *string { return &s.enPassantRegion }),
		"whiteDropRegion":              regionSetter(func(s *spec) *string { return &s.dropRegion[0] }),
		"blackDropRegion":              regionSetter(func(s *spec) *string { return &s.dropRegion[1] }),
		"dropRegionWhite":              regionSetter(func(s *spec) *string { return &s.dropRegion[0] }),
		"dropRegionBlack":              regionSetter(func(s *spec) *string { return &s.dropRegion[1] }),
		"doubleStepEnPassantOnly":      ruleBoolSetter(func(r *engine.Rules) *bool { return &r.EnPassantDoubleStepOnly }),
		"castling":                     boolSetter(func(s *spec) *bool { return &s.castling }),
		"chess960":                     ruleBoolSetter(func(r *engine.Rules) *bool { return &r.Chess960 }),
		"pieceDrops":                   ruleBoolSetter(func(r *engine.Rules) *bool { return &r.PieceDrops }),
		"capturesToHand":               ruleBoolSetter(func(r *engine.Rules) *bool { return &r.CapturesToHand }),
		"firstRankPawnDrops":           ruleBoolSetter(func(r *engine.Rules) *bool { return &r.FirstRankPawnDrops }),
		"promotionZonePawnDrops":       ruleBoolSetter(func(r *engine.Rules) *bool { return &r.PromotionZonePawnDrops }),
		"dropNoDoubled":                ruleLetterSetter(func(r *engine.Rules) *byte { return &r.DropNoDoubled }),
		"shogiDoubledPawn":             negatedBoolSetter(func(s *spec) *bool { return &s.shogiNoDoubledPawn }),
		"shogiPawnDropMateIllegal":     boolSetter(func(s *spec) *bool { return &s.shogiPawnDropMateIllegal }),
		"immobilityIllegal":            ruleBoolSetter(func(r *engine.Rules) *bool { return &r.ImmobilityIllegal }),
		"perpetualCheckIllegal":        ruleBoolSetter(func(r *engine.Rules) *bool { return &r.PerpetualCheckIllegal }),
		"flyingGeneral":                ruleBoolSetter(func(r *engine.Rules) *bool { return &r.FlyingGeneral }),
		"countingRule":                 countingRuleSetter,
		"diagonalLines":                regionSetter(func(s *spec) *string { return &s.diagonalLines }),
		"kingPass":                     ruleBoolSetter(func(r *engine.Rules) *bool { return &r.KingPass }),
		"bikjangRule":                  ruleBoolSetter(func(r *engine.Rules) *bool { return &r.Bikjang }),
		"materialCounting":             materialCountingSetter,
		"soldierPromotionRank":         intSetter(func(s *spec) *int { return &s.soldierRank }, 1, engine.MaxSize),
		"gating":                       ruleBoolSetter(func(r *engine.Rules) *bool { return &r.Gating }),
		"dropChecks":                   negatedSetter(func(r *engine.Rules) *bool { return &r.NoDropChecks }),
		"seirawanGating":               ruleBoolSetter(func(r *engine.Rules) *bool { return &r.Gating }),
		"promotedPieceType":            piecePromotionSetter,
		"castlingKingsideFile":         fileSetter(func(s *spec) *int { return &s.castlingKingsideFile }),
		"castlingQueensideFile":        fileSetter(func(s *spec) *int { return &s.castlingQueensideFile }),
		"castlingRookKingsideFile":     fileSetter(func(s *spec) *int { return &s.castlingRookKingsideFile }),
		"castlingRookQueensideFile":    fileSetter(func(s *spec) *int { return &s.castlingRookQueensideFile }),
		"castlingRank":                 intSetter(func(s *spec) *int { return &s.castlingRank }, 1, engine.MaxSize),
		"castlingKingPiece":            letterSetter(func(s *spec) *byte { return &s.castlingKingPiece }),
		"castlingRookPiece":            letterSetter(func(s *spec) *byte { return &s.castlingRookPc }),
		"checkmateValue":               valueSetter(func(r *engine.Rules) *engine.Value { return &r.CheckmateValue }),
		"stalemateValue":               valueSetter(func(r *engine.Rules) *engine.Value { return &r.StalemateValue }),
		"extinctionValue":              valueSetter(func(r *engine.Rules) *engine.Value { return &r.ExtinctionValue }),
		"extinctionPieceTypes":         ruleLettersSetter(func(r *engine.Rules) *[]byte { return &r.ExtinctionTypes }),
		"extinctionPseudoRoyal":        boolSetter(func(s *spec) *bool { return &s.extinctionPseudoRoyal }),
		"bareKingValue":                valueSetter(func(r *engine.Rules) *engine.Value { return &r.BareKingValue }),
		"bareKingMove":                 ruleBoolSetter(func(r *engine.Rules) *bool { return &r.BareKingMove }),
		"flagPiece":                    ruleLetterSetter(func(r *engine.Rules) *byte { return &r.FlagPiece }),
		"flagRegionWhite":              regionSetter(func(s *spec) *string { return &s.flagRegion[0] }),
		"flagRegionBlack":              regionSetter(func(s *spec) *string { return &s.flagRegion[1] }),
		"flagMove":                     ruleBoolSetter(func(r *engine.Rules) *bool { return &r.FlagMove }),
		"flagSurvive":                  ruleBoolSetter(func(r *engine.Rules) *bool { return &r.FlagSurvive }),
		"extinctionPieceCount":         intSetter(func(s *spec) *int { return &s.rules.ExtinctionCount }, 0, engine.MaxSize*engine.MaxSize),
		"extinctionOpponentPieceCount": intSetter(func(s *spec) *int { return &s.rules.ExtinctionOpponentCount }, 0, engine.MaxSize*engine.MaxSize),
		"stalematePieceCount":          ruleBoolSetter(func(r *engine.Rules) *bool { return &r.StalematePieceCount }),
		"makpongRule":                  ruleBoolSetter(func(r *engine.Rules) *bool { return &r.KingStaysInCheck }),
		"mandatoryPiecePromotion":      ruleBoolSetter(func(r *engine.Rules) *bool { return &r.MandatoryPiecePromotion }),
		"pieceDemotion":                ruleBoolSetter(func(r *engine.Rules) *bool { return &r.PieceDemotion }),
		"piecePromotionOnCapture":      ruleBoolSetter(func(r *engine.Rules) *bool { return &r.PiecePromotionOnCapture }),
		"dropPromoted":                 ruleBoolSetter(func(r *engine.Rules) *bool { return &r.DropPromoted }),
		"shatarMateRule":               boolSetter(func(s *spec) *bool { return &s.shatarMateRule }),
		"cambodianMoves":               ruleBoolSetter(func(r *engine.Rules) *bool { return &r.CambodianMoves }),
		"sittuyinPromotion":            ruleBoolSetter(func(r *engine.Rules) *bool { return &r.SittuyinPromotion }),
		"sittuyinRookDrop":             ruleBoolSetter(func(r *engine.Rules) *bool { return &r.RookDropsOnFirstRank }),
		"mustDrop":                     ruleBoolSetter(func(r *engine.Rules) *bool { return &r.MustDrop }),
		"mustDropType":                 ruleLetterSetter(func(r *engine.Rules) *byte { return &r.MustDropType }),
		"dropOppositeColoredBishop":    ruleBoolSetter(func(r *engine.Rules) *bool { return &r.DropBishopsOnBothColours }),
		"castlingDroppedPiece":         ruleBoolSetter(func(r *engine.Rules) *bool { return &r.CastlingDroppedPiece }),
		"dropLoop":                     ruleBoolSetter(func(r *engine.Rules) *bool { return &r.DropLoop }),
		"twoBoards":                    ruleBoolSetter(func(r *engine.Rules) *bool { return &r.TwoBoards }),
		"checkCounting":                checkCountingSetter,
		"checking":                     negatedSetter(func(r *engine.Rules) *bool { return &r.NoChecks }),
		"mustCapture":                  ruleBoolSetter(func(r *engine.Rules) *bool { return &r.MustCapture }),
		"blastOnCapture":               ruleBoolSetter(func(r *engine.Rules) *bool { return &r.BlastOnCapture }),
		"nMoveRule":                    intSetter(func(s *spec) *int { return &s.rules.MoveRule }, 0, 1000),
		"nFoldRule":                    intSetter(func(s *spec) *int { return &s.rules.RepetitionRule }, 0, 1000),
		"royalRule":                    royalRuleSetter,
		"royalPieces":                  lettersSetter(func(s *spec) *string { return &s.royal }),
		"missilePiece":                 ruleLetterSetter(func(r *engine.Rules) *byte { return &r.Missile }),
		"pieceValues": func(s *spec, v string) error {
			if _, err := parseLetterList(v, true); err != nil {
				return err
			}
			s.pieceValues = v
			return nil
		},
		"pieceNames": func(s *spec, v string) error {
			if _, err := parseLetterList(v, false); err != nil {
				return err
			}
			s.pieceNames = v
			return nil
		},
	}
}

// startFENSetter reads startFen, and checks at once what it can without
// the variant (which later keys of the section may still change): the
// side to move and the number of fields, at most six, or seven with a
// check count ("3+3") fifth, as the engine's FEN reader takes them. Thus
// a section that fails for another key, and is not built, still reports
// this. The rest is checked when the variant is built, as any FEN.
func startFENSetter(s *spec, v string) error {
	fields := strings.Fields(v)
	switch {
	case len(fields) < 2:
		return fmt.Errorf("%q needs at least the board and the side to move", v)
	case fields[1] != "w" && fields[1] != "b":
		return fmt.Errorf("%q: side to move %q: want w or b", v, fields[1])
	case len(fields) > 7 || len(fields) == 7 && !strings.Contains(fields[4], "+"):
		return fmt.Errorf("%q has %d fields, at most 6 (7 with a check count such as 3+3 fifth)", v, len(fields))
	}
	s.startFEN, s.startFENFrom = v, s.name
	return nil
}

// mobilityRegionPrefix starts Fairy-Stockfish's keys confining a piece:
// mobilityRegionWhiteKing, mobilityRegionBlackCustomPiece1.
const mobilityRegionPrefix = "mobilityRegion"

// setMobilityRegion reads a mobilityRegion key: the colour and the piece's
// key (capitalised) follow the prefix; the value is a region.
func (s *spec) setMobilityRegion(key, value string) error {
	rest := strings.TrimPrefix(key, mobilityRegionPrefix)
	colour := 0
	switch {
	case strings.HasPrefix(rest, "White"):
		rest = strings.TrimPrefix(rest, "White")
	case strings.HasPrefix(rest, "Black"):
		rest, colour = strings.TrimPrefix(rest, "Black"), 1
	default:
		return fmt.Errorf("%s: want mobilityRegionWhitePiece or mobilityRegionBlackPiece", key)
	}
	if rest == "" {
		return fmt.Errorf("%s: no piece named", key)
	}
	piece := string(lower(rest[0])) + rest[1:]
	if _, ok := findPredefined(piece); !ok && !isCustomPieceKey(piece) {
		return fmt.Errorf("%s: unknown piece %q", key, piece)
	}
	if _, err := parseRegion(value, engine.MaxSize, engine.MaxSize); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	regions := make(map[string][2]string, len(s.mobilityRegion)+1)
	for k, v := range s.mobilityRegion {
		regions[k] = v
	}
	r := regions[piece]
	r[colour] = value
	regions[piece] = r
	s.mobilityRegion = regions
	return nil
}

// ruleBoolSetter sets a true/false rule of the engine directly.
func ruleBoolSetter(field func(*engine.Rules) *bool) setter {
	return boolSetter(func(s *spec) *bool { return field(&s.rules) })
}

// negatedSetter sets an engine rule that is the file key's opposite
// ("checking = false" is NoChecks).
func negatedSetter(field func(*engine.Rules) *bool) setter {
	return negatedBoolSetter(func(s *spec) *bool { return field(&s.rules) })
}

// ruleLetterSetter sets an engine rule naming one piece (uppercase there).
func ruleLetterSetter(field func(*engine.Rules) *byte) setter {
	return func(s *spec, v string) error {
		var l byte
		if err := letterSetter(func(*spec) *byte { return &l })(s, v); err != nil {
			return err
		}
		*field(&s.rules) = upper(l)
		return nil
	}
}

// ruleLettersSetter sets an engine rule naming several pieces.
func ruleLettersSetter(field func(*engine.Rules) *[]byte) setter {
	return func(s *spec, v string) error {
		var letters string
		if err := lettersSetter(func(*spec) *string { return &letters })(s, v); err != nil {
			return err
		}
		*field(&s.rules) = []byte(strings.ToUpper(letters))
		return nil
	}
}

// checkCountingSetter: "checkCounting = true" is three-check.
func checkCountingSetter(s *spec, v string) error {
	var on bool
	if err := boolSetter(func(*spec) *bool { return &on })(s, v); err != nil {
		return err
	}
	s.rules.CheckCounting = 0
	if on {
		s.rules.CheckCounting = 3
	}
	return nil
}

// choiceSetter reads a key whose value is one of a few words, each
// setting the spec its own way.
func choiceSetter(key string, choices map[string]func(*spec)) setter {
	return func(s *spec, v string) error {
		set, ok := choices[v]
		if !ok {
			words := slices.Sorted(maps.Keys(choices))
			return fmt.Errorf("%s %q: want %s", key, v, strings.Join(words, " or "))
		}
		set(s)
		return nil
	}
}

// countingRuleSetter reads countingRule: makruk, asean or none.
var countingRuleSetter = choiceSetter("countingRule", map[string]func(*spec){
	"makruk": func(s *spec) { s.rules.Counting = engine.MakrukCounting },
	"asean":  func(s *spec) { s.rules.Counting = engine.AseanCounting },
	"none":   func(s *spec) { s.rules.Counting = engine.NoCounting },
})

// materialCountingSetter reads materialCounting: janggi or none
// (Fairy-Stockfish's unweighted is not implemented).
var materialCountingSetter = choiceSetter("materialCounting", map[string]func(*spec){
	"janggi": func(s *spec) { s.materialCounting = "janggi" },
	"none":   func(s *spec) { s.materialCounting = "" },
})

// janggiPoints are the points of janggi's material count by piece key,
// as Fairy-Stockfish 11.1 weighs them.
var janggiPoints = map[string]int{"rook": 13, "janggiCannon": 7, "horse": 5, "janggiElephant": 3, "wazir": 3, "soldier": 2}

// royalRuleSetter reads royalRule: all (the default) or leftmost (Two Kings).
var royalRuleSetter = choiceSetter("royalRule", map[string]func(*spec){
	"all":      func(s *spec) { s.rules.RoyalRule = engine.AllRoyal },
	"leftmost": func(s *spec) { s.rules.RoyalRule = engine.LeftmostRoyal },
})

// negatedBoolSetter sets a spec flag that is the file key's opposite.
func negatedBoolSetter(field func(*spec) *bool) setter {
	return func(s *spec, v string) error {
		var b bool
		if err := boolSetter(func(*spec) *bool { return &b })(s, v); err != nil {
			return err
		}
		*field(s) = !b
		return nil
	}
}

// piecePromotionSetter reads "p:g r:d" (each piece and what it promotes
// to, Fairy-Stockfish's promotedPieceType) into the engine's map.
func piecePromotionSetter(s *spec, v string) error {
	s.rules.PiecePromotion = nil
	for _, pair := range strings.Fields(v) {
		from, to, ok := strings.Cut(pair, ":")
		if !ok || len(from) != 1 || len(to) != 1 || !isLetter(from[0]) || !isLetter(to[0]) {
			return fmt.Errorf("promotedPieceType %q: want pairs like p:g", pair)
		}
		if s.rules.PiecePromotion == nil {
			s.rules.PiecePromotion = map[byte]byte{}
		}
		s.rules.PiecePromotion[upper(from[0])] = upper(to[0])
	}
	return nil
}

// promotionLimitSetter reads "q:1 r:2" into the engine's per-letter caps.
func promotionLimitSetter(s *spec, v string) error {
	limits, err := parseLimits(v)
	if err != nil {
		return err
	}
	s.rules.PromotionLimit = nil
	if len(limits) > 0 {
		s.rules.PromotionLimit = map[byte]int{}
		for l, n := range limits {
			s.rules.PromotionLimit[upper(l)] = n
		}
	}
	return nil
}

func boolSetter(field func(*spec) *bool) setter {
	return func(s *spec, v string) error {
		switch v {
		case "true":
			*field(s) = true
		case "false":
			*field(s) = false
		default:
			return fmt.Errorf("%q is not true or false", v)
		}
		return nil
	}
}

func intSetter(field func(*spec) *int, lo, hi int) setter {
	return func(s *spec, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("%q is not a number from %d to %d", v, lo, hi)
		}
		*field(s) = n
		return nil
	}
}

// parseFile reads a file as a letter (a..p) or a 1-based number.
func parseFile(v string) (int, error) {
	if len(v) == 1 && v[0] >= 'a' && v[0] <= 'p' {
		return int(v[0] - 'a'), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > engine.MaxSize {
		return 0, fmt.Errorf("%q is not a file (a to p, or 1 to %d)", v, engine.MaxSize)
	}
	return n - 1, nil
}

func fileSetter(field func(*spec) *int) setter {
	return func(s *spec, v string) error {
		f, err := parseFile(v)
		*field(s) = f
		return err
	}
}

// fileCountSetter reads maxFile: a number of files or the last file's letter.
func fileCountSetter(s *spec, v string) error {
	f, err := parseFile(v)
	s.files = f + 1
	return err
}

func letterSetter(field func(*spec) *byte) setter {
	return func(s *spec, v string) error {
		if len(v) != 1 || !isLetter(v[0]) {
			return fmt.Errorf("%q is not a piece letter", v)
		}
		*field(s) = lower(v[0])
		return nil
	}
}

func lettersSetter(field func(*spec) *string) setter {
	return func(s *spec, v string) error {
		if v == "-" {
			v = "" // Fairy-Stockfish's way of writing none
		}
		for i := 0; i < len(v); i++ {
			if !isLetter(v[i]) && v[i] != '*' {
				return fmt.Errorf("%q: %q is not a piece letter", v, v[i])
			}
		}
		*field(s) = strings.ToLower(v)
		return nil
	}
}

func valueSetter(field func(*engine.Rules) *engine.Value) setter {
	return func(s *spec, v string) error {
		val, ok := map[string]engine.Value{"win": engine.WinValue, "loss": engine.LossValue,
			"draw": engine.DrawValue, "none": engine.NoValue}[v]
		if !ok {
			return fmt.Errorf("%q is not win, loss, draw or none", v)
		}
		*field(&s.rules) = val
		return nil
	}
}

func regionSetter(field func(*spec) *string) setter {
	return func(s *spec, v string) error {
		if _, err := parseRegion(v, engine.MaxSize, engine.MaxSize); err != nil {
			return err
		}
		*field(s) = v
		return nil
	}
}

// parseRegion reads Fairy-Stockfish's region notation for a board: tokens
// "*3" (a rank), "c*" (a file), "e4" (a square) or "*" (everything).
func parseRegion(text string, files, ranks int) (engine.SquareSet, error) {
	var set engine.SquareSet
	for _, tok := range strings.Fields(text) {
		fileAll, rankAll := tok[0] == '*', strings.HasSuffix(tok, "*")
		switch {
		case tok == "*":
			for f := 0; f < files; f++ {
				for r := 0; r < ranks; r++ {
					set.Add(engine.SquareAt(f, r))
				}
			}
		case fileAll:
			r, err := strconv.Atoi(tok[1:])
			if err != nil || r < 1 || r > ranks {
				return set, fmt.Errorf("region %q: bad rank in %q", text, tok)
			}
			set = union(set, engine.RankSet(r-1, files))
		case rankAll && len(tok) == 2:
			f := int(tok[0] - 'a')
			if tok[0] < 'a' || f >= files {
				return set, fmt.Errorf("region %q: bad file in %q", text, tok)
			}
			for r := 0; r < ranks; r++ {
				set.Add(engine.SquareAt(f, r))
			}
		default:
			sq, err := engine.ParseSquare(tok, files, ranks)
			if err != nil {
				return set, fmt.Errorf("region %q: %w", text, err)
			}
			set.Add(sq)
		}
	}
	return set, nil
}

func union(a, b engine.SquareSet) engine.SquareSet {
	for i := range a {
		a[i] |= b[i]
	}
	return a
}

// parseLetterList reads "w:300 c:300" (numbers) or "w:wizard" (names).
func parseLetterList(v string, numbers bool) (map[byte]string, error) {
	out := map[byte]string{}
	for _, tok := range strings.Fields(v) {
		l, val, ok := strings.Cut(tok, ":")
		if !ok || len(l) != 1 || !isLetter(l[0]) || val == "" {
			return nil, fmt.Errorf("%q: want letter:value", tok)
		}
		if n, err := strconv.Atoi(val); numbers && (err != nil || n < 0 || n > 100000) {
			return nil, fmt.Errorf("%q: the value must be a number of centipawns", tok)
		}
		out[lower(l[0])] = val
	}
	return out, nil
}

// parseLimits reads "q:1 r:2" into letter counts.
func parseLimits(v string) (map[byte]int, error) {
	limits := map[byte]int{}
	for _, tok := range strings.Fields(v) {
		l, n, ok := strings.Cut(tok, ":")
		count, err := strconv.Atoi(n)
		if !ok || len(l) != 1 || !isLetter(l[0]) || err != nil || count < 1 {
			return nil, fmt.Errorf("promotion limit %q: want letter:count", tok)
		}
		limits[lower(l[0])] = count
	}
	return limits, nil
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
