package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runCommand(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPerftCommand(t *testing.T) {
	code, out, _ := runCommand("perft", "--depth", "4")
	require.Zero(t, code)
	require.Equal(t, "Nodes searched: 197281\n", out)

	code, out, _ = runCommand("perft", "--depth", "3", "--divide", "--fen",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.Zero(t, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 48+2)
	require.Contains(t, lines, "e1g1: 2059")
	require.Equal(t, "Nodes searched: 97862", lines[len(lines)-1])
}

func TestPerftCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"perft"}, `required flag(s) "depth" not set`},
		{[]string{"perft", "--depth", "0"}, "want a whole number from 1 to 20"},
		{[]string{"perft", "--depth", "x"}, `invalid argument "x"`},
		{[]string{"perft", "--depth", "1", "--fen", "8/8 w"}, "board has 2 ranks"},
		{[]string{"perft", "--depth", "1", "--variant", "nosuch"}, `unknown variant "nosuch"`},
		{[]string{"perft", "--depth", "1", "extra"}, "unexpected argument"},
	} {
		code, out, errOut := runCommand(tc.args...)
		require.Equal(t, 2, code, tc.args)
		require.Empty(t, out, tc.args)
		require.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
		require.Contains(t, errOut, tc.want, tc.args)
	}
}
