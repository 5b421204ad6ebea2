package tablebase

import (
	"errors"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Table is a generated (or loaded) tablebase. Its entries (the embedded
// Data, of a type internal to the tablebase packages) are tablebase/gen's
// to fill and read; others probe.
type Table struct {
	Variant  *engine.Variant
	Material Material
	layout.Data
	// sub supplies the tables after captures and promotions, for probing
	// a position with an en-passant capture (nil: such positions cannot
	// be probed).
	sub Subtables
	// lastUse orders the tables of a store with a memory budget by their
	// last lookup (the store's clock), for eviction.
	lastUse atomic.Int64
	sum     atomic.Uint64 // Checksum's, once known (0: not yet)
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
	if sum := t.sum.Load(); sum != 0 {
		return sum
	}
	sum := checksum(t.Val, t.DTZ)
	t.sum.Store(sum)
	return sum
}

// Bytes returns the memory the table's values take.
func (t *Table) Bytes() int64 {
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
