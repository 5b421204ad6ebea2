package gen_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzProbePawnTable: any FEN the rules accept is answered by the KPvKP
// table of the 5x6 board when it covers it (en passant and all), or
// refused with an error, never a crash; a win is an odd number of plies.
func FuzzProbePawnTable(f *testing.F) {
	v := pawnProbeTables().Variant(f)
	tb := pawnProbeTables().Get(f, "KPvKP")
	for _, seed := range []string{"k4/5/1Pp2/5/5/4K b - b3 0 1", "k4/5/1Pp2/5/5/4K b - - 0 1", "k4/2p2/5/5/1P3/4K w - - 0 1",
		"k4/5/1pP2/5/5/4K w - b4 0 1", "5/5/5/5/5/5 w - - 0 1", "k4/P4/5/5/p4/4K w - - 0 1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := v.ParseFEN(fen)
		if err != nil || !tb.Covers(p) {
			return
		}
		r, err := tb.Probe(p)
		if err != nil {
			return
		}
		switch {
		case r.WDL > 0:
			require.Equal(t, 1, r.DTM%2, fen)
		case r.WDL < 0:
			require.Equal(t, 0, -r.DTM%2, fen)
		default:
			require.Zero(t, r.DTM, fen)
		}
	})
}
