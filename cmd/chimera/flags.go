package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// boundedInt is an int flag that takes only whole numbers in [min, max],
// and says so in one sentence (cobra's own int flags accept any value and
// report a bad one in strconv's words).
type boundedInt struct {
	p        *int
	min, max int
}

func (b boundedInt) String() string { return strconv.Itoa(*b.p) }
func (b boundedInt) Type() string   { return "int" }

func (b boundedInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < b.min || n > b.max {
		return fmt.Errorf("want a whole number from %d to %d", b.min, b.max)
	}
	*b.p = n
	return nil
}

// fenNoArgs is cobra.NoArgs for commands with a --fen flag: a stray
// argument there is most often the rest of a FEN given without quotes.
func fenNoArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.Flags().Changed("fen") {
		return fmt.Errorf("unexpected argument %q: quote the FEN, e.g. --fen \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"", args[0])
	}
	return fmt.Errorf("unexpected argument %q", args[0])
}

// intFlag defines an int flag with a default and a range. The default may
// lie outside the range: 0 often means "not given".
func intFlag(f *pflag.FlagSet, p *int, name string, value, min, max int, usage string) {
	*p = value
	f.Var(boundedInt{p: p, min: min, max: max}, name, usage)
}

// gameCount says "1 game" or "N games".
func gameCount(n int) string {
	if n == 1 {
		return "1 game"
	}
	return strconv.Itoa(n) + " games"
}
