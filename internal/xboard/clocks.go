package xboard

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// clocks are the time control (level or st) and the latest clock
// readings (time, otim: the engine's and its opponent's).
type clocks struct {
	movesPerControl int           // level's MPS: 0 for the whole game
	base, inc       time.Duration // level's BASE and INC
	perMove         time.Duration // st: exactly this long a move
	own, other      time.Duration // time and otim readings
	known           bool          // a time reading came since new
}

// newGame forgets the readings (the controls stay, as the protocol says).
func (c *clocks) newGame() {
	c.known = false
	c.own, c.other = c.base, c.base
}

// level reads "MPS BASE INC": BASE in minutes or minutes:seconds, INC in
// seconds.
func (c *clocks) level(arg string) error {
	f := strings.Fields(arg)
	if len(f) != 3 {
		return errors.New("want level MPS BASE INC")
	}
	mps, err := strconv.Atoi(f[0])
	if err != nil || mps < 0 {
		return errors.New("moves per control must be a whole number")
	}
	minutes, seconds, hasSeconds := strings.Cut(f[1], ":")
	m, err := strconv.ParseFloat(minutes, 64)
	if err != nil || m < 0 {
		return errors.New("base time must be minutes or minutes:seconds")
	}
	base := time.Duration(m * float64(time.Minute))
	if hasSeconds {
		sec, err := strconv.Atoi(seconds)
		if err != nil || sec < 0 || sec > 59 {
			return errors.New("base time must be minutes or minutes:seconds")
		}
		base += time.Duration(sec) * time.Second
	}
	inc, err := strconv.ParseFloat(f[2], 64)
	if err != nil || inc < 0 {
		return errors.New("increment must be seconds")
	}
	c.movesPerControl, c.base, c.inc, c.perMove = mps, base, time.Duration(inc*float64(time.Second)), 0
	if !c.known {
		c.own, c.other = base, base
	}
	return nil
}

// moveTime reads st: seconds a move.
func (c *clocks) moveTime(arg string) error {
	sec, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
	if err != nil || sec <= 0 {
		return errors.New("want seconds a move")
	}
	c.perMove = time.Duration(sec * float64(time.Second))
	return nil
}

// reading reads a clock in centiseconds (time, otim); a negative one (the
// GUI is late) counts as empty.
func (c *clocks) reading(arg string, into *time.Duration) error {
	cs, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil {
		return errors.New("want centiseconds")
	}
	*into = time.Duration(max(cs, 0)) * 10 * time.Millisecond
	c.known = true
	return nil
}

// limits are the search limits for the engine playing side, with plies
// moves of the game played and a depth limit (0: none).
func (c *clocks) limits(pos *engine.Position, side engine.Colour, plies, depth int) search.Limits {
	l := search.Limits{Depth: depth}
	switch {
	case c.perMove > 0:
		l.MoveTime = c.perMove
	case c.base > 0 || c.known:
		own, other := max(c.own, time.Millisecond), max(c.other, time.Millisecond)
		l.WTime, l.BTime, l.WInc, l.BInc = own, other, c.inc, c.inc
		if side == engine.Black {
			l.WTime, l.BTime = other, own
		}
		if c.movesPerControl > 0 {
			played := (plies + int(pos.SideToMove()^side)) / 2 // the engine's moves so far
			l.MovesToGo = c.movesPerControl - played%c.movesPerControl
		}
	case depth == 0:
		l.MoveTime = 5 * time.Second // no clock at all: a sensible default
	}
	return l
}
