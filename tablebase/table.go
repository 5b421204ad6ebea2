package tablebase

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
	"github.com/chimera-chess/chimera/tablebase/internal/packed"
)

// Table is a generated (or loaded) tablebase. A generated table holds its
// entries in memory (the embedded Data, of a type internal to the
// tablebase packages: tablebase/gen's to fill and read); a table read
// from its file holds only its geometry there and reads its entries block
// by block (packed). Others probe.
type Table struct {
	Variant  *engine.Variant
	Material Material
	layout.Data
	// packed, for a table read from its file, reads the entries: Data's
	// arrays are then nil. file is kept open for it.
	packed *packed.Reader
	file   *os.File
	// dontCare says that entries that are no position hold arbitrary
	// values, not layout.NotPosition: a file's, decoded (Dense).
	dontCare bool
	// sub supplies the tables after captures and promotions, for probing
	// a position with an en-passant capture (nil: such positions cannot
	// be probed).
	sub Subtables
	// find, for a table of a store, is the store's Finder: sub's tables
	// found by the position's pieces, without naming its material (a
	// search of one side's distances asks for thousands a second).
	find Tables
	// lastUse orders the tables of a store with a memory budget by their
	// last lookup (the store's clock), for eviction.
	lastUse atomic.Int64
	sum     atomic.Uint64 // Checksum's, once known (0: not yet)
	// keys are the material's keys (Covers), once worked out.
	keysOnce sync.Once
	keys     [2]uint64
}

// Generated returns the table of a generation's entries (tablebase/gen
// makes them); sub supplies the tables after captures and promotions,
// through which positions with an en-passant capture are probed.
func Generated(v *engine.Variant, m Material, d layout.Data, sub Subtables) *Table {
	return &Table{Variant: v, Material: m, Data: d, sub: sub}
}

// Checksum returns the FNV-1a checksum of the table's values, the one its
// file carries: it names this table's contents (an explorer's ETag).
func (t *Table) Checksum() uint64 {
	if sum := t.sum.Load(); sum != 0 || t.packed != nil {
		return sum // a file's: its header's
	}
	sum := checksum(t.Val, t.DTZ)
	t.sum.Store(sum)
	return sum
}

// Bytes returns the memory the table's values take: all of them for a
// table held in memory, the block index for one read from its file (its
// blocks are its store's cache's).
func (t *Table) Bytes() int64 {
	if t.packed != nil {
		return t.packed.IndexBytes()
	}
	return int64(len(t.Val[0]) + len(t.Val[1]) + len(t.DTZ[0]) + len(t.DTZ[1]))
}

// Subtables returns the table of a smaller material (after a capture),
// generating it if need be.
type Subtables func(Material) (*Table, error)

// Hooks let a caller follow and steer a generation. Each may be nil.
type Hooks struct {
	// Progress is told the fraction of the generation done.
	Progress func(float64)
	// Pause is called by every worker at regular check points (every few
	// milliseconds of work); it blocks while the generation is to pause,
	// and returns false to abandon it (GenerateWith then fails with
	// ErrAbandoned).
	Pause func() bool
}

// Report tells Progress, when set, the fraction done.
func (h Hooks) Report(frac float64) {
	if h.Progress != nil {
		h.Progress(frac)
	}
}

// GoOn calls Pause, when set, and reports whether to go on.
func (h Hooks) GoOn() bool { return h.Pause == nil || h.Pause() }

// ErrAbandoned is the error of a generation its Pause hook abandoned, and
// of a count (StatsUntil) its caller stopped.
var ErrAbandoned = errors.New("abandoned")
