package xboard_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEgtPathSyzygy: XBoard's egtpath points the engine at Syzygy's
// tables, which then play a won ending at once; another table type, or
// a directory that cannot be read, is an error and changes nothing.
func TestEgtPathSyzygy(t *testing.T) {
	s := start(t)
	s.Send("egtpath gaviota /tb/gtb")
	line, _ := s.Expect("Error (")
	require.Contains(t, line, "unsupported table type")
	s.Send("egtpath syzygy /no/such/dir")
	line, _ = s.Expect("Error (")
	require.Contains(t, line, "SyzygyPath")
	s.Send("option UseTablebase=0", "egtpath syzygy "+filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular"))
	s.Send("new", "force", "setboard 8/8/8/3k4/8/8/8/KBN5 w - - 0 1", "post", "go")
	line, _ = s.Expect("move ")
	require.Contains(t, []string{"move a1b2", "move c1d3", "move c1e2"}, line, "a fastest way to zeroing")
}
