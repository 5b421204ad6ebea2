package explorer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestWorkQueueCheapestFirst: with the one worker busy, the jobs that
// arrive run cheapest first (equal costs in order of arrival), and past
// the capacity a job is refused.
func TestWorkQueueCheapestFirst(t *testing.T) {
	q := newWorkQueue(context.Background(), 1, 4)
	release := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	var order []int64
	require.True(t, q.submit(1000, func() { close(started); <-release }))
	<-started
	for _, cost := range []int64{500, 7, 300, 7} {
		require.True(t, q.submit(cost, func() {
			mu.Lock()
			order = append(order, cost)
			mu.Unlock()
		}))
	}
	require.False(t, q.submit(1, func() {}), "a fifth job waiting is over the capacity of 4")
	waiting, running := q.load()
	require.Equal(t, 4, waiting)
	require.Equal(t, 1, running)
	close(release)
	q.wait()
	require.Equal(t, []int64{7, 7, 300, 500}, order)
}

// TestWorkQueueShutdown: once the server's context is done, waiting jobs
// are dropped and new ones refused.
func TestWorkQueueShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	q := newWorkQueue(ctx, 1, 8)
	release := make(chan struct{})
	ran := false
	require.True(t, q.submit(1, func() { <-release }))
	require.True(t, q.submit(2, func() { ran = true }))
	cancel()
	close(release)
	q.wait()
	require.False(t, ran, "a job waiting at shutdown does not run")
	require.False(t, q.submit(1, func() {}))
}

// TestClientLimits: a client has its burst, then waits one interval per
// request (said in the retry time); another client is not affected; the
// allowance comes back with time.
func TestClientLimits(t *testing.T) {
	now := time.Unix(0, 0)
	l := newClientLimits(2, 10*time.Second)
	l.now = func() time.Time { return now }
	for range 2 {
		ok, _ := l.take("a")
		require.True(t, ok)
	}
	ok, wait := l.take("a")
	require.False(t, ok)
	require.Equal(t, 10*time.Second, wait)
	ok, _ = l.take("b")
	require.True(t, ok, "another client has its own allowance")
	now = now.Add(4 * time.Second)
	ok, wait = l.take("a")
	require.False(t, ok)
	require.Equal(t, 6*time.Second, wait)
	now = now.Add(6 * time.Second)
	ok, _ = l.take("a")
	require.True(t, ok)
}
