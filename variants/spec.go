package variants

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// spec is one variant as a file describes it, in Fairy-Stockfish's terms,
// before it is turned into engine rules. A child section starts from a copy
// of its parent's spec.
type spec struct {
	name, description string
	file              string // where it was defined, for error messages
	line              int

	files, ranks int
	startFEN     string
	pieces       []pieceSpec

	promotionRegion    [2]string
	promotionTypes     string
	mandatoryPromotion bool
	promotionLimit     string
	doubleStep         bool
	doubleStepRegion   [2]string
	tripleStepRegion   [2]string
	enPassantRegion    string
	doubleStepEPOnly   bool

	castling                          bool
	castlingKingsideFile              int
	castlingQueensideFile             int
	castlingRank                      int
	castlingRookKingsideFile          int // -1: the last file
	castlingRookQueensideFile         int
	castlingKingPiece, castlingRookPc byte

	checkmateValue, stalemateValue engine.Value
	extinctionValue, bareKingValue engine.Value
	extinctionTypes                string
	extinctionPseudoRoyal          bool
	bareKingMove                   bool
	flagPiece                      byte
	flagRegion                     [2]string
	flagMove                       bool
	checkCounting                  bool
	checking                       bool
	mustCapture                    bool
	blastOnCapture                 bool
	nMoveRule, nFoldRule           int
	royalRule                      string
	royal                          string
	missile                        byte
	pieceValues, pieceNames        string // letter:value and letter:name lists
}

// pieceSpec is one piece type of a spec.
type pieceSpec struct {
	key    string // the file's key: "knight", "customPiece1"
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
		name: "chess", files: 8, ranks: 8, startFEN: ChessFEN,
		promotionTypes: "qrbn", mandatoryPromotion: true, doubleStep: true,
		castling: true, castlingKingsideFile: 6, castlingQueensideFile: 2, castlingRank: 1,
		castlingRookKingsideFile: -1, castlingRookQueensideFile: 0,
		castlingKingPiece: 'k', castlingRookPc: 'r', checking: true,
		nMoveRule: 50, nFoldRule: 3,
	}
	for _, key := range []string{"pawn", "knight", "bishop", "rook", "queen", "king"} {
		p, _ := findPredefined(key)
		s.pieces = append(s.pieces, pieceSpec{key: key, letter: key[0], betza: p.betza, role: p.role, value: p.value})
	}
	s.pieces[1].letter = 'n'
	return s
}

// clone returns a deep copy for a child section.
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
		"description":               func(s *spec, v string) error { s.description = v; return nil },
		"maxRank":                   intSetter(func(s *spec) *int { return &s.ranks }, 1, engine.MaxSize),
		"maxFile":                   fileCountSetter,
		"startFen":                  func(s *spec, v string) error { s.startFEN = v; return nil },
		"pieceToCharTable":          func(*spec, string) error { return nil }, // display only
		"promotionRegionWhite":      regionSetter(func(s *spec) *string { return &s.promotionRegion[0] }),
		"promotionRegionBlack":      regionSetter(func(s *spec) *string { return &s.promotionRegion[1] }),
		"promotionPieceTypes":       lettersSetter(func(s *spec) *string { return &s.promotionTypes }),
		"mandatoryPawnPromotion":    boolSetter(func(s *spec) *bool { return &s.mandatoryPromotion }),
		"promotionLimit":            func(s *spec, v string) error { s.promotionLimit = v; return checkLimits(v) },
		"doubleStep":                boolSetter(func(s *spec) *bool { return &s.doubleStep }),
		"doubleStepRegionWhite":     regionSetter(func(s *spec) *string { return &s.doubleStepRegion[0] }),
		"doubleStepRegionBlack":     regionSetter(func(s *spec) *string { return &s.doubleStepRegion[1] }),
		"tripleStepRegionWhite":     regionSetter(func(s *spec) *string { return &s.tripleStepRegion[0] }),
		"tripleStepRegionBlack":     regionSetter(func(s *spec) *string { return &s.tripleStepRegion[1] }),
		"enPassantRegion":           regionSetter(func(s *spec) *string { return &s.enPassantRegion }),
		"doubleStepEnPassantOnly":   boolSetter(func(s *spec) *bool { return &s.doubleStepEPOnly }),
		"castling":                  boolSetter(func(s *spec) *bool { return &s.castling }),
		"castlingKingsideFile":      fileSetter(func(s *spec) *int { return &s.castlingKingsideFile }),
		"castlingQueensideFile":     fileSetter(func(s *spec) *int { return &s.castlingQueensideFile }),
		"castlingRookKingsideFile":  fileSetter(func(s *spec) *int { return &s.castlingRookKingsideFile }),
		"castlingRookQueensideFile": fileSetter(func(s *spec) *int { return &s.castlingRookQueensideFile }),
		"castlingRank":              intSetter(func(s *spec) *int { return &s.castlingRank }, 1, engine.MaxSize),
		"castlingKingPiece":         letterSetter(func(s *spec) *byte { return &s.castlingKingPiece }),
		"castlingRookPiece":         letterSetter(func(s *spec) *byte { return &s.castlingRookPc }),
		"checkmateValue":            valueSetter(func(s *spec) *engine.Value { return &s.checkmateValue }),
		"stalemateValue":            valueSetter(func(s *spec) *engine.Value { return &s.stalemateValue }),
		"extinctionValue":           valueSetter(func(s *spec) *engine.Value { return &s.extinctionValue }),
		"extinctionPieceTypes":      lettersSetter(func(s *spec) *string { return &s.extinctionTypes }),
		"extinctionPseudoRoyal":     boolSetter(func(s *spec) *bool { return &s.extinctionPseudoRoyal }),
		"bareKingValue":             valueSetter(func(s *spec) *engine.Value { return &s.bareKingValue }),
		"bareKingMove":              boolSetter(func(s *spec) *bool { return &s.bareKingMove }),
		"flagPiece":                 letterSetter(func(s *spec) *byte { return &s.flagPiece }),
		"flagRegionWhite":           regionSetter(func(s *spec) *string { return &s.flagRegion[0] }),
		"flagRegionBlack":           regionSetter(func(s *spec) *string { return &s.flagRegion[1] }),
		"flagMove":                  boolSetter(func(s *spec) *bool { return &s.flagMove }),
		"checkCounting":             boolSetter(func(s *spec) *bool { return &s.checkCounting }),
		"checking":                  boolSetter(func(s *spec) *bool { return &s.checking }),
		"mustCapture":               boolSetter(func(s *spec) *bool { return &s.mustCapture }),
		"blastOnCapture":            boolSetter(func(s *spec) *bool { return &s.blastOnCapture }),
		"nMoveRule":                 intSetter(func(s *spec) *int { return &s.nMoveRule }, 0, 1000),
		"nFoldRule":                 intSetter(func(s *spec) *int { return &s.nFoldRule }, 0, 1000),
		"royalRule": func(s *spec, v string) error {
			if v != "all" && v != "leftmost" {
				return fmt.Errorf("royalRule %q: want all or leftmost", v)
			}
			s.royalRule = v
			return nil
		},
		"royalPieces":  lettersSetter(func(s *spec) *string { return &s.royal }),
		"missilePiece": letterSetter(func(s *spec) *byte { return &s.missile }),
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
		for i := 0; i < len(v); i++ {
			if !isLetter(v[i]) && v[i] != '*' {
				return fmt.Errorf("%q: %q is not a piece letter", v, v[i])
			}
		}
		*field(s) = strings.ToLower(v)
		return nil
	}
}

func valueSetter(field func(*spec) *engine.Value) setter {
	return func(s *spec, v string) error {
		val, ok := map[string]engine.Value{"win": engine.WinValue, "loss": engine.LossValue,
			"draw": engine.DrawValue, "none": engine.NoValue}[v]
		if !ok {
			return fmt.Errorf("%q is not win, loss, draw or none", v)
		}
		*field(s) = val
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

func checkLimits(v string) error {
	_, err := parseLimits(v)
	return err
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
