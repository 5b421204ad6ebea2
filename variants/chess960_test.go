package variants_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestChess960Arrays: Scharnagl's numbering gives 960 distinct legal
// arrays (bishops on both colours, king between the rooks), chess's as
// number 518, and each start position plays.
func TestChess960Arrays(t *testing.T) {
	v, err := variants.Lookup("chess960")
	require.NoError(t, err)
	seen := map[string]bool{}
	for n := range 960 {
		a, err := variants.Chess960Array(n)
		require.NoError(t, err)
		require.False(t, seen[a], "%d: %s twice", n, a)
		seen[a] = true
		var bishops, rooks []int
		king := -1
		for i, c := range []byte(a) {
			switch c {
			case 'B':
				bishops = append(bishops, i)
			case 'R':
				rooks = append(rooks, i)
			case 'K':
				king = i
			}
		}
		require.Len(t, bishops, 2, a)
		require.NotEqual(t, bishops[0]%2, bishops[1]%2, a)
		require.Len(t, rooks, 2, a)
		require.True(t, rooks[0] < king && king < rooks[1], a)
		fen, err := variants.Chess960FEN(n)
		require.NoError(t, err)
		p, err := v.ParseFEN(fen)
		require.NoError(t, err, fen)
		require.Equal(t, fen, p.FEN())
	}
	a, err := variants.Chess960Array(518)
	require.NoError(t, err)
	require.Equal(t, "RNBQKBNR", a)
	first, _ := variants.Chess960Array(0)
	require.Equal(t, "BBQNNRKR", first)
	_, err = variants.Chess960Array(960)
	require.Error(t, err)
}
