package gen_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzProbePawnTable: any FEN the rules accept is answered by the KPvKP
// table of pawnProbeTables' board (5x6, or 4x5 under -short) when it
// covers it (en passant and all), or refused with an error, never a
// crash; a win is an odd number of plies.
func FuzzProbePawnTable(f *testing.F) {
	v := pawnProbeTables().Variant(f)
	tb := pawnProbeTables().Get(f, "KPvKP")
	for _, seed := range pawnFENs(v).seeds {
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
