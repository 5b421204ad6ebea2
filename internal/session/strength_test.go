package session

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/search"
)

// TestLevelForElo: the calibration rises with the rating, stays within
// the skill levels, and interpolates between its points.
func TestLevelForElo(t *testing.T) {
	prev := -1.0
	for elo := MinElo - 100; elo <= MaxElo+100; elo += 10 {
		l := levelForElo(elo)
		require.GreaterOrEqual(t, l, prev, "elo %d", elo)
		require.True(t, l >= 0 && l < search.MaxSkill, "elo %d: level %v", elo, l)
		prev = l
	}
	for _, p := range chessCalibration {
		require.InDelta(t, p.level, levelForElo(p.elo), 1e-9)
	}
	a, b := chessCalibration[1], chessCalibration[2]
	require.InDelta(t, (a.level+b.level)/2, levelForElo((a.elo+b.elo)/2), 1e-9)
}
