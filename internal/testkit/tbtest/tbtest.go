// Package tbtest holds the tablebase tests' small variants and helpers,
// shared by the tests of the tables and of the builder.
package tbtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// ChessOn is chess on a board of files×ranks with the given first FEN
// field as its start position, no castling; extra lines of a variant
// file ("nMoveRule = 0") change more of the rules.
func ChessOn(t testing.TB, name string, files, ranks int, board string, extra ...string) *engine.Variant {
	t.Helper()
	cat := variants.Builtin()
	require.NoError(t, cat.Load(name, []byte(fmt.Sprintf("[%s:chess]\nmaxRank = %d\nmaxFile = %d\n"+
		"startFen = %s w - - 0 1\ncastling = false\n%s", name, ranks, files, board, strings.Join(append(extra, ""), "\n")))))
	v, err := cat.Lookup(name)
	require.NoError(t, err)
	return v
}

// Tiny is chess on a 4×4 board: four- and five-piece tables with riders
// on both sides generate and verify in milliseconds there.
func Tiny(t testing.TB) *engine.Variant { return ChessOn(t, "tiny", 4, 4, "rnbk/pppp/PPPP/RNBK") }

// Material parses a material of v or fails the test.
func Material(t testing.TB, v *engine.Variant, s string) tablebase.Material {
	t.Helper()
	m, err := tablebase.ParseMaterial(v, s)
	require.NoError(t, err)
	return m
}

// WaitFor polls cond until it holds, for work done in the background. It
// sets no time limit of its own (a busy machine, the race detector, may
// take many times the usual): a hang is ended by go test's -timeout, and
// shortly before that deadline WaitFor fails with msg, so the report says
// what was awaited.
func WaitFor(t testing.TB, cond func() bool, msg string) {
	t.Helper()
	var deadline time.Time
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if at, set := d.Deadline(); set {
			deadline = at.Add(-10 * time.Second)
		}
	}
	for !cond() {
		require.True(t, deadline.IsZero() || time.Now().Before(deadline), msg)
		time.Sleep(20 * time.Millisecond)
	}
}

// Table returns the table of p from s, built if need be, or fails the
// test.
func Table(t testing.TB, s *tablebase.Store, p *engine.Position) *tablebase.Table {
	tb, err := s.Find(p, tablebase.Build)
	require.NoError(t, err)
	return tb
}
