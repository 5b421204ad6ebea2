package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

func newBenchCommand() *cobra.Command {
	var depth int
	cmd := &cobra.Command{
		Use:   "bench [--depth N]",
		Short: "Search a fixed list of positions to a fixed depth",
		Long: `Bench searches a fixed list of positions across several variants to a fixed
depth, one position after another on one thread, and prints one line per
position and, last, "Nodes searched: N" and "Nodes/second: N". The node count
is a signature: it changes only when search behaviour changes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			totals, err := search.RunBench(depth, variants.Builtin().Lookup, out)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "\nNodes searched: %d\nNodes/second: %d\n", totals.Nodes, totals.NPS())
			return nil
		},
	}
	intFlag(cmd.Flags(), &depth, "depth", search.BenchDepth, 1, search.MaxPly-1, "search depth in plies")
	return cmd
}
