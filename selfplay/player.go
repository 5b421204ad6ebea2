package selfplay

import (
	"context"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/search"
)

// Config is one configuration of the engine: a fixed depth, a fixed time
// per move, or a clock. With none set it searches to depth 1.
type Config struct {
	Name     string
	Depth    int
	MoveTime time.Duration
	TC       *game.TimeControl
	HashMB   int
}

// SearchPlayer is a game.Player that searches in-process under a Config.
// It counts the nodes and the time its searches took.
type SearchPlayer struct {
	cfg      Config
	searcher *search.Searcher
	// Nodes and SearchTime add up every search of the player.
	Nodes      uint64
	SearchTime time.Duration
}

// NewSearchPlayer returns a player searching under cfg with a searcher of
// the given options (cfg.HashMB sets the table size when opts does not).
func NewSearchPlayer(cfg Config, opts search.Options) *SearchPlayer {
	if opts.HashMB == 0 {
		opts.HashMB = cfg.HashMB
	}
	return &SearchPlayer{cfg: cfg, searcher: search.New(opts)}
}

// Name returns the configuration's name.
func (p *SearchPlayer) Name() string { return p.cfg.Name }

// NewGame clears the transposition table, so games do not depend on the
// ones before them.
func (p *SearchPlayer) NewGame(context.Context, *engine.Variant) error {
	p.searcher.Clear()
	return nil
}

// Move searches the turn's position under the configuration's limits.
func (p *SearchPlayer) Move(ctx context.Context, t *game.Turn) (string, error) {
	start := time.Now()
	r := p.searcher.Search(ctx, t.Position, p.limits(t.Clock), nil)
	p.SearchTime += time.Since(start)
	p.Nodes += r.Nodes
	if r.Best == engine.NoMove {
		return "0000", nil // no legal move: the referee ends the game first
	}
	return t.Variant.UCI(r.Best), nil
}

// limits returns the search limits for a move.
func (p *SearchPlayer) limits(clock *game.ClockState) search.Limits {
	l := search.Limits{Depth: p.cfg.Depth, MoveTime: p.cfg.MoveTime}
	if p.cfg.TC != nil && clock != nil {
		l.WTime, l.BTime, l.WInc, l.BInc, l.MovesToGo = clock.WTime, clock.BTime, clock.WInc, clock.BInc, clock.MovesToGo
	}
	if l.Depth == 0 && l.MoveTime == 0 && p.cfg.TC == nil {
		l.Depth = 1
	}
	return l
}
