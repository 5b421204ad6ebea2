package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/internal/tune"
)

func newTuneCommand() *cobra.Command {
	var (
		vf                                  variantFlags
		out, from, epd, savePositions       string
		positions, nodes, randomPlies, skip int
		maxPlies, threads, iterations, seed int
		perGame, labelNodes                 int
		rate, regularisation, heldOut       float64
		searchShare                         float64
		fit, omit                           []string
		resolve                             bool
	)
	cmd := &cobra.Command{
		Use:   "tune --variant V --out FILE [--positions N] [--from FILE [--fit PREFIXES]] [--omit PREFIXES] [--epd FILE]",
		Short: "Learn the tuned evaluation's weights for a variant from its own games",
		Long: `Tune plays the engine against itself in the variant (searches of --nodes
nodes a move, the first --random-plies plies at random), keeps the quiet
positions of the games labelled with their results, and fits the weights of
the tuned evaluation's generic features to them by the Texel method: the
mean squared error between each result and sigmoid(K·eval/400), K fitted
first. A share of the positions (--held-out) is kept out of the fit to
measure it. The weights go to --out, a text file EvalFile loads (with
"setoption name Evaluation value tuned"); its comments say how it was made
and the losses before and after.

--from starts from a weights file and plays the games with it (a second
round learns from better games); --fit threat,hanging then moves only the
features whose names begin so, the others kept at --from's (new features
beside weights already fitted); --omit check,threat,hanging leaves those
features out: weight zero and not fitted (the games and labels still use
--from as it is; the loss before is that of --from without them). An
evaluation computes no check features when all their weights are zero,
nor threat features (threat, hanging, threats tomove) when all of theirs
are: on boards beyond 64 squares they cost about a fifth of its time a
node. --epd learns from labelled positions (FEN and 1-0, 0-1, 1/2-1/2 or
[1.0], [0.5], [0.0]) instead of games. The same --seed gives the same
weights. Every CPU is used unless --threads says otherwise.

--label-nodes N searches every sampled position N nodes (with the
games' evaluation) for a second label beside its game's result: a
300-node game is decided by blunders long after most of its positions,
and the search sees the position itself. The fit learns from
(1 − s)·result + s·sigmoid(K·search/400), s = --search-share.

--resolve replaces each sampled position by the end of its quiescence
search's line (the captures the games' evaluation would make, until
standing pat is best): the position a static evaluation is judged on,
where one with a capture pending is not (before --label-nodes, which
then searches the resolved position).

--save-positions FILE writes the positions sampled from the games, with
their results and games, as an EPD file --epd reads: another fit (other
flags, --resolve, deeper labels) then starts without playing the games
again.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, err := vf.catalogue()
			if err != nil {
				return err
			}
			v, err := cat.Lookup(vf.name)
			if err != nil {
				return err
			}
			if out == "" {
				return errors.New("tune: give --out FILE for the weights")
			}
			if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
				return fmt.Errorf("tune: --out %s: no directory %s to write it in", out, filepath.Dir(out))
			}
			if savePositions != "" && filepath.Clean(savePositions) == filepath.Clean(out) {
				return errors.New("tune: --save-positions and --out name the same file")
			}
			cfg := tune.Config{Variant: v, Catalogue: cat, Positions: positions, Nodes: uint64(nodes), RandomPlies: randomPlies, Skip: skip, PerGame: perGame,
				MaxPlies: maxPlies, Seed: uint64(seed), HeldOut: heldOut, Iterations: iterations, Rate: rate,
				Regularisation: regularisation, Workers: threads, LabelNodes: uint64(labelNodes), Fit: fit, Omit: omit, Resolve: resolve}
			// --search-share's default is for --label-nodes: alone, only a
			// share given is one to refuse.
			if labelNodes > 0 || cmd.Flags().Changed("search-share") {
				cfg.SearchShare = searchShare
			}
			if epd != "" {
				// Not read yet: a bad configuration is refused first, as
				// reading the positions can take minutes.
				f, err := os.Open(epd)
				if err != nil {
					return fmt.Errorf("tune: --epd: %w", err)
				}
				defer f.Close()
				cfg.EPD = f
			}
			errOut := cmd.ErrOrStderr()
			bar := newProgressBar(errOut)
			if savePositions != "" {
				// The file is made now, so that a path it cannot be
				// written to fails before the games rather than after.
				save, err := newPositionsFile(savePositions)
				if err != nil {
					return fmt.Errorf("tune: %w", err)
				}
				defer save.Discard()
				cfg.Save = func(samples []tune.Sample) error {
					if err := save.Commit(0o644, func(w io.Writer) error { return tune.WriteEPD(w, v, samples) }); err != nil {
						// The games are not lost for it: the fit goes on.
						bar.note(fmt.Sprintf("tune: warning: --save-positions %s: %v", savePositions, err))
					}
					return nil
				}
			}
			if err := cfg.Validate(); err != nil {
				return tuneError(err, epd)
			}
			if from != "" {
				data, err := eval.ReadWeightsFile(from)
				if err != nil {
					return fmt.Errorf("tune: --from: %w", err)
				}
				if cfg.Start, err = eval.ParseWeights(v, data); err != nil {
					return fmt.Errorf("tune: --from %s: %w", from, err)
				}
			}
			cfg.OnGames = func(samples, games int) {
				bar.show("games", samples, positions, fmt.Sprintf("%d games, %d positions", games, samples))
			}
			labelled := "searched"
			if resolve && labelNodes == 0 {
				labelled = "resolved"
			}
			cfg.OnLabel = func(done, total int) {
				bar.show("label", done, total, fmt.Sprintf("%d positions %s", done, labelled))
			}
			cfg.OnFit = func(done int, train, held float64) {
				bar.show("fit", done, iterations, fmt.Sprintf("loss %.5f, held out %.5f", train, held))
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			start := time.Now()
			w, rep, err := tune.Run(ctx, cfg)
			bar.done()
			if err != nil && ctx.Err() != nil {
				// Weights fitted part of the way are no result to keep.
				return interrupted("tune", "no weights written to %s", out)
			}
			if err != nil {
				return tuneError(err, epd)
			}
			l := rep.Losses
			w.Comments = []string{
				"made by: chimera " + strings.Join(os.Args[1:], " "),
				fmt.Sprintf("positions: %d (fitted on %d, held out %d); K = %.4f; best at iteration %d of %d; %s",
					rep.Samples, rep.Train, rep.Held, l.Scale, l.BestIteration, iterations, time.Since(start).Round(time.Second)),
				fmt.Sprintf("loss: %.5f -> %.5f; held out: %.5f -> %.5f", l.TrainBefore, l.TrainAfter, l.HeldBefore, l.HeldAfter),
			}
			if err := writeWeights(out, w); err != nil {
				return fmt.Errorf("tune: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d positions; loss %.5f -> %.5f, held out %.5f -> %.5f; weights in %s\n",
				v.Name, rep.Samples, l.TrainBefore, l.TrainAfter, l.HeldBefore, l.HeldAfter, out)
			return nil
		},
	}
	vf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&out, "out", "", "the weights file to write")
	fl.StringVar(&from, "from", "", "start from this weights file, and play the games with it")
	fl.StringVar(&epd, "epd", "", "learn from these labelled positions instead of games")
	fl.StringVar(&savePositions, "save-positions", "", "write the positions sampled from the games, with their results, to this EPD file (for --epd)")
	intFlag(fl, &positions, "positions", 100000, 10, 100000000, "positions to learn from")
	intFlag(fl, &nodes, "nodes", 2000, 1, 100000000, "search nodes a move in the games")
	intFlag(fl, &randomPlies, "random-plies", 8, 1, 100, "plies played at random to open each game (at least one: both sides are the same player)")
	intFlag(fl, &skip, "skip", 4, 0, 1000, "plies after the random ones not sampled")
	intFlag(fl, &perGame, "per-game", 12, 0, 100000, "positions at most sampled from one game (0: all)")
	intFlag(fl, &labelNodes, "label-nodes", 0, 0, 100000000, "search each sampled position this many nodes for a second label (0: results alone)")
	fl.BoolVar(&resolve, "resolve", false, "play out each sampled position's quiescence line first, and learn from its end")
	fl.Float64Var(&searchShare, "search-share", 0.5, "weight of the search label against the game's result (with --label-nodes)")
	intFlag(fl, &maxPlies, "max-plies", 400, 10, 100000, "plies after which a game is drawn")
	intFlag(fl, &threads, "threads", runtime.NumCPU(), 1, 1024, "games and fitting at once")
	intFlag(fl, &iterations, "iterations", 1000, 1, 1000000, "steps of the fit")
	intFlag(fl, &seed, "seed", 1, 0, 1<<62, "seed of the openings and the held-out share")
	fl.Float64Var(&rate, "rate", 1, "the fit's step, in centipawns")
	fl.Float64Var(&regularisation, "regularisation", 1e-7, "pull of each weight toward its start, per centipawn squared")
	fl.StringSliceVar(&omit, "omit", nil, "leave out the features whose names begin with these prefixes (comma-separated, e.g. check,threat,hanging): weight zero, not fitted")
	fl.StringSliceVar(&fit, "fit", nil, "fit only the features whose names begin with these prefixes (comma-separated, e.g. threat,hanging); the others keep --from's weights")
	fl.Float64Var(&heldOut, "held-out", 0.1, "share of the positions kept out of the fit to measure it")
	return cmd
}

// tuneFlags names the tuner's configuration fields by the flags that
// set them, for its errors; --epd with its file (epd), the errors of
// that field being about what the file holds.
func tuneFlags(epd string) func(field string) string {
	return func(field string) string {
		if field == "EPD" {
			return "--epd " + epd
		}
		return tuneFlag(field)
	}
}

// tuneFlag is the flag that sets a tuner's configuration field.
func tuneFlag(field string) string {
	switch field {
	case "Variant":
		return "--variant"
	case "Fit":
		return "--fit"
	case "Omit":
		return "--omit"
	case "SearchShare":
		return "--search-share"
	case "LabelNodes":
		return "--label-nodes N"
	case "Save":
		return "--save-positions"
	}
	return field
}

// tuneError says a tuner's error, its configuration's fields named by
// their flags (--epd's by its file, epd).
func tuneError(err error, epd string) error {
	var bad *tune.ConfigError
	if errors.As(err, &bad) {
		return errors.New("tune: " + bad.Explain(tuneFlags(epd)))
	}
	return fmt.Errorf("tune: %w", err)
}

// newPositionsFile makes --save-positions' file, pending until the games
// are over.
func newPositionsFile(path string) (*atomicfile.Pending, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("--save-positions %s: a directory", path)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--save-positions %s: no directory %s to write it in", path, filepath.Dir(path))
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--save-positions %s: %w", path, err)
	}
	return f, nil
}

// writeWeights writes weights to a file atomically.
func writeWeights(path string, w *eval.Weights) error {
	return atomicfile.Write(path, 0o644, w.Write)
}
