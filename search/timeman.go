package search

import (
	"time"

	"github.com/chimera-chess/chimera/engine"
)

// timeManager decides, after each iteration, whether the search has
// thought long enough. The clock gives an optimum (the budget's soft
// bound) and a hard maximum; the optimum is scaled by how settled the
// search is: a best move that has not changed for several iterations
// needs less time, one that keeps changing or a score that drops needs
// more (never beyond the hard bound, which stops the search at once).
type timeManager struct {
	optimum, hard time.Duration
	// fixed keeps the optimum as it is: where the evaluation is blind to
	// the goal, a stable best move is no sign that the search is right.
	fixed bool
	// Since the last iteration: how unsettled the best move is (decayed
	// changes), how many iterations it has stayed the same, and the
	// scores seen.
	instability float64
	stable      int
	best        engine.Move
	scores      []Score
}

// newTimeManager returns the time manager for limits (with zero bounds
// when no time limit applies).
func newTimeManager(l Limits, side engine.Colour, overhead time.Duration) *timeManager {
	soft, hard := l.budget(side, overhead)
	return &timeManager{optimum: soft, hard: hard}
}

// iterationDone records a completed iteration's best move and score.
func (t *timeManager) iterationDone(best engine.Move, score Score) {
	t.instability /= 2
	if best != t.best && t.best != engine.NoMove {
		t.instability++
		t.stable = 0
	} else {
		t.stable++
	}
	t.best = best
	t.scores = append(t.scores, score)
}

// scale returns the factor the optimum is multiplied by.
func (t *timeManager) scale() float64 {
	if t.fixed {
		return 1
	}
	f := 1 + t.instability // up to about 2 for a move that changes each time
	if t.stable >= 4 {
		f *= 0.6 // settled: save the time for later moves
	}
	if n := len(t.scores); n >= 2 {
		last, before := t.scores[n-1], t.scores[n-2]
		if !last.IsMate() && !before.IsMate() {
			switch drop := before - last; {
			case drop > 80:
				f *= 1.6
			case drop > 25:
				f *= 1.25
			}
		}
	}
	return max(min(f, 2.5), 0.4)
}

// enough reports whether, elapsed into the search, another iteration
// should not be started. A fixed move time is always used in full.
func (t *timeManager) enough(elapsed time.Duration) bool {
	if t.optimum <= 0 {
		return false
	}
	if t.optimum == t.hard { // movetime: no judgement to make
		return elapsed >= t.optimum
	}
	target := time.Duration(float64(t.optimum) * t.scale())
	return elapsed >= min(target, t.hard)
}
