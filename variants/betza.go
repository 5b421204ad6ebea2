package variants

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chimera-chess/chimera/engine"
)

// Betza notation describes a piece as atoms with modifiers, e.g. "QN" for
// the amazon or "mfFcfeWimfnA" for the Berolina pawn. Supported:
//
//   - leaper atoms W F D N A H C Z G, and (x,y) for any other leap;
//   - K = WF; riders R = WW, B = FF, Q = WWFF; a doubled atom rides (NN is
//     the nightrider); a trailing number limits the range (W2, R4), 0 means
//     unlimited;
//   - m move only, c capture only, i initial move only, n lame (blockable),
//     g grasshopper hop, p cannon hop, e en passant;
//   - directions f b l r v s h: on orthogonal atoms each letter is a
//     direction (v = f+b, s = l+r); on diagonal ones fl fr bl br name one
//     diagonal and a lone letter the two on that side; on oblique atoms a
//     lone letter (or with h, "half": fh) takes the four moves on that side,
//     and ff fs bb bs ll lv rr rv fl fr bl br narrow it to two.
var betzaLeaps = map[byte]engine.Vector{
	'W': {DX: 1}, 'F': {DX: 1, DY: 1}, 'D': {DX: 2}, 'N': {DX: 1, DY: 2}, 'A': {DX: 2, DY: 2},
	'H': {DX: 3}, 'C': {DX: 1, DY: 3}, 'Z': {DX: 2, DY: 3}, 'G': {DX: 3, DY: 3},
}

// betzaShorthands expand into the atoms they stand for, with "ride" true
// for riders.
var betzaShorthands = map[byte][]betzaPart{
	'K': {{betzaLeaps['W'], false}, {betzaLeaps['F'], false}},
	'R': {{betzaLeaps['W'], true}},
	'B': {{betzaLeaps['F'], true}},
	'Q': {{betzaLeaps['W'], true}, {betzaLeaps['F'], true}},
}

// betzaPart is one base vector of an atom letter, ridden or leapt.
type betzaPart struct {
	v    engine.Vector
	ride bool
}

// ParseBetza converts a Betza string into movement atoms. The error names
// the position and the problem.
func ParseBetza(s string) ([]engine.Atom, error) {
	if s == "" {
		return nil, fmt.Errorf("betza: empty piece description")
	}
	var atoms []engine.Atom
	i := 0
	for i < len(s) {
		start := i
		for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
			i++
		}
		mods := s[start:i]
		if i == len(s) {
			return nil, fmt.Errorf("betza %q: modifiers %q at the end with no atom", s, mods)
		}
		var vecs []betzaPart
		atomText := s[i : i+1]
		switch c := s[i]; {
		case c == '(':
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				return nil, fmt.Errorf("betza %q: unclosed ( at %d", s, i+1)
			}
			v, err := parseLeapVector(s[i+1 : i+end])
			if err != nil {
				return nil, fmt.Errorf("betza %q: %w", s, err)
			}
			atomText = s[i : i+end+1]
			i += end + 1
			vecs = append(vecs, betzaPart{v, false})
		case betzaLeaps[c] != (engine.Vector{}):
			i++
			ride := i < len(s) && s[i] == c // a doubled atom rides
			if ride {
				i++
			}
			vecs = append(vecs, betzaPart{betzaLeaps[c], ride})
		case betzaShorthands[c] != nil:
			i++
			vecs = append(vecs, betzaShorthands[c]...)
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, fmt.Errorf("betza %q: unknown atom %q at %d", s, r, utf8.RuneCountInString(s[:i])+1)
		}
		rangeLimit, hasRange := 0, false
		if j := i; j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			n, err := strconv.Atoi(s[j:i])
			if err != nil || n > engine.MaxSize {
				return nil, fmt.Errorf("betza %q: bad range %q", s, s[j:i])
			}
			rangeLimit, hasRange = n, true
		}
		for _, a := range vecs {
			atom, err := makeAtom(a.v, a.ride, rangeLimit, hasRange, mods)
			if err != nil {
				return nil, fmt.Errorf("betza %q: %s%s: %w", s, mods, atomText, err)
			}
			atoms = append(atoms, atom)
		}
	}
	return atoms, nil
}

func parseLeapVector(text string) (engine.Vector, error) {
	a, b, ok := strings.Cut(text, ",")
	x, errX := strconv.Atoi(strings.TrimSpace(a))
	y, errY := strconv.Atoi(strings.TrimSpace(b))
	if !ok || errX != nil || errY != nil || x < 0 || y < 0 || x+y == 0 || x >= engine.MaxSize || y >= engine.MaxSize {
		return engine.Vector{}, fmt.Errorf("bad leap (%s): want (x,y) with 0 <= x, y < %d", text, engine.MaxSize)
	}
	return engine.Vector{DX: x, DY: y}, nil
}

// makeAtom builds one atom from a base vector and the modifier letters.
func makeAtom(base engine.Vector, ride bool, rangeLimit int, hasRange bool, mods string) (engine.Atom, error) {
	a := engine.Atom{Kind: engine.Leap}
	switch {
	case ride:
		a.Kind, a.Range = engine.Ride, rangeLimit
	case hasRange && rangeLimit != 1:
		a.Kind, a.Range = engine.Ride, rangeLimit
	}
	var dirs []byte
	move, capture := false, false
	for i := 0; i < len(mods); i++ {
		switch c := mods[i]; c {
		case 'm':
			move = true
		case 'c':
			capture = true
		case 'i':
			a.Initial = true
		case 'n':
			a.Lame = true
		case 'e':
			a.EnPassant = true
		case 'g':
			a.Kind = engine.Hop
		case 'f', 'b', 'l', 'r', 'v', 's', 'h':
			dirs = append(dirs, c)
		case 'p':
			a.Kind = engine.Cannon
		default:
			return a, fmt.Errorf("unknown modifier %q", c)
		}
	}
	if (a.Kind == engine.Hop || a.Kind == engine.Cannon) && (base.DX != base.DY && base.DX != 0 && base.DY != 0) {
		return a, fmt.Errorf("a hop needs an orthogonal or diagonal line")
	}
	if move != capture {
		a.MoveOnly, a.CaptureOnly = move, capture
	}
	if a.EnPassant && a.MoveOnly {
		return a, fmt.Errorf("en passant on a move-only atom")
	}
	vs, err := filterDirections(engine.Symmetric(base.DX, base.DY), dirs)
	if err != nil {
		return a, err
	}
	a.Vectors = vs
	return a, nil
}

// filterDirections keeps the vectors that any direction term selects.
func filterDirections(all []engine.Vector, dirs []byte) ([]engine.Vector, error) {
	if len(dirs) == 0 {
		return all, nil
	}
	v0 := all[0]
	kind := "oblique"
	switch {
	case v0.DX == 0 || v0.DY == 0:
		kind = "orthogonal"
	case abs(v0.DX) == abs(v0.DY):
		kind = "diagonal"
	}
	var terms []func(engine.Vector) bool
	for i := 0; i < len(dirs); i++ {
		if i+1 < len(dirs) && kind != "orthogonal" {
			if t := pairTerm(dirs[i], dirs[i+1], kind); t != nil {
				terms = append(terms, t)
				i++
				continue
			}
		}
		terms = append(terms, singleTerm(dirs[i], kind))
	}
	var out []engine.Vector
	for _, v := range all {
		for _, t := range terms {
			if t(v) {
				out = append(out, v)
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("directions %q leave no move", dirs)
	}
	return out, nil
}

func singleTerm(d byte, kind string) func(engine.Vector) bool {
	switch d {
	case 'f':
		return func(v engine.Vector) bool { return v.DY > 0 }
	case 'b':
		return func(v engine.Vector) bool { return v.DY < 0 }
	case 'l':
		return func(v engine.Vector) bool { return v.DX < 0 }
	case 'r':
		return func(v engine.Vector) bool { return v.DX > 0 }
	case 'v':
		if kind == "diagonal" {
			return func(engine.Vector) bool { return true }
		}
		return func(v engine.Vector) bool { return abs(v.DY) > abs(v.DX) }
	case 's':
		if kind == "diagonal" {
			return func(engine.Vector) bool { return true }
		}
		return func(v engine.Vector) bool { return abs(v.DX) > abs(v.DY) }
	}
	return func(engine.Vector) bool { return true } // h alone: no restriction
}

// pairTerm returns the term for two direction letters that name a narrower
// set together, or nil when they do not pair.
func pairTerm(a, b byte, kind string) func(engine.Vector) bool {
	side := func(d byte) func(engine.Vector) bool { return singleTerm(d, "oblique") }
	vertical := func(d byte) bool { return d == 'f' || d == 'b' }
	horizontal := func(d byte) bool { return d == 'l' || d == 'r' }
	switch {
	case vertical(a) && horizontal(b), horizontal(a) && vertical(b):
		sa, sb := side(a), side(b)
		return func(v engine.Vector) bool { return sa(v) && sb(v) }
	case kind == "diagonal":
		return nil
	case b == 'h' && (vertical(a) || horizontal(a)):
		return side(a)
	case a == b && (vertical(a) || horizontal(a)):
		sa, along := side(a), singleTerm(map[bool]byte{true: 'v', false: 's'}[vertical(a)], "oblique")
		return func(v engine.Vector) bool { return sa(v) && along(v) }
	case vertical(a) && b == 's', horizontal(a) && b == 'v':
		sa, across := side(a), singleTerm(b, "oblique")
		return func(v engine.Vector) bool { return sa(v) && across(v) }
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
