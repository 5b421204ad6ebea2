package search

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
)

// TestTimeBudget: the clock's budget reads the mover's own clock, plans
// for the moves to the next control (50 in sudden death), keeps its
// reserve whatever the clock, and a fixed move time is used as given.
func TestTimeBudget(t *testing.T) {
	const ms = time.Millisecond
	overhead := 10 * ms
	l := Limits{WTime: 10 * time.Second, BTime: 2 * time.Second, WInc: 100 * ms, BInc: 100 * ms}
	soft, hard := l.TimeBudget(engine.White, overhead)
	usable := 10*time.Second - 500*ms - 4*overhead // 5% and four overheads in reserve
	require.Equal(t, usable/50+90*ms*3/4, soft, "a 50th of what is usable and most of the increment")
	require.Equal(t, 4*soft, hard)
	blackSoft, _ := l.TimeBudget(engine.Black, overhead)
	require.Less(t, blackSoft, soft, "Black's own, shorter clock")

	l.MovesToGo = 5
	soft, hard = l.TimeBudget(engine.White, overhead)
	require.Equal(t, usable/5+90*ms*3/4, soft)
	require.Equal(t, usable/3+90*ms, hard, "never a third of the clock on one move")

	for _, left := range []time.Duration{ms, 20 * ms, 300 * ms, time.Second, time.Minute, time.Hour} {
		l := Limits{WTime: left, WInc: 50 * ms, MovesToGo: 1}
		soft, hard := l.TimeBudget(engine.White, overhead)
		require.LessOrEqual(t, soft, hard)
		require.Positive(t, soft)
		if left > 100*ms {
			require.LessOrEqual(t, hard, left-left/20-4*overhead, "the reserve is never spent (%v left)", left)
		}
	}

	// Slow Mover scales the share, within the same caps.
	l = Limits{WTime: 10 * time.Second, WInc: 100 * ms, SlowMover: 50}
	soft, hard = l.TimeBudget(engine.White, overhead)
	require.Equal(t, (usable/50+90*ms*3/4)/2, soft)
	require.Equal(t, 4*soft, hard)
	l.SlowMover = 1000
	soft, hard = l.TimeBudget(engine.White, overhead)
	require.Equal(t, (usable/50+90*ms*3/4)*10, soft)
	require.Equal(t, usable/3+90*ms, hard, "never a third of the clock on one move")

	// nodestime: the soft budget in nodes, the clock dropped.
	l = Limits{WTime: 10 * time.Second, BTime: time.Second, WInc: 100 * ms, Depth: 9}
	soft, _ = l.TimeBudget(engine.White, overhead)
	counted := l.CountNodes(engine.White, overhead, 100)
	require.Equal(t, Limits{Nodes: uint64(soft.Milliseconds()) * 100, Depth: 9}, counted)
	l.Nodes = 1000
	require.Equal(t, uint64(1000), l.CountNodes(engine.White, overhead, 100).Nodes, "the smaller node limit")
	require.Equal(t, l, l.CountNodes(engine.White, overhead, 0), "0: the clock is time")
	require.Equal(t, Limits{Nodes: 99000}, Limits{MoveTime: time.Second}.CountNodes(engine.White, overhead, 100), "a move time too")
	require.Equal(t, Limits{Depth: 3}, Limits{Depth: 3}.CountNodes(engine.White, overhead, 100), "no time to count")

	soft, hard = Limits{MoveTime: time.Second}.TimeBudget(engine.White, overhead)
	require.Equal(t, time.Second-overhead, soft)
	require.Equal(t, soft, hard)
	soft, hard = Limits{Depth: 5}.TimeBudget(engine.White, overhead)
	require.Zero(t, soft+hard, "no clock, no budget")
	soft, hard = Limits{WTime: time.Second, Infinite: true}.TimeBudget(engine.White, overhead)
	require.Zero(t, soft+hard, "infinite wins")
}

// TestTimeManagerScale: a best move that keeps changing, or a score that
// drops, earns more than the optimum; a settled one less; within bounds.
func TestTimeManagerScale(t *testing.T) {
	a, b := engine.Move(1), engine.Move(2)
	settled := &timeManager{optimum: time.Second, hard: 4 * time.Second}
	for range 6 {
		settled.iterationDone(a, 20)
	}
	require.Equal(t, 0.6, settled.scale())
	require.True(t, settled.enough(600*time.Millisecond))
	require.False(t, settled.enough(500*time.Millisecond))

	unsettled := &timeManager{optimum: time.Second, hard: 4 * time.Second}
	for range 3 {
		unsettled.iterationDone(a, 20)
		unsettled.iterationDone(b, 20)
	}
	require.Greater(t, unsettled.scale(), 1.9)

	dropping := &timeManager{optimum: time.Second, hard: 4 * time.Second}
	dropping.iterationDone(a, 100)
	dropping.iterationDone(a, 0)
	require.Equal(t, 1.6, dropping.scale())
	dropping.iterationDone(a, MateIn(3))
	require.Equal(t, 1.0, dropping.scale(), "a mate score is no drop")

	for range 20 {
		unsettled.iterationDone(b, 500)
		unsettled.iterationDone(b, -500)
		unsettled.iterationDone(a, -900)
	}
	require.LessOrEqual(t, unsettled.scale(), 2.5)
	require.Greater(t, unsettled.scale(), 1.0)
	require.False(t, unsettled.enough(time.Second), "more than the optimum")
	require.True(t, unsettled.enough(time.Duration(2.5*float64(time.Second))), "at most 2.5 optimums")
	short := &timeManager{optimum: time.Second, hard: 1500 * time.Millisecond}
	short.iterationDone(a, 100)
	short.iterationDone(b, 0)
	require.True(t, short.enough(1500*time.Millisecond), "never beyond the hard bound")

	fixed := &timeManager{optimum: time.Second, hard: 4 * time.Second, fixed: true}
	fixed.iterationDone(a, 100)
	fixed.iterationDone(b, -100)
	require.Equal(t, 1.0, fixed.scale())
	mt := &timeManager{optimum: time.Second, hard: time.Second}
	require.False(t, mt.enough(999*time.Millisecond))
	require.True(t, mt.enough(time.Second), "a move time is used in full")
}
