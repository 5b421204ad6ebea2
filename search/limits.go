package search

import (
	"sync/atomic"
	"time"

	"github.com/chimera-chess/chimera/engine"
)

// Limits bound one search. Zero values mean "no limit"; with no limit at
// all the search runs until it is stopped (or reaches MaxPly).
type Limits struct {
	Depth    int           // plies
	Nodes    uint64        // nodes searched
	Mate     int           // stop once a mate in this many moves is found
	MoveTime time.Duration // time for this move
	// The clock: time left and increment per move for each side, and the
	// moves until the next time control (0: sudden death).
	WTime, BTime, WInc, BInc time.Duration
	MovesToGo                int
	// Infinite searches until stopped, whatever else is set.
	Infinite bool
	// SearchMoves restricts the root to these moves.
	SearchMoves []engine.Move
	// MultiPV is the number of best lines to report (default 1).
	MultiPV int
	// SlowMover is the share of the usual clock budget to spend, in
	// percent (0: 100); the reserve the clock keeps is never spent.
	SlowMover int
	// Skill, when set below MaxSkill, weakens the search to a player's
	// level (see Skill).
	Skill *Skill
	// Analysis (UCI_AnalyseMode) searches for a person studying the
	// position, not for a move in a game: the search never ends early on
	// its own judgement (one legal move, a mate found within the depth
	// searched, the root's table answering at once), so every line it
	// reports is searched as deep as its limits allow.
	Analysis bool
	// Later, when set, may be granted a number of nodes while the search
	// runs: it then stops after that many more, infinite or not.
	Later *NodeBudget
}

// NodeBudget is a node limit given to a search while it runs: a ponder
// search's budget at ponderhit when UCI's nodestime counts the clock in
// nodes (a timer would count it in wall time). Its owner makes one per
// search; the search reads it, on its main thread.
type NodeBudget struct{ more atomic.Uint64 }

// Grant lets the search go on for n more nodes (at least one), counted
// from when it sees the grant.
func (b *NodeBudget) Grant(n uint64) { b.more.Store(max(n, 1)) }

// TimeBudget returns how long a search with these limits may think for
// side: soft is when not to start another iteration, hard when to stop at
// once (zero: unlimited). The UCI layer uses it when a ponder search
// becomes a real one.
func (l Limits) TimeBudget(side engine.Colour, overhead time.Duration) (soft, hard time.Duration) {
	return l.budget(side, overhead)
}

// clock reports whether the limits include a clock.
func (l Limits) clock() bool { return l.WTime > 0 || l.BTime > 0 }

// budget returns how long to search: soft is when not to start another
// iteration, hard when to stop at once. Zero means unlimited. overhead is
// subtracted for communication delays. The clock budget spends a share of
// the remaining time plus most of the increment and always keeps a safety
// margin, so a move never loses on time.
func (l Limits) budget(side engine.Colour, overhead time.Duration) (soft, hard time.Duration) {
	if l.Infinite {
		return 0, 0
	}
	if l.MoveTime > 0 {
		t := max(l.MoveTime-overhead, time.Millisecond)
		return t, t
	}
	if !l.clock() {
		return 0, 0
	}
	left, inc := l.WTime, l.WInc
	if side == engine.Black {
		left, inc = l.BTime, l.BInc
	}
	// Sudden death: plan for 50 more moves (fast games run long).
	movesToGo := 50
	if l.MovesToGo > 0 {
		movesToGo = min(l.MovesToGo, 50)
	}
	// Every move costs the overhead beyond the search (pipes, the GUI, a
	// busy machine's scheduling; measured by the session): keep four
	// moves' worth and 5% of the clock in reserve, never spend them (a
	// stall of that length on a loaded machine must not flag), and count
	// only the increment the overhead leaves.
	usable := left - left/20 - 4*overhead
	if usable <= 0 {
		return time.Millisecond, time.Millisecond
	}
	inc = max(inc-overhead, 0)
	soft = usable/time.Duration(movesToGo) + inc*3/4
	if l.SlowMover > 0 {
		soft = soft * time.Duration(l.SlowMover) / 100
	}
	hard = min(soft*4, usable/3+inc)
	soft = min(soft, usable)
	hard = max(min(hard, usable), soft)
	return max(soft, time.Millisecond), max(hard, time.Millisecond)
}

// CountNodes returns the limits with time counted in nodes, perMS a
// millisecond (UCI's nodestime): the move's soft budget on the clock, or
// its fixed move time, becomes a node limit (the smaller, with one
// already set), and the time limits are dropped, so a game on a clock is
// the same on any machine. Limits without time, and perMS 0, are
// returned as they are.
func (l Limits) CountNodes(side engine.Colour, overhead time.Duration, perMS int) Limits {
	if perMS <= 0 || l.Infinite || (!l.clock() && l.MoveTime <= 0) {
		return l
	}
	soft, _ := l.budget(side, overhead)
	nodes := uint64(max(soft.Milliseconds(), 1)) * uint64(perMS)
	if l.Nodes == 0 || nodes < l.Nodes {
		l.Nodes = nodes
	}
	l.WTime, l.BTime, l.WInc, l.BInc, l.MovesToGo, l.MoveTime = 0, 0, 0, 0, 0, 0
	return l
}

// Less returns the limits after d of this move's time is gone (spent
// before the search started): off side's clock and off a fixed move time.
func (l Limits) Less(side engine.Colour, d time.Duration) Limits {
	clock := &l.WTime
	if side == engine.Black {
		clock = &l.BTime
	}
	if *clock > 0 {
		*clock = max(*clock-d, time.Millisecond)
	}
	if l.MoveTime > 0 {
		l.MoveTime = max(l.MoveTime-d, time.Millisecond)
	}
	return l
}
