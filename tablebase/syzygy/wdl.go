package syzygy

import "strconv"

// WDL is a position's value for the side to move under the fifty-move
// rule, as Syzygy defines it, assuming the position was reached by a
// capture or pawn move (the move counter at zero).
type WDL int8

// The values, in order.
const (
	// Loss: the side to move loses, within the fifty-move rule.
	Loss WDL = -2
	// BlessedLoss: the side to move would lose, but the fifty-move rule
	// saves the draw.
	BlessedLoss WDL = -1
	// Draw: neither side wins.
	Draw WDL = 0
	// CursedWin: the side to move would win, but the fifty-move rule
	// lets the other side draw.
	CursedWin WDL = 1
	// Win: the side to move wins, within the fifty-move rule.
	Win WDL = 2
)

// String names the value: loss, blessed loss, draw, cursed win, win.
func (w WDL) String() string {
	switch w {
	case Loss:
		return "loss"
	case BlessedLoss:
		return "blessed loss"
	case Draw:
		return "draw"
	case CursedWin:
		return "cursed win"
	case Win:
		return "win"
	}
	return "WDL(" + strconv.Itoa(int(w)) + ")"
}

// Result returns the value as win/draw/loss (1, 0, −1) for the side to
// move: under the fifty-move rule (rule50) a cursed win and a blessed
// loss are draws, without it a win and a loss.
func (w WDL) Result(rule50 bool) int {
	switch {
	case w == Win || (w == CursedWin && !rule50):
		return 1
	case w == Loss || (w == BlessedLoss && !rule50):
		return -1
	}
	return 0
}
