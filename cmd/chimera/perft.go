package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

func newPerftCommand() *cobra.Command {
	var (
		vf     variantFlags
		fen    string
		depth  int
		divide bool
	)
	cmd := &cobra.Command{
		Use:   "perft --depth N [--variant NAME] [--fen FEN] [--divide]",
		Short: "Count the leaf nodes of the legal move tree",
		Long: `Perft counts the leaves of the legal move tree to a depth: the standard test
of a move generator. With --divide it prints one line per root move
("e2e4: 12345"). The last line is always "Nodes searched: N", as Stockfish
prints it; timing goes to stderr.`,
		Args: fenNoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if depth < 1 {
				return errors.New("perft: --depth must be at least 1")
			}
			v, err := vf.variant()
			if err != nil {
				return err
			}
			pos := v.StartPosition()
			if fen != "" {
				if pos, err = v.ParseFEN(fen); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			start := time.Now()
			var nodes uint64
			if divide {
				for _, e := range pos.Divide(depth) {
					fmt.Fprintf(out, "%s: %d\n", v.UCI(e.Move), e.Nodes)
					nodes += e.Nodes
				}
				fmt.Fprintln(out)
			} else {
				nodes = pos.Perft(depth)
			}
			elapsed := time.Since(start)
			fmt.Fprintf(out, "Nodes searched: %d\n", nodes)
			fmt.Fprintf(cmd.ErrOrStderr(), "time %.3fs, %.0f nodes/s\n", elapsed.Seconds(), nodesPerSecond(nodes, elapsed))
			return nil
		},
	}
	vf.register(cmd)
	cmd.Flags().StringVar(&fen, "fen", "", "position in FEN (default: the variant's start position)")
	intFlag(cmd.Flags(), &depth, "depth", 0, 1, 20, "depth in plies (required)")
	cmd.Flags().BoolVar(&divide, "divide", false, "print the count below each root move")
	_ = cmd.MarkFlagRequired("depth")
	return cmd
}

// nodesPerSecond guards against a zero duration on very fast runs.
func nodesPerSecond(nodes uint64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(nodes) / d.Seconds()
}
