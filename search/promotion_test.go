package search

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestNearPromotion: the squares a pawn step short of the zone, per
// colour, and none where promoting gains less than a pawn or is limited.
func TestNearPromotion(t *testing.T) {
	for _, tc := range []struct {
		variant      string
		white, black int // the rank (from 0) of each colour's squares, -1: none
	}{
		{"chess", 6, 1},
		{"capablanca", 6, 1},
		{"grand", -1, -1}, // promotion only to captured pieces
		{"makruk", -1, -1},
		{"shatranj", -1, -1},
	} {
		v, err := variants.Lookup(tc.variant)
		require.NoError(t, err)
		near := nearPromotion(v)
		for c, rank := range []int{tc.white, tc.black} {
			want := engine.SquareSet{}
			if rank >= 0 {
				want = engine.RankSet(rank, v.Width)
			}
			require.Equal(t, want, near[c], "%s colour %d", tc.variant, c)
		}
	}
}
