package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/internal/train"
	"github.com/chimera-chess/chimera/nnue"
)

func newTrainCommand() *cobra.Command {
	var (
		vf                                    variantFlags
		data                                  []string
		out                                   string
		hidden, epochs, batch, threads, limit int
		seed, buckets                         int
		activation                            string
		quietOnly                             bool
		rate, finalRate, lambda, heldOut      float64
	)
	cmd := &cobra.Command{
		Use:   "train --variant V --data FILE [--data FILE...] --out NET [--hidden N] [--epochs N]",
		Short: "Train a network for a variant from chimera datagen's positions",
		Long: `Train learns a network evaluation for the variant from the positions of
chimera datagen's files (--data, repeatable; each must hold the variant's
positions as it is defined now). Its inputs come from the variant's
definition: each piece on each square, and the pieces in hand, seen from
each side; --hidden units a side (--activation crelu: clipped to [0, 1];
screlu: clipped and squared), both sides' units to one output of
--buckets, the one a position uses chosen by its number of pieces on the
board. Every position of the files is learnt from; --quiet-only leaves out
those marked tactical (kept only by datagen --keep all).

Each position's target blends its label and its game's result:
lambda·sigmoid(score/K) + (1 − lambda)·result, K fitted first so that
sigmoid(score/K) predicts the results best. Adam minimises the squared
error of sigmoid(output) against it over --epochs passes of --batch
positions, its step size falling from --rate to --final-rate along a half
cosine; a share of the games (--held-out) is kept out to measure the
network after each epoch, and the epoch that does best on them is the
network written: past it, a network learns its positions by heart and
does worse on others. Ctrl-C writes the best so far. The network is
quantised to int16 and written to --out with how it was made; EvalFile
loads it, with "setoption name Evaluation value network". Every CPU is
used unless --threads says otherwise; the same --seed gives the same
network.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := vf.variant()
			if err != nil {
				return err
			}
			if len(data) == 0 {
				return errors.New("train: give --data FILE (chimera datagen's positions)")
			}
			if out == "" {
				return errors.New("train: give --out FILE for the network")
			}
			if !(lambda >= 0 && lambda <= 1) || !(heldOut >= 0 && heldOut < 1) {
				return errors.New("train: --lambda must be within [0, 1] and --held-out within [0, 1)")
			}
			if activation != "crelu" && activation != "screlu" {
				return fmt.Errorf("train: --activation is crelu or screlu, not %q", activation)
			}
			cfg := train.Config{Shape: train.Shape{Hidden: hidden, Buckets: buckets, Squared: activation == "screlu"}, Epochs: epochs, BatchSize: batch, Rate: rate, FinalRate: finalRate, Seed: uint64(seed), Workers: threads}
			if err := cfg.Validate(); err != nil {
				return fmt.Errorf("train: %w", err)
			}
			errOut := cmd.ErrOrStderr()
			start := time.Now()
			trainSet, held, err := train.Load(v, data, train.Selection{HeldOut: heldOut, Seed: uint64(seed), Limit: limit, QuietOnly: quietOnly})
			if err != nil {
				return fmt.Errorf("train: %w", err)
			}
			if len(trainSet) == 0 {
				return errors.New("train: the data holds no positions")
			}
			k := train.FitScale(trainSet)
			fmt.Fprintf(errOut, "%d positions to learn from, %d held out; K = %.1f centipawns (read in %s)\n",
				len(trainSet), len(held), k, time.Since(start).Round(time.Second))
			bar := newProgressBar(errOut)
			cfg.Progress = func(epoch int, trainLoss, heldLoss float64) {
				bar.show("epoch", epoch, epochs, fmt.Sprintf("loss %.5f, held out %.5f", trainLoss, heldLoss))
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			net, losses, err := train.Run(ctx, cfg, train.InputsOf(v), train.Samples(v, trainSet, buckets, lambda, k), train.Samples(v, held, buckets, lambda, k))
			bar.done()
			stopped := ctx.Err() != nil
			switch {
			case stopped && losses.Epoch == 0:
				return interrupted("train", "before the first epoch ended: no network written to %s", out)
			case stopped:
				fmt.Fprintf(errOut, "train: interrupted: writing the best network so far, epoch %d's\n", losses.Epoch)
			case err != nil:
				return fmt.Errorf("train: %w", err)
			}
			about := strings.Join([]string{
				"made by: chimera " + strings.Join(os.Args[1:], " "),
				fmt.Sprintf("positions: %d (held out %d); K = %.1f; lambda %.2f; %s", len(trainSet), len(held), k, lambda, time.Since(start).Round(time.Second)),
				fmt.Sprintf("loss: %.5f -> %.5f; held out: %.5f -> %.5f (epoch %d of %d)", losses.TrainBefore, losses.TrainAfter, losses.HeldBefore, losses.HeldAfter, losses.Epoch, epochs),
			}, "\n")
			q := train.Quantise(net, v, k, about)
			if err := atomicfile.Write(out, 0o644, func(w io.Writer) error { return q.Write(w) }); err != nil {
				return fmt.Errorf("train: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d positions; loss %.5f -> %.5f, held out %.5f -> %.5f (epoch %d); network in %s\n",
				v.Name, len(trainSet), losses.TrainBefore, losses.TrainAfter, losses.HeldBefore, losses.HeldAfter, losses.Epoch, out)
			if stopped {
				return interrupted("train", "epoch %d's network written to %s", losses.Epoch, out)
			}
			return nil
		},
	}
	vf.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&data, "data", nil, "a file of chimera datagen's positions (repeatable)")
	fl.StringVar(&out, "out", "", "the network file to write")
	intFlag(fl, &hidden, "hidden", 128, 8, 1024, "hidden units a side")
	intFlag(fl, &buckets, "buckets", 8, 1, nnue.MaxBuckets, "output buckets, chosen by the number of pieces on the board")
	fl.StringVar(&activation, "activation", "crelu", "the hidden units' activation: crelu (clipped) or screlu (clipped and squared)")
	intFlag(fl, &epochs, "epochs", 10, 1, 10000, "passes over the positions")
	intFlag(fl, &batch, "batch", 4096, 1, 1<<24, "positions a step")
	fl.BoolVar(&quietOnly, "quiet-only", false, "learn from the quiet positions alone (data of datagen --keep all holds tactical ones too, marked)")
	intFlag(fl, &limit, "max-positions", 0, 0, 1<<31-1, "read at most this many positions (0: all)")
	intFlag(fl, &threads, "threads", runtime.NumCPU(), 1, 1024, "cores computing each step")
	intFlag(fl, &seed, "seed", 1, 0, 1<<62, "seed of the start weights, the order and the held-out games")
	fl.Float64Var(&rate, "rate", 0.001, "Adam's step size at the start")
	fl.Float64Var(&finalRate, "final-rate", 0.00005, "Adam's step size at the end, reached along a half cosine (0 or equal to --rate: constant)")
	fl.Float64Var(&lambda, "lambda", 1, "weight of the label's expected score against the game's result")
	fl.Float64Var(&heldOut, "held-out", 0.05, "share of the games kept out to measure the network")
	return cmd
}
