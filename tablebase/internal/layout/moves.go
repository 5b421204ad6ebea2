package layout

import (
	"github.com/chimera-chess/chimera/engine"
)

// MoveSet is one way a piece goes on the compact board: its quiet moves,
// its captures, or its quiet moves reversed (the un-moves retrograde
// analysis walks). Pieces that move alike both ways and capture as they
// move (every pawnless chess piece) share one set for all three.
type MoveSet struct {
	Leaps [][]uint8 // by square: targets of plain leaps
	Rays  [][]ray   // by square: lines, nearest square first
	// Line[from*n+to] says how the set reaches `to` from `from` on an
	// empty board: in the low byte 0 not at all, 1 by a leap, 2+k along ray
	// k of `from`; in the high byte, how many squares of that ray come
	// before `to` (they must be empty). Compact, since attack tests read it
	// at random.
	Line []uint16
}

// ray is a line of squares from a square. A lame ray (a blockable leap,
// such as the pawn's double step) has one target, its last square; the
// squares before it must be empty.
type ray struct {
	Sq   []uint8
	Lame bool
	// Double marks a pawn's double step (or its un-move): a lame initial
	// move over one square by a piece that takes en passant, which leaves
	// that square open to an en-passant capture.
	Double bool
}

// Reaches reports whether line entry l is a move on an empty board.
func Reaches(l uint16) bool { return l&0xff != 0 }

// setMode chooses which of a piece's atoms a moveSet holds.
type setMode int

const (
	quietSet   setMode = iota // moves to empty squares
	captureSet                // captures (and so attacks)
	unmoveSet                 // quiet moves reversed
)

// kind is one piece (type and colour) of a table: its move sets and where
// it may stand or promotes.
type kind struct {
	Quiet, Capture, Unmove *MoveSet
	// Banned are the squares the piece never stands on (a pawn on its
	// first rank or in its promotion zone); nil when there are none.
	Banned []bool
	// Promotes are the squares where the piece promotes on arrival; nil
	// when it never does.
	Promotes []bool
	TakesEP  bool // its captures take en passant
}

// buildKind builds a piece's move sets, sharing one set when the piece's
// moves are plain, reversible and the same for capturing.
func (g *Geometry) buildKind(v *engine.Variant, pc engine.Piece) *kind {
	pt := v.PieceType(pc)
	k := &kind{}
	for _, a := range pt.Atoms {
		k.TakesEP = k.TakesEP || (a.EnPassant && !a.MoveOnly)
	}
	if plainReversible(pt) {
		k.Quiet = g.buildSet(v, pt, pc.Colour(), quietSet, k.TakesEP)
		k.Capture, k.Unmove = k.Quiet, k.Quiet
	} else {
		k.Quiet = g.buildSet(v, pt, pc.Colour(), quietSet, k.TakesEP)
		k.Capture = g.buildSet(v, pt, pc.Colour(), captureSet, k.TakesEP)
		k.Unmove = g.buildSet(v, pt, pc.Colour(), unmoveSet, k.TakesEP)
	}
	if pt.Role == engine.RolePawn {
		c := pc.Colour()
		k.Banned = make([]bool, g.N)
		for sq := range g.N {
			rank := sq / g.W
			if c == engine.Black {
				rank = g.H - 1 - rank
			}
			promo := v.PromotionZone[c].Has(g.square[sq])
			k.Banned[sq] = rank == 0 || promo
			if promo && len(v.PromotionTypes) > 0 {
				if k.Promotes == nil {
					k.Promotes = make([]bool, g.N)
				}
				k.Promotes[sq] = true
			}
		}
	}
	return k
}

// plainReversible reports whether every atom is a plain leap or ride that
// moves and captures alike, with each vector's opposite among them: then
// quiet moves, captures and un-moves are one set.
func plainReversible(pt *engine.PieceType) bool {
	type key struct {
		kind engine.AtomKind
		rng  int
		vec  engine.Vector
	}
	set := map[key]bool{}
	for _, a := range pt.Atoms {
		if a.MoveOnly || a.CaptureOnly || a.Initial || a.Lame || a.EnPassant {
			return false
		}
		for _, vec := range a.Vectors {
			set[key{a.Kind, a.Range, vec}] = true
		}
	}
	for k := range set {
		if !set[key{k.kind, k.rng, engine.Vector{DX: -k.vec.DX, DY: -k.vec.DY}}] {
			return false
		}
	}
	return true
}

// buildSet builds one move set of a piece of colour c.
func (g *Geometry) buildSet(v *engine.Variant, pt *engine.PieceType, c engine.Colour, mode setMode, takesEP bool) *MoveSet {
	ms := &MoveSet{Leaps: make([][]uint8, g.N), Rays: make([][]ray, g.N), Line: make([]uint16, g.N*g.N)}
	for from := 0; from < g.N; from++ {
		for _, a := range pt.Atoms {
			if (mode == captureSet && a.MoveOnly) || (mode != captureSet && a.CaptureOnly) {
				continue
			}
			region := v.InitialRegion[c]
			for _, wv := range a.Vectors {
				vec := wv
				if c == engine.Black {
					vec.DY = -vec.DY // vectors are written from White's side
				}
				switch {
				case a.Kind == engine.Ride:
					if mode == unmoveSet {
						vec = engine.Vector{DX: -vec.DX, DY: -vec.DY}
					}
					var sq []uint8
					for t, ok := g.step(from, vec); ok && (a.Range == 0 || len(sq) < a.Range); t, ok = g.step(t, vec) {
						sq = append(sq, uint8(t))
					}
					ms.addRay(g.N, from, ray{Sq: sq})
				case a.Initial && !region.Has(g.square[from]):
					// Not a square the initial move starts from.
				default:
					t, ok := g.step(from, vec)
					if !ok {
						continue
					}
					var path []uint8
					if a.Lame {
						path = g.lamePath(from, vec)
					}
					double := a.Initial && takesEP && len(path) == 1
					origin, target := from, t
					if mode == unmoveSet {
						// The un-move goes back from the target, over the
						// same path, the other way round.
						origin, target = t, from
						for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
							path[i], path[j] = path[j], path[i]
						}
					}
					if len(path) == 0 {
						ms.addLeap(g.N, origin, target)
					} else {
						ms.addRay(g.N, origin, ray{Sq: append(path, uint8(target)), Lame: true, Double: double})
					}
				}
			}
		}
	}
	return ms
}

func (ms *MoveSet) addLeap(n, from, to int) {
	if ms.Line[from*n+to] == 1 {
		return
	}
	ms.Leaps[from] = append(ms.Leaps[from], uint8(to))
	ms.Line[from*n+to] = 1 // a leap cannot be blocked
}

func (ms *MoveSet) addRay(n, from int, r ray) {
	if len(r.Sq) == 0 {
		return
	}
	k := len(ms.Rays[from])
	for i, t := range r.Sq {
		if r.Lame && i < len(r.Sq)-1 {
			continue // a lame ray's path squares are no targets
		}
		if !Reaches(ms.Line[from*n+int(t)]) {
			ms.Line[from*n+int(t)] = uint16(2+k) | uint16(i)<<8
		}
	}
	ms.Rays[from] = append(ms.Rays[from], r)
}

// lamePath lists the squares a lame leap by vec from c must find empty, as
// the rules core reads Betza's n: the squares on a straight line, or for
// an oblique leap the orthogonal first step along its longer component.
func (g *Geometry) lamePath(c int, vec engine.Vector) []uint8 {
	var path []uint8
	for _, off := range engine.LameWalk(vec) {
		t, _ := g.step(c, off)
		path = append(path, uint8(t))
	}
	return path
}

// LineRay returns the ray of set ms that a line entry l from `from` names.
func (ms *MoveSet) LineRay(from int, l uint16) *ray {
	if l&0xff < 2 {
		return nil
	}
	return &ms.Rays[from][l&0xff-2]
}
