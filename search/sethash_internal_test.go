package search

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSetHashSameSize: setting the size a table already has clears it in
// place (no second table allocated and touched); another size makes a new
// one, cleared as well.
func TestSetHashSameSize(t *testing.T) {
	s := New(Options{HashMB: 1})
	before := s.tt
	s.tt.newSearch() // entries are stored by searches, each begun so
	s.tt.store(12345, 0, 10, 3, BoundExact)
	_, hit := s.tt.probe(12345)
	require.True(t, hit)

	s.SetHash(1)
	require.Same(t, before, s.tt, "the same size keeps the table")
	_, hit = s.tt.probe(12345)
	require.False(t, hit, "and clears it")

	s.SetHash(2)
	require.NotSame(t, before, s.tt)
	require.Len(t, s.tt.slots, 2*len(before.slots))
}
