package variants_test

import (
	"math/rand/v2"
	"strings"
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

// TestShuffledStart: Capablanca random arrays keep the king between the
// rooks and the bishops on squares of both colours, mirror Black's, and
// parse; a start position that cannot be shuffled comes back unchanged.
func TestShuffledStart(t *testing.T) {
	v, err := variants.Lookup("caparandom")
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 200 {
		fen := variants.ShuffledStart(v.StartFEN, rng.IntN)
		ranks := strings.Split(strings.Fields(fen)[0], "/")
		white := ranks[7]
		require.Equal(t, strings.ToLower(white), ranks[0], fen)
		require.Len(t, white, 10)
		k, r1, r2 := strings.IndexByte(white, 'K'), strings.IndexByte(white, 'R'), strings.LastIndexByte(white, 'R')
		require.True(t, r1 < k && k < r2, "king between the rooks: %s", white)
		b1, b2 := strings.IndexByte(white, 'B'), strings.LastIndexByte(white, 'B')
		require.NotEqual(t, b1%2, b2%2, "bishops on both colours: %s", white)
		require.ElementsMatch(t, []byte("RNABQKBCNR"), []byte(white))
		_, err := v.ParseFEN(fen)
		require.NoError(t, err)
		seen[white] = true
	}
	require.Greater(t, len(seen), 150, "the arrays vary")
	odd := "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
	require.Equal(t, odd, variants.ShuffledStart(odd, rng.IntN))
}
