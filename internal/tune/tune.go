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
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

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
	// Start are the weights the fit starts from, and, when StartFile
	// names their file, the evaluation the games are played with (a
	// second round learns from better games); nil starts from the
	// documents' formula and plays with it.
	Start     *eval.Weights
	StartFile string
	// Samples, when set, are the positions to learn from (read from a
	// file); otherwise Positions of them are collected from games.
	Samples   []Sample
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
	// given labelled); the others are fitted on their result alone.
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
// them. It stops early, with ctx's error, when ctx is done.
func Run(ctx context.Context, cfg Config) (*eval.Weights, Report, error) {
	layout := cfg.Layout()
	start := cfg.Start
	if start == nil {
		start = eval.DocumentsWeights(layout)
	}
	// A bad --fit or --omit is refused before any game is played.
	free, omitted, err := FreeFeatures(layout, cfg.Fit, cfg.Omit)
	if err != nil {
		return nil, Report{}, err
	}
	samples := cfg.Samples
	if samples == nil {
		if samples, err = cfg.play(ctx, start); err != nil {
			return nil, Report{}, err
		}
	} else if err := cfg.label(ctx, start, samples); err != nil {
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
	player := selfplay.Config{Name: "Chimera", Nodes: cfg.Nodes, HashMB: 1, Catalogue: cfg.Catalogue}
	if cfg.StartFile != "" {
		player.Evaluation, player.EvalFile = "tuned", cfg.StartFile
	}
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

// label resolves the samples' positions when Resolve asks for it, and
// searches them when LabelNodes does, with the evaluation the games were
// played with: the start weights when they come from a file, the
// documents' formula otherwise.
func (cfg *Config) label(ctx context.Context, start *eval.Weights, samples []Sample) error {
	if cfg.LabelNodes == 0 && !cfg.Resolve {
		return nil
	}
	l := &Labeller{Variant: cfg.Variant, Nodes: cfg.LabelNodes, Workers: cfg.Workers}
	tuned := eval.NewTuned(start)
	if cfg.StartFile != "" {
		l.Evaluation = func(*engine.Variant) eval.Evaluator { return tuned }
	}
	if cfg.Resolve {
		l.Resolve = tuned
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

// FreeFeatures returns, by feature index, the weights the fit moves: the
// features whose names begin with one of fit's prefixes (no prefixes:
// every feature), less the omitted ones, those beginning with one of
// omit's; free is nil when it is every feature, omitted nil when omit is
// empty. A prefix no feature's name begins with is an error.
func FreeFeatures(l *eval.Layout, fit, omit []string) (free, omitted []bool, err error) {
	if len(fit) == 0 && len(omit) == 0 {
		return nil, nil, nil
	}
	if free, err = matchFeatures(l, "--fit", fit); err != nil {
		return nil, nil, err
	}
	if len(fit) == 0 {
		for i := range free {
			free[i] = true
		}
	}
	if len(omit) == 0 {
		return free, nil, nil
	}
	if omitted, err = matchFeatures(l, "--omit", omit); err != nil {
		return nil, nil, err
	}
	for i, out := range omitted {
		free[i] = free[i] && !out
	}
	if !slices.Contains(free, true) {
		return nil, nil, errors.New("--fit and --omit leave no feature to fit")
	}
	return free, omitted, nil
}

// matchFeatures returns, by feature index, the features whose names begin
// with one of the prefixes, or an error naming (after flag) a prefix no
// feature has.
func matchFeatures(l *eval.Layout, flag string, prefixes []string) ([]bool, error) {
	names := l.Names()
	match := make([]bool, len(names))
	for _, prefix := range prefixes {
		// Every name begins with "", which a stray comma would give.
		if strings.TrimSpace(prefix) == "" {
			return nil, fmt.Errorf("%s: an empty prefix (a stray comma?) would name every feature", flag)
		}
		found := false
		for i, name := range names {
			if strings.HasPrefix(name, prefix) {
				match[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%s %q: no feature's name begins so", flag, prefix)
		}
	}
	return match, nil
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
