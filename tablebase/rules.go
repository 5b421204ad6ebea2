package tablebase

import (
	"fmt"
	"reflect"

	"github.com/chimera-chess/chimera/engine"
)

// This file says which rules the generator models. It is default-deny: every
// field of engine.Rules (with its embedded Goal and Hands), engine.PieceType
// and engine.Atom is listed with what the generator does with it, and a
// field that is not listed, or is refused, must hold its zero value for a
// table to be built, loaded or probed. A new rule therefore refuses tables
// until someone decides here how it bears on them (TestEveryRuleIsClassified
// fails on an unlisted field).

// fieldUse is what the generator does with one field of a rule struct.
type fieldUse uint8

const (
	// modelled: the generator models every value the other checks here
	// let through, and the field is part of a table's fingerprint.
	modelled fieldUse = iota + 1
	// unused: no value changes a table (the variant's name, its start
	// position, castling: no table holds a position with castling rights).
	unused
	// refused: a table is built only while the field has its zero value
	// (or, with appliesTo, while no piece of the table is one it bears on).
	refused
)

// field classifies one field of a rule struct.
type field struct {
	use fieldUse
	// what names the rule for people, in a refusal.
	what string
	// allowed, when set, lets a refused field take some non-zero values
	// (the loss that checkmate is, the draw that stalemate is).
	allowed func(reflect.Value) bool
	// appliesTo, when set, limits a refusal to tables holding a piece the
	// rule bears on (promotion rules to tables with pawns).
	appliesTo func(r *engine.Rules, pt *engine.PieceType) bool
}

func use(u fieldUse) field { return field{use: u} }

func refuse(what string) field { return field{use: refused, what: what} }

// isPawn: the piece promotes on reaching its promotion zone.
func isPawn(_ *engine.Rules, pt *engine.PieceType) bool { return pt.Role == engine.RolePawn }

// stepsInitially: the piece has an initial move (a double step), which may
// leave an en-passant square.
func stepsInitially(_ *engine.Rules, pt *engine.PieceType) bool {
	for _, a := range pt.Atoms {
		if a.Initial {
			return true
		}
	}
	return false
}

// promotesByPiece: the piece promotes by the variant's piece promotions
// (promotedPieceType).
func promotesByPiece(r *engine.Rules, pt *engine.PieceType) bool {
	_, ok := r.PiecePromotion[pt.Letter]
	return ok
}

// valueIs allows a Value field the given values besides its zero value.
func valueIs(ok ...engine.Value) func(reflect.Value) bool {
	return func(f reflect.Value) bool {
		for _, want := range ok {
			if engine.Value(integer(f)) == want {
				return true
			}
		}
		return false
	}
}

// integer reads an integer field of any kind.
func integer(f reflect.Value) int64 {
	if f.CanInt() {
		return f.Int()
	}
	return int64(f.Uint())
}

// ruleFields classifies every field of engine.Rules, Goal's and Hands'
// included (they are embedded).
func ruleFields() map[string]field {
	return map[string]field{
		"Name":           use(unused),
		"Width":          use(modelled),
		"Height":         use(modelled),
		"Pieces":         use(modelled), // each piece by pieceFields
		"StartFEN":       use(unused),
		"InitialRegion":  use(modelled), // the same for both colours: checkMirrored
		"PromotionZone":  use(modelled), // the same for both colours: checkMirrored
		"PromotionTypes": use(modelled),
		"Castling":       use(unused),
		"CastlingKing":   use(unused),
		"CastlingRook":   use(unused),
		"Chess960":       use(unused),
		// A table's distances to mate play on past the n-move rule, its
		// distances to zeroing (dtz.go) count to the rule's limit; every
		// repetition is a draw, whatever its count.
		"MoveRule":                use(modelled),
		"RepetitionRule":          use(unused),
		"EnPassantDoubleStepOnly": use(modelled), // advances of more than two squares are refused by checkPiece

		"CheckmateValue":        {use: refused, what: "checkmate that does not lose (checkmateValue)", allowed: valueIs(engine.LossValue)},
		"StalemateValue":        {use: refused, what: "stalemate that does not draw (stalemateValue)", allowed: valueIs(engine.DrawValue)},
		"ExtinctionValue":       refuse("extinction of a piece type ending the game (extinctionValue)"),
		"ExtinctionTypes":       refuse("extinction piece types (extinctionPieceTypes)"),
		"BareKingValue":         refuse("a bare royal piece ending the game (bareKingValue)"),
		"BareKingMove":          refuse("the bared side's last move (bareKingMove)"),
		"FlagPiece":             refuse("a piece winning on reaching a region (flagPiece)"),
		"FlagRegion":            refuse("flag regions (flagRegion)"),
		"FlagMove":              refuse("the reply to a flag (flagMove)"),
		"CheckCounting":         refuse("winning by a number of checks (checkCounting)"),
		"PerpetualCheckIllegal": refuse("perpetual check losing (perpetualCheckIllegal)"),
		"Bikjang":               refuse("the generals' face-off ending the game (bikjang)"),
		"MaterialPoints":        refuse("points deciding drawn games (materialCounting)"),
		"Counting":              refuse("counting rules, which can turn a won ending into a draw (countingRule)"),
		"CountingKhon":          refuse("counting rules' khon"),
		"MustCapture":           refuse("compulsory captures (mustCapture)"),
		"BlastOnCapture":        refuse("explosions on capture (blastOnCapture)"),

		"NoChecks":          refuse("a ban on giving check"),
		"FlyingGeneral":     refuse("the generals' face-off (flyingGeneral)"),
		"DiagonalLines":     refuse("palace diagonals"),
		"KingPass":          refuse("pass moves (kingPass)"),
		"RoyalRule":         refuse("a choice of which royal pieces are royal"),
		"Missile":           refuse("missiles"),
		"ImmobilityIllegal": refuse("a ban on moves that leave a piece immobile (immobilityIllegal)"),
		"EnPassantRegion":   {use: refused, what: "en-passant regions (enPassantRegion)", appliesTo: stepsInitially},
		"OptionalPromotion": {use: refused, what: "optional promotion (mandatoryPawnPromotion = false)", appliesTo: isPawn},
		"PromotionLimit":    {use: refused, what: "promotion limits (promotionLimit)", appliesTo: isPawn},
		"PiecePromotion":    {use: refused, what: "optional promotion by piece (promotedPieceType)", appliesTo: promotesByPiece},

		"PieceDrops":               refuse("pieces in hand: drops (pieceDrops)"),
		"CapturesToHand":           refuse("pieces in hand: captures to the hand (capturesToHand)"),
		"FirstRankPawnDrops":       refuse("pieces in hand: pawn drops on the first rank"),
		"PromotionZonePawnDrops":   refuse("pieces in hand: pawn drops in the promotion zone"),
		"DropNoDoubled":            refuse("pieces in hand: doubled-pawn drops (dropNoDoubled)"),
		"DropMateIllegal":          refuse("pieces in hand: drop mates (shogiPawnDropMateIllegal)"),
		"NoDropChecks":             refuse("pieces in hand: drop checks (dropChecks)"),
		"Gating":                   refuse("gating (gating)"),
		"DropRegion":               refuse("pieces in hand: drop regions (whiteDropRegion)"),
		"DropPromoted":             refuse("pieces in hand: drops of promoted pieces (dropPromoted)"),
		"DropLoop":                 refuse("pieces in hand: promoted pieces kept in hand (dropLoop)"),
		"TwoBoards":                refuse("pieces in hand from a partner's board (twoBoards)"),
		"MustDrop":                 refuse("pieces in hand: compulsory drops (mustDrop)"),
		"MustDropType":             refuse("pieces in hand: compulsory drops (mustDropType)"),
		"DropBishopsOnBothColours": refuse("pieces in hand: bishop drops on both colours (dropOppositeColoredBishop)"),
		"CastlingDroppedPiece":     refuse("castling gained by drops (castlingDroppedPiece)"),
		"RookDropsOnFirstRank":     refuse("pieces in hand: rook drops (sittuyinRookDrop)"),

		"ExtinctionCount":         refuse("extinction counted by pieces left (extinctionPieceCount)"),
		"ExtinctionOpponentCount": refuse("extinction counted against the opponent (extinctionOpponentPieceCount)"),
		"FlagSurvive":             refuse("a flag held through the reply (flagSurvive)"),
		"StalematePieceCount":     refuse("stalemate decided by the pieces left (stalematePieceCount)"),
		"ShatarShak":              refuse("shatar's mate rules (shatarMateRule)"),
		"CountingMet":             refuse("counting rules' met"),
		"CambodianMoves":          refuse("the first leaps of king and met (cambodianMoves)"),
		"CambodianMet":            refuse("the first leaps of king and met (cambodianMoves)"),
		"SittuyinPromotion":       refuse("promotion as a move of its own (sittuyinPromotion)"),
		"MandatoryPiecePromotion": refuse("compulsory promotion by piece (mandatoryPiecePromotion)"),
		"PieceDemotion":           refuse("demotion (pieceDemotion)"),
		"PiecePromotionOnCapture": refuse("promotion on capture (piecePromotionOnCapture)"),
		"KingStaysInCheck":        refuse("a king that may not step out of check (makpongRule)"),
	}
}

// pieceFields classifies every field of engine.PieceType.
func pieceFields() map[string]field {
	return map[string]field{
		"Name":   use(unused),
		"Key":    use(unused), // notation: how USI orders a hand
		"Letter": use(modelled),
		// Values order a material's sides (KRvKB, not KBvKR), which its
		// name shows: they change which file holds a table, not the table.
		"Value":         use(unused),
		"Royal":         use(modelled),
		"Role":          use(modelled), // a pawn's banned and promotion squares
		"Betza":         use(unused),   // for people: the atoms are the movement
		"Atoms":         use(modelled), // each atom by atomFields
		"Region":        refuse("a piece confined to a region (a palace)"),
		"SparesOwnKind": refuse("a cannon sparing its own kind"),
	}
}

// atomFields classifies every field of engine.Atom.
func atomFields() map[string]field {
	return map[string]field{
		"Kind": {use: refused, what: "hoppers and cannons, which cannot be un-moved",
			allowed: func(f reflect.Value) bool {
				k := engine.AtomKind(f.Uint())
				return k == engine.Leap || k == engine.Ride
			}},
		"Vectors":     use(modelled),
		"Range":       use(modelled),
		"MoveOnly":    use(modelled),
		"CaptureOnly": use(modelled),
		"Lame":        use(modelled),
		"Initial":     use(modelled), // initial quiet leaps of up to two squares: checkPiece
		"From":        refuse("initial moves from a region of their own"),
		"EnPassant":   use(modelled),
	}
}

// checkFields checks a rule struct's fields against their classification.
// For the rules (r, of which val is a part), pieces are the table's: a
// refusal with appliesTo holds only for them, and none checks the rules
// for every table. A piece type or atom is checked with r nil.
func checkFields(val reflect.Value, fields map[string]field, r *engine.Rules, pieces []*engine.PieceType) error {
	t := val.Type()
	for i := range t.NumField() {
		sf, f := t.Field(i), val.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if err := checkFields(f, fields, r, pieces); err != nil {
				return err
			}
			continue
		}
		if f.IsZero() {
			continue
		}
		c, known := fields[sf.Name]
		switch {
		case !known:
			return fmt.Errorf("the generator does not know the rule %s", sf.Name)
		case c.use != refused, c.allowed != nil && c.allowed(f):
			continue
		case c.appliesTo != nil && !anyPiece(r, pieces, c.appliesTo):
			continue
		}
		return fmt.Errorf("the generator does not model %s", c.what)
	}
	return nil
}

// anyPiece reports whether a rule bears on any of the pieces.
func anyPiece(r *engine.Rules, pieces []*engine.PieceType, bears func(*engine.Rules, *engine.PieceType) bool) bool {
	for _, pt := range pieces {
		if bears(r, pt) {
			return true
		}
	}
	return false
}

// CheckVariant reports why the generator cannot build any table of a
// variant, or nil when it may build some (each material's pieces are
// checked too: CheckMaterial).
func CheckVariant(v *engine.Variant) error {
	if err := checkFields(reflect.ValueOf(v.Rules), ruleFields(), &v.Rules, nil); err != nil {
		return fmt.Errorf("variant %s: %w", v.Name, err)
	}
	return nil
}

// CheckMaterial reports why the generator cannot build a material's
// table in a variant, or nil: the variant's rules, and every piece the
// table holds or promotes to, with the rules that bear on them.
func CheckMaterial(v *engine.Variant, m Material) error {
	if err := CheckVariant(v); err != nil {
		return err
	}
	pieces := materialTypes(v, m)
	if err := checkFields(reflect.ValueOf(v.Rules), ruleFields(), &v.Rules, pieces); err != nil {
		return fmt.Errorf("variant %s, %s: %w", v.Name, m, err)
	}
	for _, pt := range pieces {
		if err := checkPiece(pt); err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
	}
	if anyPiece(&v.Rules, pieces, isPawn) || anyPiece(&v.Rules, pieces, stepsInitially) {
		if err := checkMirrored(v); err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
	}
	return nil
}

// materialTypes returns the piece types of a material's table and of the
// tables its promotions lead into, each once.
func materialTypes(v *engine.Variant, m Material) []*engine.PieceType {
	var out []*engine.PieceType
	seen := map[byte]bool{}
	add := func(l byte) {
		if t := v.TypeByLetter(l); t != 0 && !seen[l] {
			seen[l] = true
			out = append(out, &v.Pieces[t-1])
		}
	}
	for _, l := range []byte(m.Strong + m.Weak) {
		add(l)
	}
	if anyPiece(&v.Rules, out, isPawn) {
		for _, l := range v.PromotionTypes {
			add(l)
		}
	}
	return out
}

// checkPiece rejects pieces whose moves the generator cannot reverse:
// anything pieceFields and atomFields refuse, initial moves that are not
// plain quiet leaps, and multi-square advances that leave several
// en-passant squares.
func checkPiece(pt *engine.PieceType) error {
	if err := checkFields(reflect.ValueOf(*pt), pieceFields(), nil, nil); err != nil {
		return fmt.Errorf("piece %s (%s): %w", pt.Name, pt.Betza, err)
	}
	for _, a := range pt.Atoms {
		if err := checkFields(reflect.ValueOf(a), atomFields(), nil, nil); err != nil {
			return fmt.Errorf("piece %s (%s): %w", pt.Name, pt.Betza, err)
		}
		switch {
		case a.Initial && (a.Kind != engine.Leap || !a.MoveOnly):
			return fmt.Errorf("piece %s (%s): only initial quiet leaps (a double step) are supported", pt.Name, pt.Betza)
		case a.Initial && a.Lame:
			for _, vec := range a.Vectors {
				if max(abs(vec.DX), abs(vec.DY)) > 2 {
					return fmt.Errorf("piece %s (%s): advances of more than two squares are not supported", pt.Name, pt.Betza)
				}
			}
		}
	}
	return nil
}

func abs(x int) int { return max(x, -x) }

// checkMirrored rejects pawn rules that are not the same for both colours
// seen from their own side: a table serves both colours by mirroring the
// board, so the promotion zones and initial regions must mirror too.
func checkMirrored(v *engine.Variant) error {
	for f := 0; f < v.Width; f++ {
		for r := 0; r < v.Height; r++ {
			s, m := engine.SquareAt(f, r), engine.SquareAt(f, v.Height-1-r)
			if v.PromotionZone[0].Has(s) != v.PromotionZone[1].Has(m) || v.InitialRegion[0].Has(s) != v.InitialRegion[1].Has(m) {
				return fmt.Errorf("variant %s: the pawns' rules differ between White and Black", v.Name)
			}
		}
	}
	return nil
}
