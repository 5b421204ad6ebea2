package tablebase

import (
	"errors"
	"fmt"

	"github.com/chimera-chess/chimera/tablebase/internal/layout"
	"github.com/chimera-chess/chimera/tablebase/internal/packed"
)

// The entries of a table, wherever they are: in memory (a generated
// table, or Dense's) or block by block from the table's file. A file's
// entries that are no position read as arbitrary values, so callers ask
// only about positions (the rules core sets up no other).

// valueDTZ returns the value and the distance to zeroing (0 without
// them) of entry idx, side to move side.
func (t *Table) valueDTZ(side, idx int) (val, dtz byte, err error) {
	if t.packed == nil {
		if t.DTZ[side] != nil {
			dtz = t.DTZ[side][idx]
		}
		return t.Val[side][idx], dtz, nil
	}
	val, dtz, err = t.packed.Entry(side, idx)
	if errors.Is(err, packed.ErrDropped) {
		return 0, 0, fmt.Errorf("%s %s: %w", t.Variant.Name, t.Material, err) // not damage: search (at)
	}
	return val, dtz, t.damaged(err)
}

// damaged names the table in a read error and marks it ErrCorrupt.
func (t *Table) damaged(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s %s: %v: %w", t.Variant.Name, t.Material, err, ErrCorrupt)
}

// HasDTZ reports whether the table holds distances to zeroing (its
// variant has a move rule).
func (t *Table) HasDTZ() bool {
	if t.packed != nil {
		return t.packed.HasDTZ()
	}
	return t.DTZ[0] != nil || t.DTZ[1] != nil // one may be dropped (rebuild)
}

// MarksNonPositions reports whether entries that are no position read as
// layout.NotPosition (a generated table's) rather than arbitrary values
// (a file's).
func (t *Table) MarksNonPositions() bool { return t.packed == nil && !t.dontCare }

// Dense returns the table with all its entries in memory: the table
// itself when they are, else its file's, decoded (a generation's
// subtables, a verification); a side whose distances the file does not
// store is searched, one ply from each of its positions (rebuild), which
// needs the smaller tables. The copy is the caller's; a damaged block
// is an error naming the table.
func (t *Table) Dense() (*Table, error) { return t.denseUntil(nil) }

// denseUntil is Dense with a way to stop a rebuild: goOn, when not nil,
// is asked between chunks of positions, and the rebuild ends with
// ErrAbandoned once it says no.
func (t *Table) denseUntil(goOn func() bool) (*Table, error) {
	if t.packed == nil {
		return t, nil
	}
	val, dtz, err := t.packed.Dense()
	if err != nil {
		return nil, t.damaged(err)
	}
	d := &Table{Variant: t.Variant, Material: t.Material, Data: layout.Data{Geo: t.Geo, Val: val, DTZ: dtz},
		sub: t.sub, find: t.find, dontCare: true}
	d.sum.Store(t.Checksum())
	for side := range 2 {
		if !t.packed.Dropped(side) {
			continue
		}
		outcomes, err := t.packed.Outcomes(side)
		if err != nil {
			return nil, t.damaged(err)
		}
		if err := d.rebuild(side, outcomes, goOn); err != nil {
			return nil, err
		}
	}
	return d, nil
}
