// Package tune learns the tuned evaluation's weights for a variant from
// the variant's own games, on one machine: it plays the engine against
// itself (package selfplay, searches limited by nodes, random openings),
// samples the quiet positions of the games labelled with their results,
// and fits the weights of the generic feature set (package eval) by the
// Texel method (fit.go). Built-in variants and users' variant files alike:
// a variant is data, and so are its weights.
package tune

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/selfplay"
	"github.com/chimera-chess/chimera/variants"
)

// Config is one tuning run.
type Config struct {
	Variant *engine.Variant
	// Catalogue is the catalogue Variant comes from (default: the
	// built-ins), which the games' engines read a weights file with.
	Catalogue *variants.Catalogue
	// Start are the weights the fit starts from and the evaluation the
	// games and labels are played with (a second round learns from
	// better games); nil starts from the documents' formula and plays
	// with it.
	Start *eval.Weights
	// Samples, when set, are the positions to learn from; EPD, when set
	// instead, holds them as labelled positions (ReadEPD's format, read
	// with Start's evaluation); otherwise Positions of them are
	// collected from games. Positions bounds the positions read too.
	Samples   []Sample
	EPD       io.Reader
	Positions int
	// Nodes per move in the games, RandomPlies opening them at random,
	// Skip more plies not sampled, PerGame positions at most sampled from
	// a game, MaxPlies drawing a game that long.
	Nodes                                uint64
	RandomPlies, Skip, PerGame, MaxPlies int
	Seed                                 uint64
	// HeldOut is the share of the samples kept out of the fit to measure
	// it (default 0.1).
	HeldOut float64
	// LabelNodes, when above 0, searches every sample's position that
	// many nodes (with the games' evaluation) for a second label
	// (label.go). The fit weighs SearchShare of a sample's search label
	// against its game's result wherever it has one (searched here or
	// given labelled); the others are fitted on their result alone. A
	// share with no search label to weigh (LabelNodes 0, no Samples) is
	// refused.
	LabelNodes  uint64
	SearchShare float64
	// Resolve replaces every sample by the end of its quiescence line
	// (searched with the games' evaluation) before it is labelled: the
	// position where the static evaluation stands, a capture no longer
	// pending (label.go).
	Resolve bool
	// Iterations, Rate and Regularisation steer the fit (see Fit).
	Iterations     int
	Rate           float64
	Regularisation float64
	// Fit, when not empty, names the weights the fit moves: the features
	// whose names begin with one of these prefixes ("threat", "check N");
	// the others keep their start.
	Fit []string
	// Omit names features left out: weight zero, not fitted (prefixes as
	// Fit's; "threat" also names "threats tomove"). The fit starts from
	// Start with them zeroed; the games and labels use Start as it is.
	// An evaluation does not compute the check features when all their
	// weights are zero, nor the threat features (threat, hanging, threats
	// tomove) when all of theirs are: on boards beyond 64 squares they
	// cost about a fifth of its time a node.
	Omit []string
	// Save, when set, is given the positions sampled from the games, before they are resolved or labelled: WriteEPD
	// keeps them for another fit (Samples, from ReadEPD) without the
	// games.
	Save func([]Sample) error
	// Workers play games and compute gradients (default: every CPU).
	Workers int
	// OnGames, OnLabel and OnFit, when set, follow the three stages.
	OnGames func(samples, games int)
	OnLabel func(done, total int)
	OnFit   func(done int, train, held float64)
}

// Report says what a run did.
type Report struct {
	Samples, Train, Held int
	Losses               Losses
}

// Layout returns the features the run fits: Variant's.
func (cfg Config) Layout() *eval.Layout { return eval.NewLayout(cfg.Variant) }

// Run tunes the weights: collects the samples (unless given) and fits
// them. A Config that Validate refuses is refused before any game is
// played or position read. It stops early, with ctx's error, when ctx
// is done.
func Run(ctx context.Context, cfg Config) (*eval.Weights, Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, Report{}, err
	}
	layout := cfg.Layout()
	start := cfg.Start
	if start == nil {
		start = eval.DocumentsWeights(layout)
	}
	free, omitted, err := freeFeatures(layout, cfg.Fit, cfg.Omit)
	if err != nil {
		return nil, Report{}, err
	}
	samples := cfg.Samples
	switch {
	case cfg.EPD != nil:
		if samples, err = ReadEPD(cfg.EPD, cfg.Variant, eval.NewTuned(start), cfg.Positions); err != nil {
			return nil, Report{}, &ConfigError{Field: "EPD", Err: err}
		}
		err = cfg.label(ctx, start, samples)
	case samples == nil:
		samples, err = cfg.play(ctx, start)
	default:
		err = cfg.label(ctx, start, samples)
	}
	if err != nil {
		return nil, Report{}, err
	}
	if len(samples) < 10 {
		return nil, Report{}, errors.New("fewer than 10 positions to learn from")
	}
	train, held := split(samples, cfg.HeldOut, cfg.Seed)
	f := &Fit{Layout: layout, Train: train, Held: held, Iterations: cfg.Iterations, Rate: cfg.Rate,
		Regularisation: cfg.Regularisation, Free: free, SearchShare: cfg.SearchShare, Workers: cfg.Workers, Progress: cfg.OnFit}
	w, losses := f.Run(ctx, withoutOmitted(start, omitted))
	return w, Report{Samples: len(samples), Train: len(train), Held: len(held), Losses: losses}, ctx.Err()
}

// play collects Positions samples from self-play games.
func (cfg *Config) play(ctx context.Context, start *eval.Weights) ([]Sample, error) {
	player := selfplay.Config{Name: "Chimera", Nodes: cfg.Nodes, HashMB: 1, Catalogue: cfg.Catalogue, Evaluator: cfg.evaluator(start)}
	games := &Games{Variant: cfg.Variant, Player: player, RandomPlies: cfg.RandomPlies, Skip: cfg.Skip, PerGame: cfg.PerGame,
		MaxPlies: cfg.MaxPlies, Seed: cfg.Seed, Positions: cfg.Positions, Workers: cfg.Workers, Progress: cfg.OnGames}
	samples, err := games.Play(ctx, eval.NewTuned(start))
	if err != nil {
		return nil, err
	}
	if cfg.Save != nil {
		if err := cfg.Save(samples); err != nil {
			return nil, err
		}
	}
	return samples, cfg.label(ctx, start, samples)
}

// evaluator returns the evaluation the games and labels are played with:
// the start weights when Start gives them, nil (the documents' formula)
// otherwise. One evaluation serves every game: it is not changed by a
// search.
func (cfg *Config) evaluator(start *eval.Weights) func(*engine.Variant) eval.Evaluator {
	if cfg.Start == nil {
		return nil
	}
	tuned := eval.NewTuned(start)
	return func(*engine.Variant) eval.Evaluator { return tuned }
}

// label resolves the samples' positions when Resolve asks for it, and
// searches them when LabelNodes does, with the evaluation the games were
// played with.
func (cfg *Config) label(ctx context.Context, start *eval.Weights, samples []Sample) error {
	if cfg.LabelNodes == 0 && !cfg.Resolve {
		return nil
	}
	l := &Labeller{Variant: cfg.Variant, Nodes: cfg.LabelNodes, Workers: cfg.Workers, Evaluation: cfg.evaluator(start)}
	if cfg.Resolve {
		l.Resolve = eval.NewTuned(start)
	}
	if cfg.OnLabel != nil {
		total := len(samples)
		l.Progress = func(done int) { cfg.OnLabel(done, total) }
	}
	return l.Label(ctx, samples)
}

// split keeps a share of the games (by the seed) out of the fit: whole
// games, so no game's result is on both sides.
func split(samples []Sample, heldOut float64, seed uint64) (train, held []Sample) {
	if heldOut <= 0 || heldOut >= 1 {
		heldOut = 0.1
	}
	for _, s := range samples {
		h := rand.New(rand.NewPCG(seed, uint64(s.Game))).Float64()
		if h < heldOut {
			held = append(held, s)
		} else {
			train = append(train, s)
		}
	}
	return train, held
}

// withoutOmitted returns start with the omitted features' weights zero
// (start itself when none is), so the fit, which does not move them,
// ends with them zero too.
func withoutOmitted(start *eval.Weights, omitted []bool) *eval.Weights {
	if omitted == nil {
		return start
	}
	w := start.Clone()
	for i, out := range omitted {
		if out {
			w.Set(i, 0, 0)
		}
	}
	return w
}
