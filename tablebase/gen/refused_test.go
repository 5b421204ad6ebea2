package gen_test

import (
	"testing"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestPiecePromotionIsRefused: a knight that promotes by piece
// (promotedPieceType = n:q) got a KNvK table that tb verify rejected with
// thousands of disagreements; such tables are refused now, while the
// tables of pieces that do not promote stay available.
func TestPiecePromotionIsRefused(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("promo.ini", []byte("[promochess:chess]\npromotedPieceType = n:q\n")))
	v, err := cat.Lookup("promochess")
	require.NoError(t, err)
	for _, m := range []string{"KNvK", "KQvKN"} {
		mat, err := tablebase.ParseMaterial(v, m)
		require.NoError(t, err)
		err = tablebase.CheckMaterial(v, mat)
		require.ErrorContains(t, err, "optional promotion by piece (promotedPieceType)", m)
		_, err = gen.Generate(v, mat, nil, nil)
		require.Error(t, err, m)
	}
	mat, err := tablebase.ParseMaterial(v, "KRvK")
	require.NoError(t, err)
	require.NoError(t, tablebase.CheckMaterial(v, mat))
	require.NoError(t, tablebase.CheckVariant(v))
}
