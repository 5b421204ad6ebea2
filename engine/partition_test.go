package engine_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/randomgames"
	"github.com/chimera-chess/chimera/variants"
)

// TestCapturesAndQuietsPartitionTheMoves plays random games of every
// built-in variant: in each position LegalCaptures and LegalQuiets must
// split LegalMoves between them, each legal move in exactly one (a
// search that hands out the captures first and generates the quiet moves
// later would otherwise play an illegal move, or miss or repeat one).
func TestCapturesAndQuietsPartitionTheMoves(t *testing.T) {
	games, plies := 3, 120
	if testing.Short() {
		games, plies = 1, 60
	}
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		positions := append([]*engine.Position{v.StartPosition()}, randomgames.Positions(v, games, plies, uint64(len(name)))...)
		for _, p := range positions {
			legal := p.LegalMoves(nil)
			captures := p.LegalCaptures(nil)
			quiets := p.LegalQuiets(nil)
			for _, m := range captures {
				if !slices.Contains(legal, m) || slices.Contains(quiets, m) {
					require.Contains(t, legal, m, "%s %s: capture %s", name, p.FEN(), v.UCI(m))
					require.NotContains(t, quiets, m, "%s %s: %s is a capture and a quiet move", name, p.FEN(), v.UCI(m))
				}
			}
			rest := slices.DeleteFunc(slices.Clone(legal), func(m engine.Move) bool { return slices.Contains(captures, m) })
			slices.Sort(rest)
			if sorted := slices.Sorted(slices.Values(quiets)); !slices.Equal(rest, sorted) {
				require.Equal(t, uciAll(v, rest), uciAll(v, sorted), "%s %s: the quiet moves", name, p.FEN())
			}
			require.Len(t, legal, len(captures)+len(quiets), "%s %s: a move twice", name, p.FEN())
		}
	}
}

// uciAll spells moves in UCI, for failure messages.
func uciAll(v *engine.Variant, moves []engine.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = v.UCI(m)
	}
	return out
}
