package main

import (
	"github.com/spf13/cobra"
)

// version is the engine version, printed by --version and over UCI.
const version = "0.1.0"

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "chimera",
		Short: "Chimera, a multi-variant chess engine",
		Long: `Chimera is a multi-variant chess engine: one rules core for boards up to
16x16 and pieces defined by movement atoms.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newPerftCommand(), newVariantsCommand(), newBenchCommand(), newSelfPlayCommand())
	return root
}
