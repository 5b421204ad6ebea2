package engine

// Colour is a side: White or Black.
type Colour uint8

// The two sides.
const (
	White Colour = 0
	Black Colour = 1
)

// Other returns the opposing side.
func (c Colour) Other() Colour { return c ^ 1 }

// String returns "white" or "black".
func (c Colour) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Piece is what stands on a square: 0 for empty, otherwise type<<1 | colour,
// where type is the 1-based index into the variant's piece types.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of the given type index (1-based) and colour.
func MakePiece(typ int, c Colour) Piece { return Piece(typ<<1) | Piece(c) }

// Type returns the piece's 1-based type index, 0 for an empty square.
func (p Piece) Type() int { return int(p >> 1) }

// Colour returns the piece's side.
func (p Piece) Colour() Colour { return Colour(p & 1) }

// Role says what a piece type is to the rules that name roles: pawns promote
// and move without a SAN letter, castling moves the king, and insufficient
// material counts knights and bishops. Movement never depends on the role.
type Role uint8

// The roles. RoleOther is every fairy piece.
const (
	RoleOther Role = iota
	RolePawn
	RoleKnight
	RoleBishop
	RoleRook
	RoleQueen
	RoleKing
)

// AtomKind is how an atom's vectors are used.
type AtomKind uint8

// The atom kinds.
const (
	// Leap jumps by each vector to the target square, over anything.
	Leap AtomKind = iota
	// Ride repeats each vector until blocked, up to Range steps if Range > 0.
	Ride
	// Hop moves along each vector's line over exactly the first piece met
	// (of either colour) and lands on the square just beyond it (grasshopper).
	Hop
	// Cannon moves along each vector's line over exactly one piece and lands
	// on any empty square beyond it, or captures the first piece there
	// (Betza's p, the xiangqi cannon's capture).
	Cannon
)

// Vector is a step in files (DX) and ranks (DY), from White's point of view;
// Black uses it mirrored across the middle rank (DY negated).
type Vector struct{ DX, DY int }

// Atom is one way a piece moves, Betza-style: a kind, the vectors it uses and
// modifiers. Vectors are listed explicitly (all the symmetric images that
// apply), so direction restrictions are simply vectors left out.
type Atom struct {
	Kind    AtomKind
	Vectors []Vector
	// Range limits a Ride to this many steps; 0 means unlimited.
	Range int
	// MoveOnly: the atom never captures. CaptureOnly: it only captures.
	MoveOnly, CaptureOnly bool
	// Lame makes a Leap blockable: every square of its walk to the target
	// must be empty (the straight line; for an oblique leap, orthogonal
	// steps then diagonal ones: the xiangqi horse's first step).
	Lame bool
	// Initial restricts the atom to squares of the variant's initial region
	// for the piece's colour (the pawn double step), or of From when set
	// (a triple step from another region).
	Initial bool
	From    *[2]SquareSet
	// EnPassant lets a capturing atom take en passant.
	EnPassant bool
}

// PieceType defines a kind of piece.
type PieceType struct {
	// Name is a human-readable name ("knight").
	Name string
	// Key is the variants.ini key the piece was defined by (shogiPawn,
	// customPiece1), whatever Name says (dobutsu's chick is a
	// shogiPawn): where a protocol orders pieces as Fairy-Stockfish does
	// (the hands of USI's SFEN), it orders them by it. Notation, not
	// rules: the variant's fingerprint leaves it out.
	Key string `fingerprint:"-"`
	// Letter is the uppercase FEN letter; Black's pieces use the lowercase.
	Letter byte
	// Value is the material value in centipawns.
	Value int
	// Royal pieces may not be left attacked (check) and are mated.
	Royal bool
	// Role tells the few role-dependent rules what the piece is.
	Role Role
	// Betza is the piece's movement in Betza notation, for people; the
	// Atoms are what the rules use.
	Betza string
	// Atoms are the ways the piece moves and captures.
	Atoms []Atom
	// Region, when set, confines the piece to its colour's squares: every
	// move ends there, although a ride may pass outside (xiangqi's palace
	// for the general and advisors, the own half for the elephants).
	Region *[2]SquareSet
	// SparesOwnKind: as a cannon, the piece neither jumps over nor
	// captures a piece of its own type (janggi's cannon).
	SparesOwnKind bool
}

// Symmetric returns the up to eight distinct images of (dx, dy) under the
// board's reflections and quarter-turns, as Betza's plain atoms use.
func Symmetric(dx, dy int) []Vector {
	var out []Vector
	for _, v := range []Vector{{dx, dy}, {dy, dx}} {
		for _, sx := range []int{1, -1} {
			for _, sy := range []int{1, -1} {
				w := Vector{v.DX * sx, v.DY * sy}
				if !containsVector(out, w) {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

func containsVector(vs []Vector, v Vector) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

// Leaper returns a leap atom over all images of (dx, dy).
func Leaper(dx, dy int) Atom { return Atom{Kind: Leap, Vectors: Symmetric(dx, dy)} }

// Rider returns an unlimited ride atom over all images of (dx, dy).
func Rider(dx, dy int) Atom { return Atom{Kind: Ride, Vectors: Symmetric(dx, dy)} }
