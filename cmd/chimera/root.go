package main

import (
	"github.com/spf13/cobra"
)

// version is the engine version, printed by --version and over UCI.
const version = "0.1.0"

func newRootCommand() *cobra.Command {
	var files []string
	root := &cobra.Command{
		Use:   "chimera",
		Short: "Chimera, a multi-variant chess engine",
		Long: `Chimera is a multi-variant chess engine: one rules core for boards up to
16x16 and pieces defined by movement atoms. Without a command it speaks UCI
on stdin/stdout, as chess GUIs expect, or XBoard's protocol (CECP) when the
first command is "xboard".`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		// Without a subcommand Chimera is a UCI engine, as GUIs expect.
		RunE: func(cmd *cobra.Command, _ []string) error { return runByFirstCommand(cmd, files) },
	}
	// What a GUI's engine settings give: "chimera --variant-file F".
	root.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this file first (repeatable)")
	root.AddCommand(newPerftCommand(), newVariantsCommand(), newBenchCommand(), newSelfPlayCommand(), newUCICommand(), newUSICommand(), newUCCICommand(), newXBoardCommand(), newMatchCommand(), newOpeningsCommand(), newTablebaseCommand(), newCompareCommand(), newServeCommand(), newTuneCommand(), newDatagenCommand(), newTrainCommand(), newWDLCommand())
	return root
}
