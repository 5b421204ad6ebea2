package engine

import (
	"fmt"
	"math/bits"
	"strconv"
)

// MaxSize is the largest board width and height.
const MaxSize = 16

// NumSquares is the size of square-indexed tables: squares are laid out with
// a fixed stride of MaxSize so that file and rank are bit fields.
const NumSquares = MaxSize * MaxSize

// Square is a board square: rank*16 + file, both counted from zero.
type Square uint8

// NoSquare marks an absent square. Its index is p16's, which is safe only
// where p16 can never be meant: an en-passant square is never on a last rank.
const NoSquare Square = 255

// SquareAt returns the square on the given file and rank (both from zero).
func SquareAt(file, rank int) Square { return Square(rank*MaxSize + file) }

// File returns the square's file, 0 for the a-file.
func (s Square) File() int { return int(s) & (MaxSize - 1) }

// Rank returns the square's rank, 0 for the first rank.
func (s Square) Rank() int { return int(s) / MaxSize }

// shade is the square's colour on the board: 0 for a1's (dark), 1 for the
// other; a bishop stays on one shade.
func (s Square) shade() int { return (s.File() + s.Rank()) & 1 }

// String names the square: a1, j10, p16.
func (s Square) String() string {
	return string(rune('a'+s.File())) + strconv.Itoa(s.Rank()+1)
}

// ParseSquare reads a square name such as "e4" or "j10" for a board of the
// given size.
func ParseSquare(name string, width, height int) (Square, error) {
	sq, n, err := scanSquare(name, width, height)
	if err != nil {
		return 0, err
	}
	if n != len(name) {
		return 0, fmt.Errorf("bad square %q", name)
	}
	return sq, nil
}

// scanSquare reads a square name at the start of s and returns the square and
// the number of bytes it used. Ranks take as many digits as form a valid rank,
// so "a10a9" reads a10 and leaves "a9".
func scanSquare(s string, width, height int) (Square, int, error) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'p' {
		return 0, 0, fmt.Errorf("bad square in %q", s)
	}
	file := int(s[0] - 'a')
	if file >= width {
		return 0, 0, fmt.Errorf("file %c is off the %d-file board", s[0], width)
	}
	n := 1
	rank := 0
	for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '9' {
		next := rank*10 + int(s[n]-'0')
		if n > 1 && next > height {
			break
		}
		rank = next
		n++
	}
	if n == 1 || rank < 1 || s[1] == '0' {
		return 0, 0, fmt.Errorf("bad rank in %q", s)
	}
	if rank > height {
		return 0, 0, fmt.Errorf("rank %d is off the %d-rank board", rank, height)
	}
	return SquareAt(file, rank-1), n, nil
}

// SquareSet is a set of squares, one bit per square index.
type SquareSet [NumSquares / 64]uint64

// Add puts s in the set.
func (b *SquareSet) Add(s Square) { b[s>>6] |= 1 << (s & 63) }

// Remove takes s out of the set.
func (b *SquareSet) Remove(s Square) { b[s>>6] &^= 1 << (s & 63) }

// Union adds every square of o to the set.
func (b *SquareSet) Union(o *SquareSet) {
	for i := range b {
		b[i] |= o[i]
	}
}

// Has reports whether s is in the set.
func (b *SquareSet) Has(s Square) bool { return b[s>>6]&(1<<(s&63)) != 0 }

// Empty reports whether the set has no squares.
func (b *SquareSet) Empty() bool { return b[0]|b[1]|b[2]|b[3] == 0 }

// Count returns the number of squares in the set.
func (b *SquareSet) Count() int {
	return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) + bits.OnesCount64(b[2]) + bits.OnesCount64(b[3])
}

// RankSet returns the set of all squares on the given rank (from zero) of a
// board the given width.
func RankSet(rank, width int) SquareSet {
	var b SquareSet
	for f := 0; f < width; f++ {
		b.Add(SquareAt(f, rank))
	}
	return b
}
