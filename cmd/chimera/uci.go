package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/internal/tbbuild"
	"github.com/chimera-chess/chimera/internal/uci"
	"github.com/chimera-chess/chimera/internal/xboard"
)

// protocol names the language the engine speaks to its GUI.
type protocol uint8

const (
	protoUCI    protocol = iota // UCI (the default)
	protoXBoard                 // CECP, XBoard/WinBoard's
	protoUSI                    // USI, shogi GUIs'
	protoUCCI                   // UCCI, xiangqi GUIs'
)

// runProtocol speaks a protocol on the command's stdout, reading commands
// from in until quit or EOF, with the user's variant files loaded.
func runProtocol(cmd *cobra.Command, p protocol, files []string, in io.Reader) error {
	vf := variantFlags{files: files}
	cat, err := vf.catalogue()
	if err != nil {
		return err
	}
	name, out := "Chimera "+version, cmd.OutOrStdout()
	sc := session.Config{Catalogue: cat, BuildCommand: buildCommand(), VariantFiles: files}
	if p == protoXBoard {
		return xboard.NewServer(out, xboard.Config{Name: name, Config: sc}).Run(in)
	}
	dialect := map[protocol]uci.Dialect{protoUSI: uci.USI, protoUCCI: uci.UCCI}[p]
	return uci.NewServer(out, uci.Config{Name: name, Config: sc, Dialect: dialect}).Run(in)
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
		RunE: func(cmd *cobra.Command, _ []string) error { return runProtocol(cmd, protoUCI, files, cmd.InOrStdin()) },
	}
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this file first (repeatable)")
	return cmd
}

func newUSICommand() *cobra.Command {
	var files []string
	cmd := &cobra.Command{
		Use:   "usi",
		Short: "Speak USI, shogi GUIs' protocol, on stdin/stdout",
		Long: `Chimera speaks USI to shogi GUIs (ShogiGUI, Shogidokoro, lishogi's engine
clients): SFEN positions, moves such as 7g7f, P*5e and 8h2b+, btime/wtime
for sente/gote and byoyomi, go mate answered with checkmate. Shogi is
played unless USI_Variant says otherwise (minishogi, kyotoshogi,
dobutsu, ... or a variant of a --variant-file). Running chimera with
"usi" as its first command does the same.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runProtocol(cmd, protoUSI, files, cmd.InOrStdin()) },
	}
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this file first (repeatable)")
	return cmd
}

func newUCCICommand() *cobra.Command {
	var files []string
	cmd := &cobra.Command{
		Use:   "ucci",
		Short: "Speak UCCI, xiangqi GUIs' protocol, on stdin/stdout",
		Long: `Chimera speaks UCCI to xiangqi GUIs: files a-i and ranks 0-9, go time,
increment, opptime and oppinc for the side to move and its opponent,
banmoves, nobestmove. Xiangqi is played unless UCI_Variant says
otherwise. Running chimera with "ucci" as its first command does the
same.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runProtocol(cmd, protoUCCI, files, cmd.InOrStdin()) },
	}
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this file first (repeatable)")
	return cmd
}

// buildCommand is how the engine builds endgame tables in the background:
// in a child process of its own binary ("chimera tb generate"), so the work
// never competes with the engine's threads inside its process. Without a
// path to itself it builds in-process.
func buildCommand() tbbuild.Command {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	return func(j tbbuild.Job) []string {
		args := []string{self, "tb", "generate", j.Material.String(), "--dir", j.Dir, "--variant", j.Variant.Name}
		for _, f := range j.VariantFiles {
			args = append(args, "--variant-file", f)
		}
		return args
	}
}
