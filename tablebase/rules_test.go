package tablebase

import (
	"reflect"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestEveryRuleIsClassified: every field of the rule structs is listed in
// rules.go as modelled, unused or refused. A field added to engine.Rules
// (or Goal, Hands, PieceType, Atom) fails here until someone decides how
// tables treat it; until then the check refuses it whenever it is set.
func TestEveryRuleIsClassified(t *testing.T) {
	for _, c := range []struct {
		typ    reflect.Type
		fields map[string]field
	}{
		{reflect.TypeFor[engine.Rules](), ruleFields()},
		{reflect.TypeFor[engine.PieceType](), pieceFields()},
		{reflect.TypeFor[engine.Atom](), atomFields()},
	} {
		names := structFields(c.typ)
		for _, name := range names {
			f, ok := c.fields[name]
			require.True(t, ok, "%s.%s is not classified in tablebase/rules.go", c.typ.Name(), name)
			require.Contains(t, []fieldUse{modelled, unused, refused}, f.use, name)
			if f.use == refused {
				require.NotEmpty(t, f.what, "%s.%s: a refusal names the rule", c.typ.Name(), name)
			}
		}
		for name := range c.fields {
			require.Contains(t, names, name, "rules.go classifies %s.%s, which no longer exists", c.typ.Name(), name)
		}
	}
}

// structFields lists a struct's field names, embedded structs' flattened.
func structFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			out = append(out, structFields(sf.Type)...)
			continue
		}
		out = append(out, sf.Name)
	}
	return out
}

// TestEveryRefusedRuleIsRefused sets each refused field of chess's rules in
// turn to a non-zero value and checks that the tables of a material it
// bears on are refused by the rule's name, and that the unset rules pass.
func TestEveryRefusedRuleIsRefused(t *testing.T) {
	v := variants.Chess()
	pawns := []*engine.PieceType{&v.Pieces[v.TypeByLetter('P')-1], &v.Pieces[v.TypeByLetter('K')-1]}
	require.NoError(t, checkFields(reflect.ValueOf(v.Rules), ruleFields(), &v.Rules, pawns))
	fields := ruleFields()
	for _, name := range structFields(reflect.TypeFor[engine.Rules]()) {
		f := fields[name]
		if f.use != refused {
			continue
		}
		rules := v.Rules
		target := reflect.ValueOf(&rules).Elem().FieldByName(name)
		setNonZero(t, target, f)
		pieces := pawns
		if name == "PiecePromotion" {
			rules.PiecePromotion = map[byte]byte{'P': 'Q'}
		}
		err := checkFields(reflect.ValueOf(rules), fields, &rules, pieces)
		require.ErrorContains(t, err, f.what, name)
		if f.appliesTo != nil {
			// Tables without a piece it bears on are not refused: a
			// pawnless table of grand chess is fine.
			require.NoError(t, checkFields(reflect.ValueOf(rules), fields, &rules, pieces[1:]), name)
		}
	}
}

// setNonZero gives a field a value its classification refuses.
func setNonZero(t *testing.T, f reflect.Value, c field) {
	t.Helper()
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int:
		f.SetInt(3)
	case reflect.Uint8, reflect.Int8:
		for x := 1; x < 100; x++ {
			if f.CanInt() {
				f.SetInt(int64(x))
			} else {
				f.SetUint(uint64(x))
			}
			if c.allowed == nil || !c.allowed(f) {
				return
			}
		}
		t.Fatalf("no refused value for %s", f.Type())
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 1))
	case reflect.Map:
		m := reflect.MakeMap(f.Type())
		m.SetMapIndex(reflect.Zero(f.Type().Key()), reflect.Zero(f.Type().Elem()))
		f.Set(m)
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	case reflect.Array, reflect.Struct:
		// A square set or a pair of them: put one square in.
		f.Set(reflect.ValueOf(nonEmptySquares(f.Type())))
	default:
		t.Fatalf("cannot set a %s", f.Type())
	}
}

func nonEmptySquares(t reflect.Type) any {
	var s engine.SquareSet
	s.Add(engine.SquareAt(0, 0))
	switch t {
	case reflect.TypeFor[engine.SquareSet]():
		return s
	case reflect.TypeFor[[2]engine.SquareSet]():
		return [2]engine.SquareSet{s, s}
	}
	panic("unexpected type " + t.String())
}

// TestInitialStepsOfOtherPieces: the pawns' mirrored-rules check applies to
// any piece with an initial step, not only to pieces called pawns.
func TestInitialStepsOfOtherPieces(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("lopsided.ini", []byte(strings.Join([]string{
		"[lopsided:chess]",
		"customPiece1 = a:mfWifmnD",
		"startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w - - 0 1",
		"promotionRegionWhite = *8",
		"promotionRegionBlack = *1 *2",
	}, "\n")+"\n")))
	v, err := cat.Lookup("lopsided")
	require.NoError(t, err)
	mat, err := ParseMaterial(v, "KAvK")
	require.NoError(t, err)
	require.ErrorContains(t, CheckMaterial(v, mat), "differ between White and Black")
}

// TestLongAdvances: pawns that advance more than two squares at first
// would leave several en-passant squares; the generator refuses them.
func TestLongAdvances(t *testing.T) {
	for variant, want := range map[string]string{
		"wildebeest": "initial moves from a region of their own", // a triple step from the second rank
		"reallybig":  "only initial quiet leaps",                 // an initial ride of up to six squares
	} {
		v, err := variants.Lookup(variant)
		require.NoError(t, err)
		require.ErrorContains(t, checkPiece(&v.Pieces[v.TypeByLetter('P')-1]), want, variant)
	}
	triple := engine.PieceType{Name: "tripler", Betza: "ifmnH", Role: engine.RolePawn, Atoms: []engine.Atom{
		{Kind: engine.Leap, Vectors: []engine.Vector{{DX: 0, DY: 3}}, Initial: true, MoveOnly: true, Lame: true}}}
	require.ErrorContains(t, checkPiece(&triple), "advances of more than two squares")
}
