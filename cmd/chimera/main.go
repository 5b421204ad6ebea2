// Command chimera is the Chimera multi-variant chess engine. Without
// arguments it will speak UCI; its subcommands are for people and scripts.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exitInterrupted is the exit status of a command that Ctrl-C stopped:
// 128 + SIGINT's number, what shells report for a process SIGINT ended,
// so that a script tells a run cut short from a finished or a refused one.
const exitInterrupted = 130

// run executes one command line and returns the process exit status: 0 on
// success, 2 on invalid input, 130 when Ctrl-C stopped the command (each
// error reported as one line on stderr).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(stderr, "chimera:", err)
		var stopped *interruptedError
		if errors.As(err, &stopped) {
			return exitInterrupted
		}
		return 2
	}
	return 0
}

// interruptedError is the error of a command that Ctrl-C stopped after it
// had reported (and written) what it finished: its text says what that
// was, and run exits with exitInterrupted for it. Every long command ends
// so, rather than each in its own way (a context's "context canceled", a
// success, an unfinished game scored).
type interruptedError struct{ text string }

func (e *interruptedError) Error() string { return e.text }

// interrupted returns the error of command stopped by Ctrl-C, its detail
// saying what was finished and kept: "selfplay: interrupted: 3 games
// finished and counted …".
func interrupted(command, format string, args ...any) error {
	return &interruptedError{text: command + ": interrupted: " + fmt.Sprintf(format, args...)}
}

// interruptible returns cmd's context, cancelled on Ctrl-C (SIGINT) and on
// the other signals given, and the function that stops listening: how a
// long command learns it must stop, report what it finished and return
// interrupted's error.
func interruptible(cmd *cobra.Command, also ...os.Signal) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(cmd.Context(), append([]os.Signal{os.Interrupt}, also...)...)
}
