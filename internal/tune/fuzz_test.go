package tune_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/tune"
	"github.com/chimera-chess/chimera/variants"
)

// FuzzReadEPD: labelled positions (--epd, a user's file) are read or
// refused with an error naming a line (or saying there is no position),
// never a panic; what is read writes out and reads back the same.
func FuzzReadEPD(f *testing.F) {
	v := variants.Chess()
	e := eval.NewTuned(eval.DocumentsWeights(eval.NewLayout(v)))
	f.Add([]byte(`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 c9 "1-0"; c0 "game 3";` + "\n"))
	f.Add([]byte("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 [0.5]\n# c\n\n4k3/8/8/8/8/8/8/3QK3 b - - 0 1; 0-1\n"))
	f.Add([]byte(`4k3/8/8/8/8/8/8/3QK3 w - - 0 1 c9 "1/2-1/2"; c0 "game 99999999999";`))
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := tune.ReadEPD(bytes.NewReader(data), v, e, 0)
		if err != nil {
			require.Regexp(t, `^line \d+: |^no positions in its \d+ lines`, err.Error())
			return
		}
		require.NotEmpty(t, samples, "a file read holds positions")
		var out bytes.Buffer
		require.NoError(t, tune.WriteEPD(&out, v, samples))
		back, err := tune.ReadEPD(&out, v, e, 0)
		require.NoError(t, err, "its own output reads")
		require.Equal(t, samples, back)
	})
}
