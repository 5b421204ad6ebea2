package variants

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// setPiece handles the piece keys: a predefined piece by name ("amazon =
// a", "queen = -" to remove it, "pawn = p:BETZA" to change how it moves) or
// "customPieceN = x:BETZA".
func (s *spec) setPiece(key, value string) error {
	pre, predefined := findPredefined(key)
	if !predefined && !isCustomPieceKey(key) {
		return fmt.Errorf("unknown key %q", key)
	}
	s.removePiece(key)
	if value == "-" {
		if !predefined {
			return fmt.Errorf("%s: a custom piece is removed by leaving it out", key)
		}
		return nil
	}
	letterText, betza, hasBetza := strings.Cut(value, ":")
	if len(letterText) != 1 || !isLetter(letterText[0]) {
		return fmt.Errorf("%s = %q: want a piece letter, optionally followed by :BETZA", key, value)
	}
	letter := lower(letterText[0])
	if !hasBetza && !predefined {
		return fmt.Errorf("%s = %q: a custom piece needs letter:BETZA", key, value)
	}
	p := pieceSpec{key: key, letter: letter, betza: pre.betza, role: pre.role, value: pre.value, custom: hasBetza}
	if hasBetza {
		if _, err := ParseBetza(betza); err != nil {
			return err
		}
		p.betza = betza
	}
	for _, q := range s.pieces {
		if q.letter == letter {
			return fmt.Errorf("piece letter %q is already used by %s", letter, q.key)
		}
	}
	s.pieces = append(s.pieces, p)
	return nil
}

// letterOf returns the FEN letter (uppercase) of the piece with the given
// key, 0 when the spec has none.
func (s *spec) letterOf(key string) byte {
	for _, p := range s.pieces {
		if p.key == key {
			return upper(p.letter)
		}
	}
	return 0
}

func isCustomPieceKey(key string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(key, "customPiece"))
	return strings.HasPrefix(key, "customPiece") && err == nil && n >= 1 && n <= 25
}

func (s *spec) removePiece(key string) {
	kept := s.pieces[:0]
	for _, p := range s.pieces {
		if p.key != key {
			kept = append(kept, p)
		}
	}
	s.pieces = kept
}

// startChecks returns the checks a side needs to win in a check-counting
// variant: as Fairy-Stockfish reads it, from the start position's check
// field ("5+5" in five-check), else def (three).
func startChecks(fen string, def int) int {
	for _, field := range strings.Fields(fen) {
		w, b, ok := strings.Cut(field, "+")
		if !ok {
			continue
		}
		nw, errW := strconv.Atoi(w)
		nb, errB := strconv.Atoi(b)
		if errW == nil && errB == nil && nw > 0 && nw <= 99 && nb > 0 && nb <= 99 {
			return max(nw, nb)
		}
	}
	return def
}

// engineRules turns the spec into engine rules: the rules the keys set
// directly, plus what needs the board size or the piece list.
func (s *spec) engineRules() (engine.Rules, error) {
	if err := s.checkStartShape(); err != nil {
		return engine.Rules{}, err
	}
	r := s.rules
	r.Name, r.Width, r.Height, r.StartFEN = s.name, s.files, s.ranks, s.startFEN
	if r.CheckCounting > 0 {
		r.CheckCounting = startChecks(s.startFEN, r.CheckCounting)
	}

	var err error
	region := func(text string, def engine.SquareSet) engine.SquareSet {
		if text == "" || err != nil {
			return def
		}
		var set engine.SquareSet
		set, err = parseRegion(text, s.files, s.ranks)
		return set
	}
	lastRank := engine.RankSet(s.ranks-1, s.files)
	firstRank := engine.RankSet(0, s.files)
	var secondRank, nextToLast engine.SquareSet
	if s.ranks >= 2 {
		secondRank, nextToLast = engine.RankSet(1, s.files), engine.RankSet(s.ranks-2, s.files)
	}
	r.PromotionZone = [2]engine.SquareSet{region(s.promotionRegion[0], lastRank), region(s.promotionRegion[1], firstRank)}
	r.InitialRegion = [2]engine.SquareSet{region(s.doubleStepRegion[0], secondRank), region(s.doubleStepRegion[1], nextToLast)}
	triple := [2]engine.SquareSet{region(s.tripleStepRegion[0], engine.SquareSet{}), region(s.tripleStepRegion[1], engine.SquareSet{})}
	r.FlagRegion = [2]engine.SquareSet{region(s.flagRegion[0], engine.SquareSet{}), region(s.flagRegion[1], engine.SquareSet{})}
	if s.enPassantRegion != "" {
		ep := region(s.enPassantRegion, engine.SquareSet{})
		r.EnPassantRegion = &ep
	}
	if s.dropRegion != [2]string{} {
		everywhere, _ := parseRegion("*", s.files, s.ranks)
		r.DropRegion = &[2]engine.SquareSet{region(s.dropRegion[0], everywhere), region(s.dropRegion[1], everywhere)}
	}
	if err != nil {
		return r, err
	}
	royal := s.royal
	if s.extinctionPseudoRoyal {
		royal += strings.ToLower(string(s.rules.ExtinctionTypes))
	}
	values, _ := parseLetterList(s.pieceValues, true) // checked by the setter
	names, _ := parseLetterList(s.pieceNames, false)
	for _, p := range s.pieces {
		if val, ok := values[p.letter]; ok {
			p.value, _ = strconv.Atoi(val)
		}
		if name, ok := names[p.letter]; ok {
			p.name = name
		}
		pt, err := s.pieceType(p, strings.IndexByte(royal, p.letter) >= 0, &triple)
		if err != nil {
			return r, err
		}
		r.Pieces = append(r.Pieces, pt)
	}
	if s.shogiNoDoubledPawn || s.shogiPawnDropMateIllegal {
		pawn := s.letterOf("shogiPawn")
		if pawn == 0 {
			return r, fmt.Errorf("shogiDoubledPawn and shogiPawnDropMateIllegal need a shogiPawn piece")
		}
		if s.shogiNoDoubledPawn {
			r.DropNoDoubled = pawn
		}
		if s.shogiPawnDropMateIllegal {
			r.DropMateIllegal = pawn
		}
	}
	if s.diagonalLines != "" {
		if r.DiagonalLines, err = parseRegion(s.diagonalLines, s.files, s.ranks); err != nil {
			return r, err
		}
	}
	if s.materialCounting == "janggi" {
		r.MaterialPoints = map[byte]int{}
		for _, p := range s.pieces {
			if n, ok := janggiPoints[p.key]; ok {
				r.MaterialPoints[upper(p.letter)] = n
			}
		}
	}
	// Rules that name a piece by its role in the game: shatar's shak
	// pieces, the cambodian met (the fers), the counting's khon (the
	// silver general) and met.
	r.ShatarShak, r.CambodianMet, r.CountingKhon, r.CountingMet = nil, 0, 0, 0
	if s.shatarMateRule {
		for _, key := range []string{"knight", "rook", "bers"} {
			if l := s.letterOf(key); l != 0 {
				r.ShatarShak = append(r.ShatarShak, l)
			}
		}
	}
	if r.CambodianMoves {
		r.CambodianMet = s.letterOf("fers")
	}
	if r.Counting != engine.NoCounting {
		r.CountingKhon, r.CountingMet = s.letterOf("silver"), s.letterOf("fers")
	}
	if s.castling {
		r.CastlingKing, r.CastlingRook = upper(s.castlingKingPiece), upper(s.castlingRookPc)
		r.Castling, err = s.castlingRules()
	}
	return r, err
}

// pieceType builds one engine piece type. The standard pawn gets its
// initial double (and triple) step from the variant's regions.
func (s *spec) pieceType(p pieceSpec, royal bool, triple *[2]engine.SquareSet) (engine.PieceType, error) {
	atoms, err := ParseBetza(p.betza)
	if err != nil {
		return engine.PieceType{}, fmt.Errorf("%s: %w", p.key, err)
	}
	betza := p.betza
	if p.role == engine.RolePawn && !p.custom {
		if s.doubleStep {
			double, _ := ParseBetza("ifmnD")
			atoms = append(atoms, double...)
			betza += "ifmnD"
		}
		if !triple[0].Empty() || !triple[1].Empty() {
			step, _ := ParseBetza("ifmnH")
			step[0].From = triple
			atoms = append(atoms, step...)
			betza += "ifmnH"
		}
	}
	if p.key == "soldier" && !p.custom && s.soldierRank > 1 {
		// Forward always; sideways only from soldierPromotionRank on
		// (across the river).
		atoms, _ = ParseBetza("fW")
		sideways, _ := ParseBetza("sW")
		var across [2]engine.SquareSet
		for r := s.soldierRank - 1; r < s.ranks; r++ {
			across[0] = union(across[0], engine.RankSet(r, s.files))
			across[1] = union(across[1], engine.RankSet(s.ranks-1-r, s.files))
		}
		sideways[0].Initial, sideways[0].From = true, &across
		atoms = append(atoms, sideways...)
	}
	pt := engine.PieceType{
		Name: cmp.Or(p.name, p.key), Key: p.key, Letter: upper(p.letter), Value: p.value, Betza: betza,
		Royal: royal || p.role == engine.RoleKing, Role: p.role, Atoms: atoms,
		SparesOwnKind: p.key == "janggiCannon" && !p.custom,
	}
	if texts, ok := s.mobilityRegion[p.key]; ok {
		var region [2]engine.SquareSet
		for c, text := range texts {
			if text == "" {
				text = "*"
			}
			set, err := parseRegion(text, s.files, s.ranks)
			if err != nil {
				return pt, fmt.Errorf("mobility region of %s: %w", p.key, err)
			}
			region[c] = set
		}
		pt.Region = &region
	}
	return pt, nil
}

// checkStartShape checks that the start position fits the board, first,
// so that a board resized without a new start position is named as such
// (and not as a castling or rank error found later).
func (s *spec) checkStartShape() error {
	board, _, _ := strings.Cut(strings.TrimSpace(s.startFEN), " ")
	rows := strings.Split(board, "/")
	width := fenRankWidth(rows[0])
	if len(rows) == s.ranks && width == s.files {
		return nil
	}
	if s.startFENFrom != s.name {
		return fmt.Errorf("the board is %dx%d (maxFile, maxRank) but the start position inherited from %s is %dx%d: give startFen for the new board",
			s.files, s.ranks, s.startFENFrom, width, len(rows))
	}
	return startFENError{fmt.Errorf("startFen is %dx%d but the board is %dx%d (maxFile, maxRank)", width, len(rows), s.files, s.ranks)}
}

// fenRankWidth counts the squares one FEN rank describes: runs of empty
// squares, and pieces (letters; '*' for a wall).
func fenRankWidth(rank string) int {
	n, run := 0, 0
	for i := 0; i < len(rank); i++ {
		c := rank[i]
		switch {
		case c >= '0' && c <= '9':
			run = run*10 + int(c-'0')
			continue
		case isLetter(c) || c == '*':
			n++
		}
		n += run
		run = 0
	}
	return n + run
}

// castlingRules finds each side's castling king on its castling rank in the
// start position and builds the king- and queen-side rules around it; the
// rook lands next to the king, on the inner side.
func (s *spec) castlingRules() ([]engine.CastlingRule, error) {
	var rules []engine.CastlingRule
	ksRook := s.castlingRookKingsideFile
	if ksRook < 0 {
		ksRook = s.files - 1
	}
	for _, c := range []engine.Colour{engine.White, engine.Black} {
		rank := s.castlingRank - 1
		king := upper(s.castlingKingPiece)
		if c == engine.Black {
			rank, king = s.ranks-s.castlingRank, s.castlingKingPiece
		}
		row, err := fenRank(s.startFEN, s.ranks-1-rank)
		if err != nil {
			return nil, err
		}
		kf := strings.IndexByte(row, king)
		if kf < 0 && s.rules.CastlingDroppedPiece {
			kf = 4 // a king yet to be dropped castles from the e-file, as in Fairy-Stockfish
		}
		if kf < 0 {
			continue // this side has no castling king at the start
		}
		sq := func(f int) engine.Square { return engine.SquareAt(f, rank) }
		rules = append(rules,
			engine.CastlingRule{Colour: c, Letter: 'K', KingFrom: sq(kf), KingTo: sq(s.castlingKingsideFile),
				RookFrom: sq(ksRook), RookTo: sq(s.castlingKingsideFile - 1)},
			engine.CastlingRule{Colour: c, Letter: 'Q', KingFrom: sq(kf), KingTo: sq(s.castlingQueensideFile),
				RookFrom: sq(s.castlingRookQueensideFile), RookTo: sq(s.castlingQueensideFile + 1)})
	}
	return rules, nil
}

// fenRank returns one rank of a FEN board (0 = the top rank) with empty
// squares as spaces.
func fenRank(fen string, index int) (string, error) {
	board, _, _ := strings.Cut(fen, " ")
	ranks := strings.Split(board, "/")
	if index < 0 || index >= len(ranks) {
		return "", fmt.Errorf("start position has no rank %d", len(ranks)-index)
	}
	var b strings.Builder
	text, _, _ := strings.Cut(ranks[index], "[") // not the hands after the last rank
	for i := 0; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' {
			n := int(text[i] - '0')
			for i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9' {
				i++
				n = n*10 + int(text[i]-'0')
			}
			b.WriteString(strings.Repeat(" ", min(n, engine.MaxSize)))
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String(), nil
}
