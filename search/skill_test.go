package search

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestSkillChooses: a weakened choice takes the best line most often at
// high levels and spreads over the lines at low ones; a level of 20 does
// not weaken; the same seed chooses the same.
func TestSkillChooses(t *testing.T) {
	require.Nil(t, newSkillChooser(nil))
	require.Nil(t, newSkillChooser(&Skill{Level: MaxSkill}))
	v := variants.Chess()
	moves := v.StartPosition().LegalMoves(nil)
	lines := []Info{{Score: 50, PV: moves[:1]}, {Score: 20, PV: moves[1:2]}, {Score: -40, PV: moves[2:3]}, {Score: -300, PV: moves[3:4]}}
	bestShare := func(level float64) float64 {
		best := 0
		for seed := range uint64(2000) {
			c := newSkillChooser(&Skill{Level: level, Seed: seed})
			c.choose(lines)
			if c.chosen.PV[0] == moves[0] {
				best++
			}
		}
		return float64(best) / 2000
	}
	low, mid, high := bestShare(0), bestShare(10), bestShare(19)
	require.Less(t, low, mid)
	require.Less(t, mid, high)
	require.Greater(t, high, 0.6)
	require.Less(t, low, 0.5)

	a, b := newSkillChooser(&Skill{Level: 5.5, Seed: 9}), newSkillChooser(&Skill{Level: 5.5, Seed: 9})
	a.choose(lines)
	b.choose(lines)
	require.Equal(t, a.level, b.level)
	require.Equal(t, a.chosen.PV, b.chosen.PV)
}

// TestWeakenedSearchPlaysAReportedLine: a weakened search reports at
// least four lines and plays the first move of one of them.
func TestWeakenedSearchPlaysAReportedLine(t *testing.T) {
	s := New(Options{})
	pos := variants.Chess().StartPosition()
	for seed := range uint64(5) {
		firsts := map[engine.Move]bool{}
		res := s.Search(t.Context(), pos, Limits{Depth: 4, Skill: &Skill{Level: 2, Seed: seed}}, func(i Info) {
			if i.CurrMove == engine.NoMove && len(i.PV) > 0 {
				firsts[i.PV[0]] = true
				require.LessOrEqual(t, i.MultiPV, 4)
			}
		})
		require.True(t, firsts[res.Best], "seed %d: played %v", seed, res.Best)
		require.GreaterOrEqual(t, len(firsts), 4)
	}
}
