package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpeningsPlies: --plies is 1 to 60, as its help says; 0 used to pass
// the flag check and fail later, after 40,000 lines, with "only 1
// balanced positions found".
func TestOpeningsPlies(t *testing.T) {
	code, _, errOut := runCommand("openings", "--plies", "0")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `invalid argument "0" for "--plies" flag: want a whole number from 1 to 60`)
	code, out, _ := runCommand("openings", "--help")
	require.Zero(t, code)
	require.Contains(t, out, "random moves from the start (1 to 60)")
	code, out, _ = runCommand("openings", "--plies", "1", "--count", "3", "--depth", "1")
	require.Zero(t, code)
	require.Equal(t, 3, strings.Count(out, "\n"), out)
}
