package compare

import (
	"context"
	"fmt"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
)

// Defender is a game.Player that plays perfectly by a source of perfect
// play: Chimera's tables' longest resistance to mate, or Syzygy's slowest
// way to the next zeroing move.
type Defender struct {
	Perfect Perfect
}

// Name returns "tablebase".
func (d *Defender) Name() string { return "tablebase" }

// NewGame does nothing: tables need no preparation.
func (d *Defender) NewGame(context.Context, *engine.Variant) error { return nil }

// Move plays perfect play's first best move. A position it cannot value
// ends the game as the player's crash: the comparison cannot go on.
func (d *Defender) Move(_ context.Context, t *game.Turn) (string, error) {
	best, err := d.Perfect.Best(t.Position)
	if err != nil || len(best) == 0 {
		return "", fmt.Errorf("%w: no tablebase move for %s: %v", game.ErrPlayerGone, t.Position.FEN(), err)
	}
	return t.Variant.UCI(best[0]), nil
}
