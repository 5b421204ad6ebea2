package compare

import (
	"context"
	"fmt"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/tablebase"
)

// Defender is a game.Player that plays perfectly from a tablebase: a
// winning move that mates soonest, or the longest resistance.
type Defender struct {
	Store *tablebase.Store
}

// Name returns "tablebase".
func (d *Defender) Name() string { return "tablebase" }

// NewGame does nothing: tables need no preparation.
func (d *Defender) NewGame(context.Context, *engine.Variant) error { return nil }

// Move plays the table's first best move. A position no table covers
// ends the game as the player's crash: the comparison cannot go on.
func (d *Defender) Move(_ context.Context, t *game.Turn) (string, error) {
	table, err := d.Store.Find(t.Position, tablebase.Build)
	if err != nil {
		return "", fmt.Errorf("%w: no table for %s: %v", game.ErrPlayerGone, t.Position.FEN(), err)
	}
	_, best, err := table.Moves(t.Position, d.Store.Finder(tablebase.Build))
	if err != nil || len(best) == 0 {
		return "", fmt.Errorf("%w: no tablebase move for %s: %v", game.ErrPlayerGone, t.Position.FEN(), err)
	}
	return t.Variant.UCI(best[0]), nil
}
