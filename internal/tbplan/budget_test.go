package tbplan

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBudgetBoundsMemoryAtOnce: generations take their estimates from the
// budget; those running at once never hold more than it, one larger than
// the whole still runs (alone), and an unbounded budget holds nothing.
func TestBudgetBoundsMemoryAtOnce(t *testing.T) {
	b := newBudget(10)
	var held, most atomic.Int64
	var wg sync.WaitGroup
	for _, need := range []int64{4, 4, 4, 7, 3, 25, 2, 6} {
		wg.Go(func() {
			got := b.take(need)
			now := held.Add(got)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			held.Add(-got)
			b.give(got)
		})
	}
	wg.Wait()
	require.LessOrEqual(t, most.Load(), int64(10))
	require.Zero(t, b.used)
	require.Zero(t, newBudget(0).take(1<<40))
}

// TestReserveKeepsAMargin: a generation is given room for its estimate
// and half again: two of chess's five-piece pawn generations estimated at
// 9.9 GiB each (which together reached 24 GB) no longer fit at once in
// the 22 GiB a 24 GiB machine has available.
func TestReserveKeepsAMargin(t *testing.T) {
	const gib = int64(1) << 30
	estimate := 99 * gib / 10
	require.Equal(t, estimate*3/2+256<<20, reserve(estimate))
	b := newBudget(22 * gib)
	first := b.take(reserve(estimate))
	require.Greater(t, b.used+reserve(estimate), b.total, "the second would start beside the first")
	b.give(first)
}
