package eval_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/variants"
)

// FuzzParseWeights: a weights file (EvalFile, a user's) either parses into
// weights that write out and parse back the same, or is refused with an
// error; it never panics.
func FuzzParseWeights(f *testing.F) {
	v := variants.Chess()
	shipped, ok := eval.Shipped(v)
	require.True(f, ok)
	var buf bytes.Buffer
	require.NoError(f, shipped.Write(&buf))
	f.Add(buf.Bytes())
	f.Add([]byte("chimera-weights 1\nvariant chess 8x8 PNBRQK\nmaterial P 90 110\n"))
	f.Add([]byte("chimera-weights 1\nvariant chess 8x8 PNBRQK\nthreat N x 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := eval.ParseWeights(v, data)
		if err != nil {
			require.Nil(t, w)
			return
		}
		var out bytes.Buffer
		require.NoError(t, w.Write(&out))
		back, err := eval.ParseWeights(v, out.Bytes())
		require.NoError(t, err, "its own output parses")
		for i := range w.Layout().Len() {
			a1, b1 := w.Get(i)
			a2, b2 := back.Get(i)
			require.Equal(t, [2]int{a1, b1}, [2]int{a2, b2})
		}
	})
}
