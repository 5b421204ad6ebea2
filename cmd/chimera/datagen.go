package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/datagen"
	"github.com/chimera-chess/chimera/internal/dataset"
)

func newDatagenCommand() *cobra.Command {
	var (
		vf                              variantFlags
		out, evaluation, teacher        string
		teacherDepth                    int
		teacherOptions                  []string
		teacherPlays                    bool
		evalFiles                       []string
		slurmDir, partition             string
		jobs, hours                     int
		nodes, randomPlies, maxPlies    int
		adjudicate, threads, seed, hash int
		positions                       int64
		keepWhat                        string
	)
	cmd := &cobra.Command{
		Use:   "datagen --variant V --out FILE [--positions N] [--nodes N] [--evaluation tuned|documents]",
		Short: "Play games and keep their positions, scored, for training a network",
		Long: `Datagen plays the engine against itself in the variant (a built-in or one of
a --variant-file) and keeps the positions a network learns from: the side
to move not in check, the best move quiet, no mate found (--keep all
keeps the positions in check or with a capture or promotion to play too,
marked tactical, for chimera train to take or leave with --quiet-only;
--positions counts them too). Each kept
position carries its search's score (--nodes nodes a move, the side to
move's view) and the game's result. The first --random-plies plies of each
game are played at random; a game is drawn at --max-plies, and adjudicated
once one side has led by --adjudicate centipawns for six plies in a row
(0: played out).

The positions go to --out, a binary file (format in the dataset package's
documentation) that names the variant and its definition's fingerprint:
data for another variant or definition is never appended to it. Each game
is written whole as it ends, so the run can be stopped at any moment
(Ctrl-C, a kill, the end of a job) losing at most the games under way, and
the same command continues it until the file holds --positions positions.
Game i depends only on --seed and i: a run resuming a file must give
the flags that decide its games and positions (--seed, --keep, --nodes,
--evaluation, --teacher and its depth...) as the first run did, or it is
refused.

--evaluation tuned (the default) searches with the weights shipped for the
variant, the documents' formula where none are; --evaluation network with
the network shipped for it, or the one --eval-file NET gives (the tuned
evaluation where there is neither): a network's own games are the next
network's data. Every CPU plays games unless --threads says otherwise;
run it under nice to share the machine.

--teacher CMD labels the kept positions with an external UCI engine
instead (the games' searches still choose the moves): each position is
searched to --teacher-depth, its score in centipawns becomes the label,
and a position the teacher finds a mate in is dropped. Each thread starts
its own teacher, which must offer the variant (UCI_Variant) and is given
--teacher-option NAME=VALUE settings. For example
--teacher /usr/games/fairy-stockfish for its variants, --teacher
/usr/games/stockfish for chess. With --teacher-plays the teacher also
chooses every move (--nodes is then unused): one search a ply instead of
two, about twice the positions an hour, and games of the teacher's
strength.

--slurm DIR writes a Slurm job array instead of playing: --jobs tasks,
each with --threads CPUs, its own seed (--seed plus its number) and its
own file (--out with the task's number before the extension), together
--positions positions; submit DIR/datagen.sbatch, and again to resume.
chimera train reads the files together (--data, repeatable).`,
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
				return errors.New("datagen: give --out FILE for the positions")
			}
			if keepWhat != "quiet" && keepWhat != "all" {
				return fmt.Errorf("datagen: --keep is quiet or all, not %q", keepWhat)
			}
			cfg := datagen.Config{Variant: v, Nodes: uint64(nodes), RandomPlies: randomPlies, MaxPlies: maxPlies,
				Adjudicate: adjudicate, Seed: uint64(seed), Positions: positions, Workers: threads, HashMB: hash,
				KeepAll: keepWhat == "all"}
			switch evaluation {
			case "documents":
			case "tuned":
				cfg.Evaluation = eval.ShippedOrDocuments
			case "network":
				if cfg.Evaluation, err = networkEvaluation(evalFiles); err != nil {
					return fmt.Errorf("datagen: %w", err)
				}
			default:
				return fmt.Errorf("datagen: --evaluation %q: want tuned, documents or network", evaluation)
			}
			if len(evalFiles) > 0 && evaluation != "network" {
				return errors.New("datagen: --eval-file goes with --evaluation network")
			}
			if teacher != "" {
				cfg.Teacher = &datagen.Teacher{Command: strings.Fields(teacher), Depth: teacherDepth, Options: map[string]string{}, Plays: teacherPlays}
				for _, o := range teacherOptions {
					name, value, ok := strings.Cut(o, "=")
					if !ok || name == "" {
						return fmt.Errorf("datagen: --teacher-option %q: want NAME=VALUE", o)
					}
					cfg.Teacher.Options[name] = value
				}
			} else if teacherPlays {
				return errors.New("datagen: --teacher-plays needs --teacher CMD")
			}
			if err := cfg.Validate(); err != nil {
				return fmt.Errorf("datagen: %w", err)
			}
			if slurmDir != "" {
				return writeDatagenSlurm(cmd, v.Name, out, slurmDir, datagen.SlurmJob{Tasks: jobs, Seed: uint64(seed),
					Positions: (positions + int64(jobs) - 1) / int64(jobs), CPUs: threads, Hours: hours, Partition: partition})
			}
			w, err := dataset.Append(out, dataset.HeaderFor(v, "chimera "+strings.Join(os.Args[1:], " ")))
			if err != nil {
				return fmt.Errorf("datagen: --out %w", err)
			}
			startGames, startPositions := w.Games(), w.Positions()
			if startGames > 0 {
				if err := sameGames(w.Header().Command, cmd.Flags()); err != nil {
					w.Close()
					return fmt.Errorf("datagen: --out %s: %w", out, err)
				}
			}
			errOut := cmd.ErrOrStderr()
			if startGames > 0 {
				fmt.Fprintf(errOut, "%s: resuming with %d games, %d positions\n", out, startGames, startPositions)
			}
			bar := newProgressBar(errOut)
			start := time.Now()
			cfg.Progress = func(games int, have int64) {
				perHour := float64(have-startPositions) / time.Since(start).Hours()
				bar.show("games", int(have-startPositions), int(max(positions-startPositions, 1)),
					fmt.Sprintf("%d games, %d positions, %.0f positions/hour", games, have, perHour))
			}
			// SIGTERM too: what a cluster's scheduler sends at a job's end.
			ctx, stop := interruptible(cmd, syscall.SIGTERM)
			defer stop()
			runErr := datagen.Run(ctx, cfg, w)
			bar.done()
			if err := w.Close(); err != nil && runErr == nil {
				runErr = err
			}
			if runErr != nil {
				return fmt.Errorf("datagen: %s: %w", out, runErr)
			}
			elapsed := time.Since(start)
			made := w.Positions() - startPositions
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d games, %d positions (%d this run in %s, %.0f positions/hour)\n",
				out, w.Games(), w.Positions(), made, elapsed.Round(time.Second), float64(made)/elapsed.Hours())
			if ctx.Err() != nil {
				return interrupted("datagen", "%s keeps every game that ended; the same command resumes", out)
			}
			return nil
		},
	}
	vf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&out, "out", "", "the data file to write or resume")
	fl.StringVar(&evaluation, "evaluation", "tuned", "the games' evaluation: tuned (the shipped weights, else the formula), documents or network (the shipped network, or --eval-file's)")
	fl.StringArrayVar(&evalFiles, "eval-file", nil, "with --evaluation network: a network file of chimera train, for its variant (repeatable)")
	fl.StringVar(&teacher, "teacher", "", "label the positions with this UCI engine (a command line) instead of the games' searches")
	intFlag(fl, &teacherDepth, "teacher-depth", 6, 1, 100, "the teacher's search depth a position")
	fl.StringArrayVar(&teacherOptions, "teacher-option", nil, "set the teacher's UCI option, NAME=VALUE (repeatable)")
	fl.BoolVar(&teacherPlays, "teacher-plays", false, "the teacher also chooses the moves (--nodes unused)")
	fl.StringVar(&keepWhat, "keep", "quiet", "the positions kept: quiet (not in check, the best move quiet) or all (the tactical ones too, marked)")
	fl.Int64Var(&positions, "positions", 1000000, "stop once the file holds this many positions")
	intFlag(fl, &nodes, "nodes", 5000, 1, 100000000, "search nodes a move")
	intFlag(fl, &randomPlies, "random-plies", 8, 1, 100, "plies played at random to open each game")
	intFlag(fl, &maxPlies, "max-plies", 400, 10, 100000, "plies after which a game is drawn")
	intFlag(fl, &adjudicate, "adjudicate", 2000, 0, 100000, "centipawns a side must lead by for six plies to win (0: games are played out)")
	intFlag(fl, &threads, "threads", runtime.NumCPU(), 1, 1024, "games played at once")
	intFlag(fl, &seed, "seed", 1, 0, 1<<62, "seed of the random openings (keep it when resuming)")
	intFlag(fl, &hash, "hash", 16, 1, 1<<20, "transposition table of each game, MB")
	fl.StringVar(&slurmDir, "slurm", "", "write a Slurm job array into this directory instead of playing")
	intFlag(fl, &jobs, "jobs", 8, 1, 100000, "with --slurm: the array's tasks")
	intFlag(fl, &hours, "hours", 24, 1, 10000, "with --slurm: each task's time limit in hours (resubmit to go on)")
	fl.StringVar(&partition, "partition", "", "with --slurm: the partition the tasks go to (default: the cluster's)")
	return cmd
}

// gameFlags are datagen's flags that decide which games a file holds and
// which of their positions: a run resuming a file must give them as the
// run that began it did, or the file would mix two kinds of data (the
// same game indices played from other seeds, quiet positions beside
// every position) with nothing in it to tell them apart.
var gameFlags = []string{"keep", "seed", "nodes", "evaluation", "eval-file", "teacher", "teacher-depth",
	"teacher-option", "teacher-plays", "random-plies", "max-plies", "adjudicate"}

// sameGames reports, as an error naming the first flag that differs,
// whether the run given flags may resume a file begun by the command
// line stored in its header. A command this version cannot parse (an
// older one's flags, a teacher's command with spaces in it) is not
// checked: the header records it for people, not for parsing.
func sameGames(stored string, flags *pflag.FlagSet) error {
	args := strings.Fields(stored)
	if len(args) < 2 || args[1] != "datagen" {
		return nil
	}
	began := newDatagenCommand().Flags()
	began.SetOutput(io.Discard)
	if err := began.Parse(args[2:]); err != nil || len(began.Args()) > 0 {
		return nil // not this version's flags, or a value with spaces split apart
	}
	for _, name := range gameFlags {
		was, now := began.Lookup(name), flags.Lookup(name)
		if was == nil || now == nil || was.Value.String() == now.Value.String() {
			continue
		}
		return fmt.Errorf("it was begun with --%s %s, not %s (%q): resume it with the same flags, or write another file",
			name, was.Value, now.Value, stored)
	}
	return nil
}

// slurmOnly are datagen's flags the job array's script sets itself, or
// that only say how to write it.
var slurmOnly = map[string]bool{"out": true, "seed": true, "positions": true, "threads": true,
	"slurm": true, "jobs": true, "hours": true, "partition": true}

// writeDatagenSlurm writes the job array of the datagen command line cmd
// was given and says how to submit it. Paths become absolute: the nodes
// share the file system but not the working directory.
func writeDatagenSlurm(cmd *cobra.Command, variant, out, dir string, job datagen.SlurmJob) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("datagen: --slurm: %w", err)
	}
	job.Chimera, job.Variant = self, variant
	if job.Out, err = filepath.Abs(out); err != nil {
		return fmt.Errorf("datagen: --slurm: %w", err)
	}
	var flagErr error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if slurmOnly[f.Name] {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if f.Name == "variant-file" {
				if v, flagErr = filepath.Abs(v); flagErr != nil {
					return
				}
			}
			job.Args = append(job.Args, "--"+f.Name, v)
		}
	})
	if flagErr != nil {
		return fmt.Errorf("datagen: --slurm: %w", flagErr)
	}
	path, err := datagen.WriteSlurm(dir, job)
	if err != nil {
		return fmt.Errorf("datagen: --slurm: %w", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s: %d tasks of %d positions into %s; submit with: sbatch %s\n",
		path, job.Tasks, job.Positions, job.TaskFile("N"), path)
	return nil
}
