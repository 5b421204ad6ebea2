package match_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/match"
	"github.com/chimera-chess/chimera/variants"
)

func TestParseSPRT(t *testing.T) {
	s, err := match.ParseSPRT("elo1=10, elo0=0")
	require.NoError(t, err)
	require.Equal(t, match.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, s)
	lower, upper := s.Bounds()
	require.InDelta(t, -2.944, lower, 1e-3)
	require.InDelta(t, 2.944, upper, 1e-3)
	for _, bad := range []string{"", "elo0=0", "elo0=5,elo1=5", "elo0=0,elo1=x", "elo0=0,elo1=10,gamma=1",
		"elo0=0,elo1=10,alpha=0.7", "elo0=0,elo1=NaN", "elo0=0,elo1=1e9", "elo0"} {
		_, err := match.ParseSPRT(bad)
		require.Error(t, err, bad)
		require.True(t, strings.HasPrefix(err.Error(), "sprt: "), err.Error())
	}
}

func TestLLR(t *testing.T) {
	s := match.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	// The normal approximation's values, worked out by hand (with the
	// quarter pseudo-pair at each end) for these pentanomial counts.
	require.InDelta(t, 1.2578, s.LLR(match.Frequencies{10, 30, 60, 40, 20}), 1e-3)
	require.InDelta(t, -1.7155, s.LLR(match.Frequencies{20, 40, 60, 30, 10}), 1e-3)
	require.Zero(t, s.LLR(match.Frequencies{}))
	// Ten pairs all won 2–0 are enough against elo0=0,elo1=10.
	require.InDelta(t, 3.0482, s.LLR(match.Frequencies{0, 0, 0, 0, 10}), 1e-3)
	require.Equal(t, "H1", s.Decide(match.Frequencies{0, 0, 0, 0, 10}))
	require.Equal(t, "", s.Decide(match.Frequencies{0, 0, 0, 0, 9}))
	require.Equal(t, "H0", s.Decide(match.Frequencies{10, 0, 0, 0, 0}))
	// Trinomial counts (losses, draws, wins in slots 0, 2, 4).
	s = match.SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	require.InDelta(t, 1.5042, s.LLR(match.Frequencies{5, 0, 10, 0, 30}), 1e-3)
}

func TestSPRTStopsTheMatch(t *testing.T) {
	test, err := match.ParseSPRT("elo0=0,elo1=50")
	require.NoError(t, err)
	st, err := match.Run(context.Background(), match.Config{
		Variant: variants.Chess(), Games: 200, TC: tc(t, "1+0.01"), Repeat: true, SPRT: &test,
		Engines: [2]match.EngineSpec{self("chimera"), fakeEngine(t, "illegal", `echo "bestmove e2e5"`)},
	})
	require.NoError(t, err)
	require.Equal(t, "H1", st.Decision)
	require.Less(t, st.Games, 40, "a sure win is decided in a few pairs")
	require.Equal(t, st.Games, st.Wins)
	require.Equal(t, st.Games/2, st.Samples[4], "every pair won 2-0")
}
