package search

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestHugeSlice: a table of a huge page or more starts on a huge-page
// boundary, has exactly the length and capacity asked for (an append must
// not run into the padding) and is zeroed; a smaller one is plain memory.
func TestHugeSlice(t *testing.T) {
	type slot struct{ check, data uint64 }
	for _, n := range []int{1, 1000, hugePageSize / 16, hugePageSize/16*3 + 5} {
		s := hugeSlice[slot](n)
		require.Len(t, s, n)
		require.Equal(t, n, cap(s))
		for i := range s {
			if s[i] != (slot{}) { // require.Zero on each of 400,000 took most of a second
				require.Zero(t, s[i], "element %d", i)
			}
		}
		if n*16 >= hugePageSize {
			require.Zero(t, uintptr(unsafe.Pointer(&s[0]))%hugePageSize, "n=%d", n)
		}
	}
	require.Empty(t, hugeSlice[slot](0))
	// An element size that does not divide a huge page, or larger than a
	// page, gets plain memory.
	require.Len(t, hugeSlice[[3]byte](hugePageSize), hugePageSize)
	require.Len(t, hugeSlice[[8192]byte](1000), 1000)
}
