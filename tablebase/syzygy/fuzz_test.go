package syzygy

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fuzzSeeds are the small files of testdata the fuzzer starts from: a
// pawnless and a pawn table of each kind, constant ones, like sides.
var fuzzSeeds = []string{
	"KQvK.rtbw", "KRvK.rtbw", "KPvK.rtbw", "KBvKB.rtbw", "KNvK.rtbw",
	"KQvK.rtbz", "KPvK.rtbz", "KBvK.rtbz", "KRvKR.rtbz",
}

// FuzzTableFile reads arbitrary bytes as a table file (which of the
// seeds' names and kinds it is, by the first argument): an error, or a
// layout whose lookups answer or fail, never a crash, whatever the
// placement looked up.
func FuzzTableFile(f *testing.F) {
	type named struct {
		kind     fileKind
		material material
		boards   []*board
	}
	var seeds []named
	rng := rand.New(rand.NewPCG(5, 6))
	for i, name := range fuzzSeeds {
		data, err := os.ReadFile(filepath.Join("testdata", "regular", name))
		require.NoError(f, err)
		ext := filepath.Ext(name)
		m, ok := parseTableName(strings.TrimSuffix(name, ext))
		require.True(f, ok, name)
		kind := wdlFile
		if ext == dtzFile.extension() {
			kind = dtzFile
		}
		s := named{kind: kind, material: m}
		for range 24 {
			s.boards = append(s.boards, randomBoard(rng, m))
		}
		seeds = append(seeds, s)
		f.Add(uint8(i), data)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		s := seeds[int(which)%len(seeds)]
		l, err := parseLayout(data, s.kind, s.material)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		for _, b := range s.boards {
			if s.kind == wdlFile {
				_, _ = l.wdl(data, b)
				continue
			}
			for _, w := range []WDL{Loss, BlessedLoss, CursedWin, Win} {
				_, _, _ = l.dtz(data, b, w)
			}
		}
	})
}

// randomBoard places m's pieces, either way round, on random distinct
// squares (pawns off the last ranks; kings may touch: the lookup must
// refuse, not crash), either side to move.
func randomBoard(rng *rand.Rand, m material) *board {
	if rng.IntN(2) == 0 {
		m = m.mirrored()
	}
	b := &board{material: m, blackToMove: rng.IntN(2) == 0}
	var taken [64]bool
	for c := 0; c < 2; c++ {
		for t := pawn; t <= king; t++ {
			for range m.count(c, t) {
				s := uint8(rng.IntN(64))
				for taken[s] || (t == pawn && (s < 8 || s >= 56)) {
					s = uint8(rng.IntN(64))
				}
				taken[s] = true
				b.insert(makeCode(t, c), s)
			}
		}
	}
	return b
}
