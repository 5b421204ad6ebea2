package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// TestLagMeter: the lag is what the clock lost beyond the engine's own
// time from go to bestmove, net of the increment; the estimate keeps the
// worst recent lag and decays; new games, ponder and other sides reset it.
func TestLagMeter(t *testing.T) {
	ms := time.Millisecond
	var m lagMeter
	t0 := time.Unix(0, 0)
	clock := func(left time.Duration) search.Limits {
		return search.Limits{WTime: left, BTime: left, WInc: 10 * ms, BInc: 10 * ms}
	}
	m.started(clock(1000*ms), engine.White, false, t0)
	m.answered(t0.Add(100 * ms)) // spent 100 ms
	// Expected 1000 - 100 + 10 = 910; the GUI says 870: 40 ms of lag.
	m.started(clock(870*ms), engine.White, false, t0.Add(time.Second))
	require.Equal(t, 40*ms, m.estimate)
	m.answered(t0.Add(time.Second + 50*ms))
	// 870 - 50 + 10 = 830, the GUI says 820: 10 ms, but the worst decays slowly.
	m.started(clock(820*ms), engine.White, false, t0.Add(2*time.Second))
	require.Equal(t, 35*ms, m.estimate)
	m.answered(t0.Add(2*time.Second + 10*ms))
	// A new clock (more time than expected) is not lag.
	m.started(clock(60000*ms), engine.White, false, t0.Add(3*time.Second))
	require.Equal(t, 35*ms, m.estimate)
	// Ponder searches and new games break the chain of comparisons.
	m.started(clock(500*ms), engine.White, true, t0.Add(4*time.Second))
	require.Nil(t, m.last)
	m.reset()
	require.Nil(t, m.pending)
}
