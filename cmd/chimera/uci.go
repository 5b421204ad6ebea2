package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/uci"
)

// runUCI speaks UCI on the command's stdin and stdout until quit or EOF.
func runUCI(cmd *cobra.Command, files []string) error { return runUCIFrom(cmd, files, cmd.InOrStdin()) }

// runUCIFrom speaks UCI, reading commands from in.
func runUCIFrom(cmd *cobra.Command, files []string, in io.Reader) error {
	vf := variantFlags{files: files}
	cat, err := vf.catalogue()
	if err != nil {
		return err
	}
	server := uci.NewServer(cmd.OutOrStdout(), uci.Config{Name: "Chimera " + version, Catalogue: cat,
		BuildCommand: buildCommand(), VariantFiles: files})
	return server.Run(in)
}

func newUCICommand() *cobra.Command {
	var files []string
	cmd := &cobra.Command{
		Use:   "uci",
		Short: "Speak the UCI protocol on stdin/stdout (the default)",
		Long: `Chimera speaks UCI to chess GUIs and tournament managers. Running chimera
without arguments does the same. Variants are chosen with the UCI_Variant
option; VariantPath (or --variant-file) loads user variants.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runUCI(cmd, files) },
	}
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this file first (repeatable)")
	return cmd
}

// buildCommand is how the engine builds endgame tables in the background:
// in a child process of its own binary ("chimera tb generate"), so the work
// never competes with the engine's threads inside its process. Without a
// path to itself it builds in-process.
func buildCommand() []string {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	return []string{self, "tb", "generate"}
}
