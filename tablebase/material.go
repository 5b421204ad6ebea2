// Package tablebase probes and stores endgame tablebases, generic over
// the variant's board and pieces: a Table answers a position's value
// (win, draw or loss, the distance to mate, the distance to zeroing under
// the move rule) and its moves' values; the Store keeps a directory's
// tables in memory and in .ctb files checked against the variant's
// Fingerprint, under a lookup Policy; the Prober is the search's view.
// The rule check (CheckVariant, CheckMaterial) says which variants and
// materials tables model. Generating tables is tablebase/gen's: a store
// given its Generator builds what it lacks, one without only reads.
package tablebase

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Material is a signature such as KBNvK: the strong side's piece letters,
// then the weak side's. In a table the strong side is White.
type Material struct {
	Strong, Weak string // uppercase letters, the royal piece first
}

// MaxPieces is the most pieces (kings included) a table may hold.
const MaxPieces = layout.MaxPieces

// ParseMaterial reads "KBNvK" or "KPvK" for a variant: letters must be the
// variant's, each side needs exactly one royal piece, and at most
// MaxPieces pieces in all.
func ParseMaterial(v *engine.Variant, s string) (Material, error) {
	strong, weak, ok := strings.Cut(strings.TrimSpace(s), "v")
	if !ok {
		return Material{}, fmt.Errorf("material %q: want the form KBNvK", s)
	}
	m := Material{Strong: strings.ToUpper(strong), Weak: strings.ToUpper(weak)}
	return m.Normalised(v)
}

// Normalised checks a material in a variant and writes it the one way its
// table is named: each side's royal piece first, then its pieces by type,
// and the stronger side (by the variant's piece values) first.
func (m Material) Normalised(v *engine.Variant) (Material, error) {
	fix := func(side string) (string, error) {
		if side == "" {
			return "", fmt.Errorf("material %s: a side without pieces", m)
		}
		royal, others := "", []byte{}
		for i := 0; i < len(side); i++ {
			t := v.TypeByLetter(side[i])
			if t == 0 {
				return "", fmt.Errorf("material %s: no piece %q in variant %s", m, side[i], v.Name)
			}
			pt := v.Pieces[t-1]
			switch {
			case pt.Royal && royal != "":
				return "", fmt.Errorf("material %s: more than one royal piece a side", m)
			case pt.Royal:
				royal = string(pt.Letter)
			default:
				others = append(others, pt.Letter)
			}
		}
		if royal == "" {
			return "", fmt.Errorf("material %s: each side needs a royal piece", m)
		}
		sortPieces(v, others)
		return royal + string(others), nil
	}
	var err error
	if m.Strong, err = fix(m.Strong); err != nil {
		return m, err
	}
	if m.Weak, err = fix(m.Weak); err != nil {
		return m, err
	}
	if n := len(m.Strong) + len(m.Weak); n > MaxPieces {
		return m, fmt.Errorf("material %s: %d pieces, at most %d", m, n, MaxPieces)
	}
	return orient(v, m), nil // KvKBN is KBNvK: one table for both colours
}

// sortPieces orders piece letters the way signatures are written: by the
// variant's type order, later types first (KQRBN in chess).
func sortPieces(v *engine.Variant, letters []byte) {
	// slices.SortFunc, not sort.Slice, whose interface and swapper
	// allocate: Covers sorts a position's letters on every probe.
	slices.SortFunc(letters, func(a, b byte) int { return cmp.Compare(v.TypeByLetter(b), v.TypeByLetter(a)) })
}

// String writes the signature: KBNvK.
func (m Material) String() string { return m.Strong + "v" + m.Weak }

// Pieces returns the table's pieces in index order: White's (the strong
// side) then Black's, each royal piece first.
func (m Material) Pieces(v *engine.Variant) []engine.Piece {
	var out []engine.Piece
	for _, l := range []byte(m.Strong) {
		out = append(out, engine.MakePiece(v.TypeByLetter(l), engine.White))
	}
	for _, l := range []byte(m.Weak) {
		out = append(out, engine.MakePiece(v.TypeByLetter(l), engine.Black))
	}
	return out
}

// Without returns the material after piece i (index order) is captured, in
// canonical orientation (the stronger side first, by the variant's values)
// and whether the colours were swapped.
func (m Material) Without(i int) Material {
	s, w := m.Strong, m.Weak
	if i < len(s) {
		s = s[:i] + s[i+1:]
	} else {
		j := i - len(s)
		w = w[:j] + w[j+1:]
	}
	return Material{Strong: s, Weak: w}
}

// Replaced returns the material with piece i (index order) become the
// piece with the given letter (a promotion), not yet normalised.
func (m Material) Replaced(i int, letter byte) Material {
	s, w := []byte(m.Strong), []byte(m.Weak)
	if i < len(s) {
		s[i] = letter
	} else {
		w[i-len(s)] = letter
	}
	return Material{Strong: string(s), Weak: string(w)}
}

// materialOf reads the material of a position: White's and Black's letters,
// royal first. ok is false when a side has not exactly one royal piece.
func materialOf(p *engine.Position) (white, black string, ok bool) {
	v := p.Variant()
	side := func(c engine.Colour) (string, bool) {
		royal, others := "", []byte{}
		for _, s := range p.Pieces(c) {
			pt := v.PieceType(p.At(s))
			if pt.Royal {
				if royal != "" {
					return "", false
				}
				royal = string(pt.Letter)
			} else {
				others = append(others, pt.Letter)
			}
		}
		sortPieces(v, others)
		return royal + string(others), royal != ""
	}
	white, okW := side(engine.White)
	black, okB := side(engine.Black)
	return white, black, okW && okB
}

// orient puts the side with more material first (by the variant's piece
// values), so every material has one table.
func orient(v *engine.Variant, m Material) Material {
	value := func(side string) int {
		n := 0
		for i := 1; i < len(side); i++ {
			n += v.Pieces[v.TypeByLetter(side[i])-1].Value*16 + v.TypeByLetter(side[i])
		}
		return n
	}
	if value(m.Weak) > value(m.Strong) {
		return Material{Strong: m.Weak, Weak: m.Strong}
	}
	return m
}

// newGeometry checks a material against the rules the generator models
// (CheckMaterial) and builds its geometry.
func newGeometry(v *engine.Variant, m Material) (*layout.Geometry, error) {
	if err := CheckMaterial(v, m); err != nil {
		return nil, err
	}
	g, err := layout.NewGeometry(v, m.Pieces(v))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m, err)
	}
	return g, nil
}
