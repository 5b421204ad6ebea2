package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/openings"
)

func newOpeningsCommand() *cobra.Command {
	var (
		vf                          variantFlags
		count, plies, balance, deep int
		seed                        int
	)
	cmd := &cobra.Command{
		Use:   "openings --variant V [--count 200] [--plies 8] [--balance 80]",
		Short: "Make an EPD opening book of balanced random positions",
		Long: `Openings writes an EPD book (one position per line) to standard output for
match --openings or cutechess-cli: each position is reached by --plies
random legal moves (at least one) from the variant's start and kept only
when a search to --depth scores it within --balance centipawns. The same
--seed gives the same book. Ctrl-C stops it: the positions written are
kept, and the exit status is 130.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := vf.variant()
			if err != nil {
				return err
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			out := cmd.OutOrStdout()
			book, err := openings.Generate(ctx, openings.Config{Variant: v, Count: count, Plies: plies, Balance: balance,
				Depth: deep, Seed: uint64(seed)}, func(fen string) { fmt.Fprintln(out, fen) })
			if err != nil && ctx.Err() != nil {
				return interrupted("openings", "%d of %d positions written", len(book), count)
			}
			if err != nil {
				return fmt.Errorf("openings: %w", err)
			}
			return nil
		},
	}
	vf.register(cmd)
	f := cmd.Flags()
	intFlag(f, &count, "count", 200, 1, 1000000, "positions to write")
	intFlag(f, &plies, "plies", 8, 1, 60, "random moves from the start (1 to 60)")
	intFlag(f, &balance, "balance", 80, 0, 10000, "largest score kept (centipawns, either side)")
	intFlag(f, &deep, "depth", 6, 1, 30, "depth of the search that judges a position")
	intFlag(f, &seed, "seed", 1, 0, 1<<62, "random seed")
	return cmd
}
