package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// TestTimeForBuild pins when a search may wait for a table first: always
// without a clock, half a fixed move time, and on a clock only within the
// move's hard budget and an eighth of the time left.
func TestTimeForBuild(t *testing.T) {
	s := &Session{values: optionValues{overheadMS: 30}}
	sec := time.Second
	for _, tc := range []struct {
		name   string
		limits search.Limits
		cost   time.Duration
		want   bool
	}{
		{"depth", search.Limits{Depth: 10}, time.Minute, true},
		{"infinite", search.Limits{Infinite: true}, time.Minute, true},
		{"movetime fits", search.Limits{MoveTime: 4 * sec}, 2 * sec, true},
		{"movetime too short", search.Limits{MoveTime: 3 * sec}, 2 * sec, false},
		{"20+0.2 at the start", search.Limits{WTime: 20 * sec, BTime: 20 * sec, WInc: 200 * time.Millisecond}, 2 * sec, true},
		{"20+0.2 late", search.Limits{WTime: 8 * sec, BTime: 20 * sec, WInc: 200 * time.Millisecond}, 2 * sec, false},
		{"1+0.01 and a tiny table", search.Limits{WTime: sec, BTime: sec, WInc: 10 * time.Millisecond}, 20 * time.Millisecond, true},
		{"1+0.01 and KBNvK", search.Limits{WTime: sec, BTime: sec, WInc: 10 * time.Millisecond}, 1500 * time.Millisecond, false},
		{"black's clock counts for black", search.Limits{WTime: 60 * sec, BTime: sec}, 500 * time.Millisecond, false},
	} {
		side := engine.White
		if tc.name == "black's clock counts for black" {
			side = engine.Black
		}
		require.Equal(t, tc.want, s.timeForBuild(tc.limits, side, tc.cost), tc.name)
	}
}
