package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

func newBenchCommand() *cobra.Command {
	var depth, threads, hash int
	var evaluation, cpuProfile string
	var evalFiles []string
	cmd := &cobra.Command{
		Use:   "bench [--depth N] [--threads N] [--hash MB] [--evaluation documents|tuned] [--cpuprofile FILE]",
		Short: "Search a fixed list of positions to a fixed depth",
		Long: `Bench searches a fixed list of positions across several variants to a fixed
depth, one position after another on one thread, and prints one line per
position, then "Nodes searched: N" and "Nodes/second: N", and last the same
as "N nodes M nps", the line OpenBench reads. The node count is a
signature: it changes only when search behaviour changes.

With --threads above 1 the search runs Lazy SMP (the node count then
varies from run to run): to measure it, compare its nodes per second and
time with a run of --threads 1.

--evaluation tuned searches with the tuned evaluation and the weights
shipped for each variant (the documents' formula where none are): its
signature is its own. --evaluation network searches with the networks
shipped (the tuned evaluation where none is), another signature;
--eval-file NET puts a network of chimera train in place of the one
shipped for its variant: a signature of that network.

--cpuprofile writes a CPU profile of the searches (for go tool pprof).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := session.CheckHash(hash, 0)
			if err != nil {
				return fmt.Errorf("bench: --hash %d: %w", hash, err)
			}
			out := cmd.OutOrStdout()
			cfg := search.BenchConfig{Depth: depth, Threads: threads, HashMB: hash}
			switch evaluation {
			case "documents":
			case "tuned":
				cfg.Evaluation = eval.ShippedOrDocuments
			case "network":
				if cfg.Evaluation, err = networkEvaluation(evalFiles); err != nil {
					return fmt.Errorf("bench: %w", err)
				}
			default:
				return fmt.Errorf("--evaluation %q: want documents, tuned or network", evaluation)
			}
			if len(evalFiles) > 0 && evaluation != "network" {
				return errors.New("bench: --eval-file goes with --evaluation network")
			}
			if cpuProfile != "" {
				stop, err := startCPUProfile(cpuProfile)
				if err != nil {
					return err
				}
				defer stop()
			}
			totals, err := search.RunBench(cfg, variants.Builtin().Lookup, out)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "\nNodes searched: %d\nNodes/second: %d\n", totals.Nodes, totals.NPS())
			// The last line in the form OpenBench reads ("N nodes M nps").
			fmt.Fprintf(out, "%d nodes %d nps\n", totals.Nodes, totals.NPS())
			return nil
		},
	}
	intFlag(cmd.Flags(), &depth, "depth", search.BenchDepth, 1, search.MaxPly-1, "search depth in plies")
	intFlag(cmd.Flags(), &threads, "threads", 1, 1, search.MaxThreads, "search threads")
	intFlag(cmd.Flags(), &hash, "hash", session.DefaultHashMB, 1, session.HashMaxMB(), "transposition table MiB (at most half the machine's memory)")
	cmd.Flags().StringVar(&evaluation, "evaluation", "documents", "the search's evaluation: documents (the signature's), tuned (the shipped weights) or network (the shipped networks, or --eval-file's)")
	cmd.Flags().StringArrayVar(&evalFiles, "eval-file", nil, "with --evaluation network: a network file of chimera train, in place of its variant's shipped one (repeatable)")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the searches to this file (for go tool pprof)")
	return cmd
}

// networkEvaluation reads network files for the bench: each variant with
// one is searched by it, the others by the network shipped for them, else
// the tuned evaluation.
func networkEvaluation(paths []string) (func(*engine.Variant) eval.Evaluator, error) {
	nets := map[string]*nnue.Network{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		n, err := nnue.Read(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("--eval-file %s: %w", path, err)
		}
		nets[n.Variant] = n
	}
	return func(v *engine.Variant) eval.Evaluator {
		if n, ok := nets[v.Name]; ok {
			if e, err := eval.NewNetwork(v, n); err == nil {
				return e
			}
		}
		return eval.NetworkOrShipped(v)
	}, nil
}
