package main

import (
	"bufio"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// runByFirstCommand speaks the protocol the first command names, as
// Fairy-Stockfish does: "xboard" starts CECP, anything else UCI (or its
// dialects USI and UCCI, which "usi" and "ucci" ask for). The
// first line is read here and handed on with the rest of the input.
func runByFirstCommand(cmd *cobra.Command, files []string) error {
	in := bufio.NewReader(cmd.InOrStdin())
	first, err := in.ReadString('\n')
	if err != nil && first == "" {
		return nil // no input: nothing to do
	}
	rest := io.MultiReader(strings.NewReader(first), in)
	// usi and ucci are UCI's dialects: the server answers the command
	// itself (and starts in the dialect's default variant).
	if strings.TrimSpace(first) == "xboard" {
		return runProtocol(cmd, protoXBoard, files, rest)
	}
	return runProtocol(cmd, protoUCI, files, rest)
}

func newXBoardCommand() *cobra.Command {
	var files []string
	cmd := &cobra.Command{
		Use:   "xboard",
		Short: "Speak the XBoard/WinBoard protocol (CECP v2) on stdin/stdout",
		Long: `Chimera speaks CECP version 2 to XBoard, WinBoard and tournament managers.
Running chimera without arguments does the same when the first command is
"xboard". The engine tells the GUI the board size, start position and
piece moves of every variant XBoard does not know, so user variants play
in the GUI unchanged.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProtocol(cmd, protoXBoard, files, cmd.InOrStdin())
		},
	}
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this file first (repeatable)")
	return cmd
}
