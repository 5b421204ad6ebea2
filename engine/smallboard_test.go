package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// narrowRiders is a user's variant whose riders step across more files in
// one step than most: a nightrider on five files. A square's bit on a
// small board is rank·width+file, and the masks' ray reach relies on every
// ray running one way through the bits, which a step of (±2, ∓1) on a
// narrow board tests.
const narrowRiders = `
[narrowriders:chess]
maxRank = 7
maxFile = 5
castling = false
customPiece1 = a:NN
customPiece2 = c:NNF
startFen = rakcb/ppppp/5/5/5/PPPPP/RAKCB w - - 0 1
`

// TestSmallBoardMobility plays random games in every variant whose board
// has at most 64 squares, and narrowRiders, and checks in every position
// that the masks' mobility (ray reach, leaps, blockable leaps) equals the
// count made by walking each ray square by square.
func TestSmallBoardMobility(t *testing.T) {
	games, plies := 3, 80
	if testing.Short() {
		games = 1
	}
	cat := variants.Builtin()
	require.NoError(t, cat.Load("narrowriders.ini", []byte(narrowRiders)))
	require.Contains(t, cat.Names(), "narrowriders")
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		if v.Width*v.Height > 64 {
			continue
		}
		rng := rand.New(rand.NewPCG(11, uint64(len(name))))
		for range games {
			p := v.StartPosition()
			for ply := 0; ply < plies; ply++ {
				w, b := p.Mobilities()
				lw, lb := p.MobilitiesByLoop()
				require.Equal(t, [2]int{lw, lb}, [2]int{w, b}, "%s %s: mobility", name, p.FEN())
				moves := p.LegalMoves(nil)
				if len(moves) == 0 || p.Result().Over() {
					break
				}
				p.Make(moves[rng.IntN(len(moves))])
			}
		}
	}
}
