package explorer

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestStatsAbandoned: a count no one asks about any more stops (its
// client went away), leaves nothing behind, and starts again when asked.
func TestStatsAbandoned(t *testing.T) {
	store := gen.NewStore(t.TempDir())
	v := variants.Chess()
	m, err := tablebase.ParseMaterial(v, "KRvK")
	require.NoError(t, err)
	tb, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	q := newWorkQueue(context.Background(), 1, 4)
	c := newStatsCache(context.Background(), store, q, false)
	// The request sees the clock at zero; the count, an hour later.
	var calls atomic.Int32
	start := time.Unix(0, 0)
	c.now = func() time.Time {
		if calls.Add(1) == 1 {
			return start
		}
		return start.Add(time.Hour)
	}
	st, state := c.get(tb, nil)
	require.Nil(t, st)
	require.Equal(t, statsCounting, state)
	q.wait()
	c.mu.Lock()
	require.Empty(t, c.busy)
	require.Empty(t, c.done, "an abandoned count keeps no figures")
	c.mu.Unlock()
	require.NoFileExists(t, c.path(tb.Variant, tb.Material))

	c.now = time.Now
	_, state = c.get(tb, nil)
	require.Equal(t, statsCounting, state, "asked again, the count starts again")
	q.wait()
	st, state = c.get(tb, nil)
	require.Equal(t, statsReady, state)
	require.Equal(t, "KRvK", st.Table)
	require.FileExists(t, c.path(tb.Variant, tb.Material), "the figures are saved beside the table")
}
