package syzygy

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKingPairsNumberedOnce: the 462 king placements have the numbers
// 0–461, each once.
func TestKingPairsNumberedOnce(t *testing.T) {
	seen := make([]bool, kingPairCount)
	for class := range geo.kingPair {
		for s, code := range geo.kingPair[class] {
			if code < 0 {
				continue
			}
			require.Less(t, int(code), kingPairCount)
			require.False(t, seen[code], "class %d square %d", class, s)
			require.False(t, kingsTouch(geo.triangleSquare[class], uint8(s)))
			seen[code] = true
		}
	}
	for code, ok := range seen {
		require.True(t, ok, "code %d unused", code)
	}
}

// TestUniqueTriplesFillTheirRadix: every placement of three unique
// pieces has a number below uniqueTripleCount, placements related by a
// board symmetry share it, and every number is used.
func TestUniqueTriplesFillTheirRadix(t *testing.T) {
	o := placementOrder{count: 3, lead: 3, leading: uniqueTriple}
	seen := make([]bool, uniqueTripleCount)
	for a := uint8(0); a < 64; a++ {
		for b := uint8(0); b < 64; b++ {
			for c := uint8(0); c < 64; c++ {
				if a == b || a == c || b == c {
					continue
				}
				sq := [maxTablePieces]uint8{a, b, c}
				o.foldPawnless(&sq)
				digit, ok := o.leadPieceDigit(&sq)
				if !ok || digit >= uniqueTripleCount {
					t.Fatalf("%d %d %d: number %d", a, b, c, digit)
				}
				seen[digit] = true
				// The mirror image has the same number.
				m := [maxTablePieces]uint8{a ^ fileMirror, b ^ fileMirror, c ^ fileMirror}
				o.foldPawnless(&m)
				if mirrored, _ := o.leadPieceDigit(&m); mirrored != digit {
					t.Fatalf("%d %d %d: number %d, mirrored %d", a, b, c, digit, mirrored)
				}
			}
		}
	}
	for digit, ok := range seen {
		require.True(t, ok, "number %d unused", digit)
	}
}

// TestLeadPawnNumbers: the leading pawns of every placement of up to
// four pawns are numbered below their file's count, and every number is
// used.
func TestLeadPawnNumbers(t *testing.T) {
	for k := 1; k <= 3; k++ {
		seen := [4][]bool{}
		for f := range seen {
			seen[f] = make([]bool, geo.leadCount[k-1][f])
		}
		var place func(from uint8, sq []uint8)
		place = func(from uint8, sq []uint8) {
			if len(sq) == k {
				o := placementOrder{count: k, lead: k, leading: leadPawns}
				var all [maxTablePieces]uint8
				copy(all[:], sq)
				file := leadingPawnFirst(all[:k])
				digit := o.leadPawnDigit(&all)
				require.Less(t, digit, geo.leadCount[k-1][file], "%v", sq)
				seen[file][digit] = true
				return
			}
			for s := from; s < 56; s++ {
				place(s+1, append(sq, s))
			}
		}
		place(8, nil)
		for f := range seen {
			for digit, ok := range seen[f] {
				require.True(t, ok, "%d pawns, file %d: number %d unused", k, f, digit)
			}
		}
	}
}

// TestTriangleAndLower spot-checks the square numberings.
func TestTriangleAndLower(t *testing.T) {
	const a1, b1, d1, a2, b2, d3, d4, e5, h8 = 0, 1, 3, 8, 9, 19, 27, 36, 63
	require.Equal(t, [10]uint8{b1, 2, d1, 10, 11, d3, a1, b2, 18, d4}, geo.triangleSquare)
	require.EqualValues(t, 0, geo.triangle[a2], "a2 folds onto b1")
	require.EqualValues(t, 9, geo.triangle[e5], "e5 folds onto d4")
	require.EqualValues(t, 6, geo.triangle[h8])
	require.EqualValues(t, 0, geo.lower[b1])
	require.EqualValues(t, 0, geo.lower[a2])
	require.EqualValues(t, 28, geo.lower[a1])
	require.EqualValues(t, 35, geo.lower[h8])
	require.EqualValues(t, 47, geo.pawnTwist[a2])
	require.EqualValues(t, 0, geo.pawnTwist[52], "e7")
	require.EqualValues(t, 20*19/2, geo.choose(20, 2))
	require.Zero(t, geo.choose(2, 3))
}

// TestTableNames: Syzygy's names and nothing else.
func TestTableNames(t *testing.T) {
	for _, name := range []string{"KQvKR", "KRPvKR", "KPvKP", "KBNvK", "KQRBNvK", "KRRvKQ", "KvK"} {
		m, ok := parseTableName(name)
		require.True(t, ok, name)
		require.Equal(t, name, m.String())
	}
	for _, name := range []string{"KRvKQ", "KvKR", "QKvK", "KPNvK", "KQvKRv", "KXvK", "K vK", "KQRBNPvKP", "KKvK", "", "v"} {
		_, ok := parseTableName(name)
		require.False(t, ok, name)
	}
	m, _ := parseTableName("KQvKR")
	require.Equal(t, "KRvKQ", m.mirrored().String())
	require.Equal(t, m, m.mirrored().normalForm())
	require.False(t, m.symmetric())
	kk, _ := parseTableName("KRvKR")
	require.True(t, kk.symmetric())
}
