package game

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a PGN-style time control: Moves moves in Base time (0:
// the whole game), plus Increment per move.
type TimeControl struct {
	Moves     int
	Base      time.Duration
	Increment time.Duration
}

// ParseTimeControl reads "40/60+0.5" (40 moves in 60 s plus 0.5 s a move),
// "60+0.5" or "60"; times are in seconds.
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	rest := s
	if moves, after, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(moves)
		if err != nil || n <= 0 {
			return tc, fmt.Errorf("time control %q: bad move count %q", s, moves)
		}
		tc.Moves, rest = n, after
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	b, err := strconv.ParseFloat(base, 64)
	if err != nil || b <= 0 || b > 1e6 {
		return tc, fmt.Errorf("time control %q: bad base time %q (seconds)", s, base)
	}
	tc.Base = time.Duration(b * float64(time.Second))
	if hasInc {
		i, err := strconv.ParseFloat(inc, 64)
		if err != nil || i < 0 || i > 1e4 {
			return tc, fmt.Errorf("time control %q: bad increment %q (seconds)", s, inc)
		}
		tc.Increment = time.Duration(i * float64(time.Second))
	}
	return tc, nil
}

// String writes the time control as PGN's TimeControl tag does.
func (tc TimeControl) String() string {
	s := strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	if tc.Increment > 0 {
		s += "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
	}
	return s
}

// Clock is one player's clock under a time control.
type Clock struct {
	tc        TimeControl
	Left      time.Duration
	movesMade int
}

// NewClock starts a clock with the control's base time.
func NewClock(tc TimeControl) *Clock { return &Clock{tc: tc, Left: tc.Base} }

// MovesToGo returns the moves until the next time control, 0 when the base
// time is for the whole game.
func (c *Clock) MovesToGo() int {
	if c.tc.Moves == 0 {
		return 0
	}
	return c.tc.Moves - c.movesMade%c.tc.Moves
}

// Increment returns the time added after every move.
func (c *Clock) Increment() time.Duration { return c.tc.Increment }

// Spend records a move that took d. It reports false when the flag fell.
func (c *Clock) Spend(d time.Duration) bool {
	c.Left -= d
	if c.Left < 0 {
		return false
	}
	c.Left += c.tc.Increment
	c.movesMade++
	if c.tc.Moves > 0 && c.movesMade%c.tc.Moves == 0 {
		c.Left += c.tc.Base
	}
	return true
}
