package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
)

func TestParseTimeControl(t *testing.T) {
	for s, want := range map[string]game.TimeControl{
		"40/60+0.5": {Moves: 40, Base: 60 * time.Second, Increment: 500 * time.Millisecond},
		"60+0.5":    {Base: 60 * time.Second, Increment: 500 * time.Millisecond},
		"1+0.01":    {Base: time.Second, Increment: 10 * time.Millisecond},
		"10":        {Base: 10 * time.Second},
	} {
		tc, err := game.ParseTimeControl(s)
		require.NoError(t, err, s)
		require.Equal(t, want, tc, s)
		require.Equal(t, s, tc.String())
	}
	for _, bad := range []string{"", "x", "40/", "0/60", "60+x", "-5", "60+-1", "/60"} {
		_, err := game.ParseTimeControl(bad)
		require.Error(t, err, bad)
	}
}

func TestClock(t *testing.T) {
	c := game.NewClock(game.TimeControl{Moves: 2, Base: time.Second, Increment: 100 * time.Millisecond})
	require.Equal(t, 2, c.MovesToGo())
	require.True(t, c.Spend(300*time.Millisecond))
	require.Equal(t, 800*time.Millisecond, c.Left)
	require.Equal(t, 1, c.MovesToGo())
	require.True(t, c.Spend(300*time.Millisecond))
	require.Equal(t, 1600*time.Millisecond, c.Left, "a new control adds the base time")
	require.False(t, c.Spend(2*time.Second), "the flag falls")
}

func TestOutcomeFor(t *testing.T) {
	for result, want := range map[string][2]engine.Outcome{
		"1-0": {engine.Win, engine.Loss}, "0-1": {engine.Loss, engine.Win},
		"1/2-1/2": {engine.Draw, engine.Draw}, "*": {engine.Draw, engine.Draw},
	} {
		rec := &game.Record{Result: result}
		require.Equal(t, want, [2]engine.Outcome{rec.OutcomeFor(engine.White), rec.OutcomeFor(engine.Black)}, result)
	}
}
