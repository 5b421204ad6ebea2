package session

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadLines: lines of any length are survived: one over MaxLine is
// reported once and skipped, the lines around it are read; CRLF ends are
// trimmed, and a last line without its newline counts.
func TestReadLines(t *testing.T) {
	long := strings.Repeat("x", 3*MaxLine)
	in := "uci\r\n" + long + "\nisready\n\n" + strings.Repeat("y", MaxLine) + "\nquit"
	var got []string
	readLines(strings.NewReader(in), func(l string) bool { got = append(got, l); return true },
		func(err error) bool { got = append(got, "error: "+err.Error()); return true })
	require.Len(t, got, 6)
	require.Equal(t, []string{"uci", "error: line longer than 1 MiB ignored", "isready", ""}, got[:4])
	require.Len(t, got[4], MaxLine, "a line of exactly MaxLine is read")
	require.Equal(t, "quit", got[5])

	// Stopping early stops reading.
	n := 0
	readLines(strings.NewReader("a\nb\nc\n"), func(string) bool { n++; return n < 2 }, nil)
	require.Equal(t, 2, n)
}

// FuzzReadLines: whatever the input, every line handed on is short and
// has no line end in it, and the input is read to its end.
func FuzzReadLines(f *testing.F) {
	f.Add("uci\nisready\n")
	f.Add("a\r\n\r\n\nb")
	f.Fuzz(func(t *testing.T, in string) {
		var total int
		readLines(strings.NewReader(in), func(l string) bool {
			require.LessOrEqual(t, len(l), MaxLine)
			require.NotContains(t, l, "\n")
			total += len(l) + 1
			return true
		}, func(error) bool { return true })
		require.LessOrEqual(t, total, len(in)+1)
	})
}
