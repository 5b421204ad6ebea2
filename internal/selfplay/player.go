package selfplay

import (
	"context"
	"errors"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/internal/tbbuild"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// Config is one configuration of the engine: a fixed depth, a fixed time
// per move, or a clock. With none set it searches to depth 1.
type Config struct {
	Name     string
	Depth    int
	MoveTime time.Duration
	// Nodes limits each search to that many nodes (a deterministic limit,
	// for the tuner's games).
	Nodes  uint64
	TC     *game.TimeControl
	HashMB int
	// Evaluation and EvalFile set the session options of those names, as
	// a user gives them (default: the documents' evaluation).
	Evaluation, EvalFile string
	// Evaluator, when set instead, is the evaluation as a value: the
	// player searches every variant with the evaluators it makes.
	Evaluator func(*engine.Variant) eval.Evaluator
	// Catalogue holds the variants the player's session knows (default:
	// the built-ins): a user's variant, for an EvalFile made for it.
	Catalogue *variants.Catalogue
	// TablebaseDir, when set, gives the player endgame tables kept there,
	// and builds the missing ones in its idle time, as the UCI engine does.
	TablebaseDir string
	// Store, when set, is the store of TablebaseDir shared with the other
	// player, so that no table is built twice at once.
	Store *tablebase.Store
	// BuildCommand and VariantFiles build tables in child processes (see
	// session.Config).
	BuildCommand tbbuild.Command
	VariantFiles []string
}

// SearchPlayer is a game.Player that searches in-process under a Config,
// through the same engine service (session) as the UCI engine. It counts
// the nodes and the time its searches took.
type SearchPlayer struct {
	cfg  Config
	sess *session.Session
	// Nodes and SearchTime add up every search of the player.
	Nodes      uint64
	SearchTime time.Duration
}

// NewSearchPlayer returns a player searching under cfg with a searcher of
// the given options (cfg.HashMB sets the table size when opts does not).
// Close it when done with it.
func NewSearchPlayer(cfg Config, opts search.Options) *SearchPlayer {
	if opts.HashMB == 0 {
		opts.HashMB = max(cfg.HashMB, 1)
	}
	sess := session.New(session.Config{Searcher: search.New(opts), HashMB: opts.HashMB, Catalogue: cfg.Catalogue, TablebaseDir: cfg.TablebaseDir, Store: cfg.Store,
		BuildCommand: cfg.BuildCommand, VariantFiles: cfg.VariantFiles, Evaluator: cfg.Evaluator})
	if cfg.TablebaseDir == "" {
		must(sess.SetOption("UseTablebase", "false"))
	}
	return &SearchPlayer{cfg: cfg, sess: sess}
}

// NewSearchPlayerChecked is NewSearchPlayer for a configuration whose
// evaluation options come from a user: a bad weights file is an error.
func NewSearchPlayerChecked(cfg Config, opts search.Options) (*SearchPlayer, error) {
	if cfg.Evaluator != nil && (cfg.Evaluation != "" || cfg.EvalFile != "") {
		return nil, errors.New("selfplay: an evaluator and the Evaluation or EvalFile options: give one way")
	}
	p := NewSearchPlayer(cfg, opts)
	if cfg.EvalFile != "" {
		if err := p.sess.SetOption("EvalFile", cfg.EvalFile); err != nil {
			p.Close()
			return nil, err
		}
	}
	if cfg.Evaluation != "" {
		if err := p.sess.SetOption("Evaluation", cfg.Evaluation); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// must panics on an option error: the values above are always valid.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// Close stops the player's background work (building tables).
func (p *SearchPlayer) Close() { p.sess.Close() }

// Name returns the configuration's name.
func (p *SearchPlayer) Name() string { return p.cfg.Name }

// NewGame starts a game of v afresh: an empty transposition table, so
// games do not depend on the ones before them.
func (p *SearchPlayer) NewGame(_ context.Context, v *engine.Variant) error {
	p.sess.SetVariant(v)
	return p.sess.NewGame()
}

// Move searches the turn's position under the configuration's limits.
func (p *SearchPlayer) Move(ctx context.Context, t *game.Turn) (string, error) {
	p.sess.SetPosition(t.Position)
	start := time.Now()
	r := p.sess.Think(ctx, p.limits(t.Clock))
	p.SearchTime += time.Since(start)
	p.Nodes += r.Nodes
	if r.Best == engine.NoMove {
		return "0000", nil // no legal move: the referee ends the game first
	}
	return t.Variant.UCI(r.Best), nil
}

// limits returns the search limits for a move.
func (p *SearchPlayer) limits(clock *game.ClockState) search.Limits {
	l := search.Limits{Depth: p.cfg.Depth, MoveTime: p.cfg.MoveTime, Nodes: p.cfg.Nodes}
	if p.cfg.TC != nil && clock != nil {
		l.WTime, l.BTime, l.WInc, l.BInc, l.MovesToGo = clock.WTime, clock.BTime, clock.WInc, clock.BInc, clock.MovesToGo
	}
	if l.Depth == 0 && l.MoveTime == 0 && l.Nodes == 0 && p.cfg.TC == nil {
		l.Depth = 1
	}
	return l
}
