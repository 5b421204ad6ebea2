package search

import (
	"unsafe"

	"github.com/chimera-chess/chimera/internal/sysmem"
)

// hugePageSize is the alignment a table read at random gets, the system's
// huge page.
const hugePageSize = sysmem.HugePageSize

// hugeSlice returns a zeroed slice of n elements for a table read at
// random, such as the transposition table: it starts on a huge-page
// boundary and, where the system offers transparent huge pages on request
// (Linux's "madvise" mode, the common default), is marked for them. A
// random probe into a table of megabytes then misses the TLB far less
// often: with 4 KiB pages nearly every probe costs a page walk on top of
// the cache miss. Stockfish allocates its table the same way. The memory
// stays Go's (the slice keeps its padded allocation alive); where the
// advice is refused it is ordinary memory.
func hugeSlice[T any](n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	// An element of a power of two up to 4 KiB lines up with any page
	// boundary, so the padding can be skipped in whole elements.
	if n <= 0 || size == 0 || size > 4096 || hugePageSize%size != 0 || n*size < hugePageSize {
		return make([]T, n)
	}
	pad := hugePageSize / size
	backing := make([]T, n+pad)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(backing)))
	skip := int((hugePageSize-start%hugePageSize)%hugePageSize) / size
	s := backing[skip : skip+n : skip+n]
	sysmem.AdviseHugePages(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n*size))
	return s
}
