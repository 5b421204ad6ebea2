package compare

import (
	"errors"
	"fmt"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Perfect is the perfect play a comparison measures the search against:
// it chooses the start positions, plays the defence and judges every
// move of the search. Two sources implement it: Chimera's own tables
// (OwnTables, by distance to mate) and Syzygy's (SyzygyTables, by
// distance to zeroing under the fifty-move rule). The strong side is
// White, and the search plays it.
//
// Its methods are called from several goroutines at once, each with a
// position of its own, which they may make and unmake moves on and leave
// as it was. An error means the judge cannot say: it ends the comparison.
type Perfect interface {
	// Starts returns up to n random legal positions of the ending that
	// White, to move, wins within the move rule (no cursed wins); the
	// same seed gives the same positions. None found is an error.
	Starts(n int, seed uint64) ([]*engine.Position, error)
	// Optimum returns the moves (White's) perfect play of both sides
	// takes from a start to mate: the length "moves used" is measured
	// against.
	Optimum(start *engine.Position) (int, error)
	// Best returns the side to move's perfect moves, the one perfect play
	// plays first: the defender's move, and the moves a search's move
	// counts as optimal among. None when the game is over.
	Best(pos *engine.Position) ([]engine.Move, error)
	// Lost reports whether the side to move still loses, the move rule
	// aside: after the search's move, false is a win thrown.
	Lost(pos *engine.Position) (bool, error)
	// RuleDrawn reports whether the side to move, winning, no longer wins
	// within the move rule with its clock as it stands: perfect defence
	// would have the rule draw it.
	RuleDrawn(pos *engine.Position) (bool, error)
}

// OwnTables is perfect play by Chimera's own tables: wins within the rule
// from the table, the defence's longest resistance to mate, optimal
// moves those that keep the shortest mate, the optimum the distance to
// mate.
type OwnTables struct {
	Table *tablebase.Table
	// Store finds (builds when missing) the smaller tables captures and
	// promotions lead to.
	Store *tablebase.Store
}

// Starts implements Perfect: tablebase.RandomWinsInTime.
func (o *OwnTables) Starts(n int, seed uint64) ([]*engine.Position, error) {
	starts := tablebase.RandomWinsInTime(o.Table, n, seed)
	if len(starts) == 0 {
		return nil, fmt.Errorf("no won positions found for %s", o.Table.Material)
	}
	return starts, nil
}

// Optimum implements Perfect: the start's distance to mate.
func (o *OwnTables) Optimum(start *engine.Position) (int, error) {
	r, err := o.Table.Probe(start)
	return (r.DTM + 1) / 2, err
}

// Best implements Perfect: the table's moves that keep the shortest mate
// or the longest resistance.
func (o *OwnTables) Best(pos *engine.Position) ([]engine.Move, error) {
	table, err := o.Store.Find(pos, tablebase.Build)
	if err != nil {
		return nil, err
	}
	_, best, err := table.Moves(pos, o.Store.Finder(tablebase.Build))
	return best, err
}

// Lost implements Perfect: the table's value, which knows no move rule.
func (o *OwnTables) Lost(pos *engine.Position) (bool, error) {
	table, err := o.Store.Find(pos, tablebase.Build)
	if err != nil {
		return false, err
	}
	r, err := table.Probe(pos)
	return r.WDL < 0, err
}

// RuleDrawn implements Perfect: the distance to zeroing no longer fits
// the clock. A table without distances to zeroing (a variant without a
// move rule) has no rule to draw by.
func (o *OwnTables) RuleDrawn(pos *engine.Position) (bool, error) {
	table, err := o.Store.Find(pos, tablebase.Build)
	if err != nil {
		return false, err
	}
	d, err := table.ProbeDTZ(pos)
	if errors.Is(err, tablebase.ErrNoDTZ) {
		return false, nil
	}
	return err == nil && d > 0 && !table.InTime(pos, d), err
}
