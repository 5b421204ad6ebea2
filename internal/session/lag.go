package session

import (
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// lagMeter measures the time a move costs outside the engine's own
// reckoning: pipes both ways, the GUI's bookkeeping and, on a busy
// machine, the wait before the engine's threads run at all. It compares
// the clock the GUI sends with the clock the engine expected after its
// previous move (its time then, less what it spent from go to bestmove,
// plus the increment); the difference is lag. The estimate is a decaying
// maximum, so one bad move counts for several moves.
type lagMeter struct {
	last     *clockedMove // the engine's previous move on a clock, if any
	pending  *clockedMove // the search under way, until its result
	estimate time.Duration
}

// clockedMove is one move the engine made on a clock.
type clockedMove struct {
	side      engine.Colour
	left, inc time.Duration
	start     time.Time
	spent     time.Duration
}

// maxLag bounds a measurement: a larger gap is a new game or clock, not lag.
const maxLag = time.Second

// started records a search on a clock and updates the estimate from the
// clock the GUI sent; ponder searches and searches without a clock reset
// the comparison.
func (m *lagMeter) started(l search.Limits, side engine.Colour, ponder bool, now time.Time) {
	m.pending = nil
	left, inc := l.WTime, l.WInc
	if side == engine.Black {
		left, inc = l.BTime, l.BInc
	}
	if ponder || left <= 0 || l.MoveTime > 0 || l.Infinite {
		m.last = nil
		return
	}
	if p := m.last; p != nil && p.side == side {
		expected := p.left - p.spent + p.inc
		if lag := expected - left; lag >= 0 && lag < maxLag {
			m.estimate = max(lag, m.estimate*7/8)
		}
	}
	m.pending = &clockedMove{side: side, left: left, inc: inc, start: now}
}

// answered records that the search under way gave its move now.
func (m *lagMeter) answered(now time.Time) {
	if p := m.pending; p != nil {
		p.spent = now.Sub(p.start)
		m.last, m.pending = p, nil
	}
}

// reset forgets the previous move (a new game).
func (m *lagMeter) reset() { m.last, m.pending = nil, nil }
