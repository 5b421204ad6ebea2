// Command chimera is the Chimera multi-variant chess engine. Without
// arguments it will speak UCI; its subcommands are for people and scripts.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit status: 0 on
// success, 2 on invalid input (reported as one line on stderr).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(stderr, "chimera:", err)
		return 2
	}
	return 0
}
