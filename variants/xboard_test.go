package variants_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestXBoardMoves: ten-rank boards count ranks from 0 in XBoard's
// coordinates; other boards are written as UCI writes them.
func TestXBoardMoves(t *testing.T) {
	for _, tc := range []struct {
		height  int
		uci, xb string
	}{
		{8, "e2e4", "e2e4"}, {8, "e7e8q", "e7e8q"},
		{10, "d2d4", "d1d3"}, {10, "a10a9", "a9a8"}, {10, "e9e10q", "e8e9q"},
		{16, "a15a16", "a15a16"},
	} {
		require.Equal(t, tc.xb, variants.ToXBoardMove(tc.height, tc.uci))
		require.Equal(t, tc.uci, variants.FromXBoardMove(tc.height, tc.xb))
	}
}
