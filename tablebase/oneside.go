package tablebase

import (
	"cmp"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// A table file may store the distances of one side to move only (format
// 5, SaveOneSide): the other side's outcomes are stored, its distances
// to mate and to zeroing are what one ply of search over the stored side
// and the smaller tables gives. Verify proves every stored entry equal to
// that ply, so the search reproduces the generator's values exactly.

// dropped reports whether side's distances are not at hand: not stored in
// the table's file, or not rebuilt yet in memory (rebuild).
func (t *Table) dropped(side int) bool {
	if t.packed != nil {
		return t.packed.Dropped(side)
	}
	return t.Val[side] == nil
}

// searchDropped is at for a side whose distances the file does not store:
// one ply of search (searchAt), checked against the outcome the file
// stores for the entry, so that smaller tables which changed since the
// file was written (or a search gone wrong) are an error, never a wrong
// value.
func (t *Table) searchDropped(p *engine.Position, side, idx int) (val, dtz byte, err error) {
	if val, dtz, err = t.searchAt(p); err != nil || t.packed == nil {
		return val, dtz, err
	}
	stored, err := t.packed.Outcome(side, idx)
	if err != nil {
		return 0, 0, t.damaged(err)
	}
	if err := t.checkOutcome(p, val, stored); err != nil {
		return 0, 0, err
	}
	return val, dtz, nil
}

// checkOutcome compares a searched value with the outcome the file stores
// for its position: a disagreement is ErrCorrupt (a damaged file, or
// smaller tables that changed since it was written).
func (t *Table) checkOutcome(p *engine.Position, searched byte, stored int) error {
	if got := Decode(searched); got.WDL != stored {
		return fmt.Errorf("%s %s: %s: one ply of search gives %s, the file stores the outcome %d: %w",
			t.Variant.Name, t.Material, p.FEN(), got, stored, ErrCorrupt)
	}
	return nil
}

// searchAt values a covered position without an en-passant capture of a
// side whose distances are dropped: one ply over its moves, each
// position after a move read once (this table's stored side, a smaller
// table, or through its own moves after a double step).
func (t *Table) searchAt(p *engine.Position) (val, dtz byte, err error) {
	limit := RuleLimit(t.Variant)
	var ply zeroingPly
	var best Result
	moves := p.LegalMoves(nil)
	for i, m := range moves {
		p.Make(m)
		zeroing := p.HalfmoveClock() == 0
		cr, o, err := t.childValue(p, t.subtables)
		p.Unmake()
		if err != nil {
			return 0, 0, err
		}
		if r := moverResult(cr); i == 0 || Better(r, best) {
			best = r
		}
		ply.add(o, zeroing, limit)
	}
	if len(moves) == 0 && p.InCheck() {
		best = Result{WDL: -1}
	}
	if t.HasDTZ() && best.WDL != 0 {
		d := ply.dtz()
		if (d > 0) != (best.WDL > 0) && len(moves) > 0 {
			return 0, 0, fmt.Errorf("%s %s: %s: the distances to mate and to zeroing disagree: %w",
				t.Variant.Name, t.Material, p.FEN(), ErrCorrupt)
		}
		dtz = byte(max(d, -d))
	}
	return encode(best), dtz, nil
}

// childValue is the value and the outcome (with its distance to zeroing)
// of the position after a move, for its side to move: by t, the smaller
// table tables supplies, or a draw for bare royal pieces. Without an
// en-passant capture it is one look-up for both.
func (t *Table) childValue(c *engine.Position, tables Tables) (Result, layout.Outcome, error) {
	covered := t.Covers(c)
	if !covered && c.PieceCount() <= 2 {
		return Result{}, layout.Outcome{}, nil
	}
	tbl := t
	if !covered {
		var err error
		if tbl, err = tables(c); err != nil {
			return Result{}, layout.Outcome{}, err
		}
		if !tbl.Covers(c) {
			return Result{}, layout.Outcome{}, fmt.Errorf("%s does not cover %s", tbl.Material, c.FEN())
		}
	}
	if c.EnPassant() != engine.NoSquare {
		// No table holds it: its own moves, as ValueAfter values it.
		r, err := tbl.probeByMoves(c, func(x *engine.Position) (*Table, error) {
			if tbl.Covers(x) {
				return tbl, nil
			}
			return tables(x)
		})
		if err != nil {
			return Result{}, layout.Outcome{}, err
		}
		var o layout.Outcome
		if t.HasDTZ() {
			if o, err = t.outcomeAfter(c, tables); err != nil {
				return Result{}, layout.Outcome{}, err
			}
		}
		return r, o, nil
	}
	v, dz, err := tbl.at(c)
	if err != nil {
		return Result{}, layout.Outcome{}, err
	}
	r := Decode(v)
	o := layout.Outcome{WDL: r.WDL}
	if r.WDL != 0 {
		o.D = int(dz)
	}
	return r, o, nil
}

// rebuild fills a dense table's dropped side, whose stored outcomes are
// given, by one ply of search from every position (on every processor);
// a position whose search disagrees with its stored outcome is an error,
// and goOn (when not nil) saying no ends it with ErrAbandoned.
// The side stays dropped until every entry is found: a search that needs
// another entry of it (after a double step and its en-passant reply)
// searches again.
func (t *Table) rebuild(side int, outcomes []int8, goOn func() bool) error {
	g := t.Geo
	val := make([]byte, g.Size)
	var dtz []byte
	if t.HasDTZ() {
		dtz = make([]byte, g.Size)
	}
	const chunk = 4096
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			b := g.NewBoard()
			sq := make([]int, len(g.Pieces))
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= g.Size {
					return
				}
				if goOn != nil && !goOn() {
					mu.Lock()
					firstErr = cmp.Or(firstErr, ErrAbandoned)
					mu.Unlock()
					next.Store(int64(g.Size))
					return
				}
				for idx := start; idx < min(start+chunk, g.Size); idx++ {
					g.Decode(idx, sq)
					if !g.IsCanonical(sq, idx) || !b.Place(sq) {
						continue
					}
					err := t.rebuildEntry(b, sq, idx, side, outcomes, val, dtz)
					b.Clear()
					if err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
						next.Store(int64(g.Size)) // stop every worker
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	t.Val[side] = val
	if dtz != nil {
		t.DTZ[side] = dtz
	}
	return nil
}

// rebuildEntry searches one entry of a dropped side (its placement on b)
// into val and dtz.
func (t *Table) rebuildEntry(b *layout.Board, sq []int, idx, side int, outcomes []int8, val, dtz []byte) error {
	if !b.Legal(side) || t.Geo.Banned(sq) {
		return nil
	}
	p, err := t.Position(t.Variant, sq, side)
	if err != nil {
		return nil // no position: don't care
	}
	v, z, err := t.searchAt(p)
	if err != nil {
		return err
	}
	if err := t.checkOutcome(p, v, int(outcomes[idx])); err != nil {
		return err
	}
	val[idx] = v
	if dtz != nil {
		dtz[idx] = z
	}
	return nil
}

// canarySamples is how many positions of the side SaveOneSide drops are
// searched and compared with their stored entries before the file is
// written: a few milliseconds.
const canarySamples = 4096

// checkSearchedSide compares the entries of side, whose distances a
// file is about to leave to the search, with what the search finds, over
// positions spread across the table: a table whose entries are not the
// one-ply search's (a generator's error, smaller tables that changed)
// is refused, never written to read back otherwise.
func (t *Table) checkSearchedSide(side int) error {
	g := t.Geo
	stride := max(1, g.Size/canarySamples)
	b := g.NewBoard()
	sq := make([]int, len(g.Pieces))
	for idx := stride / 2; idx < g.Size; idx += stride {
		g.Decode(idx, sq)
		if !g.IsCanonical(sq, idx) || !b.Place(sq) {
			continue
		}
		legal := b.Legal(side) && !g.Banned(sq)
		b.Clear()
		if !legal {
			continue
		}
		p, err := t.Position(t.Variant, sq, side)
		if err != nil {
			continue
		}
		v, z, err := t.searchAt(p)
		if err != nil {
			return fmt.Errorf("%s: cannot search the side whose distances would be dropped: %w", p.FEN(), err)
		}
		want, wantZ, err := t.valueDTZ(side, idx)
		if err != nil {
			return err
		}
		if v != want || (t.HasDTZ() && z != wantZ) {
			return fmt.Errorf("%s: stored %s (%d to zeroing), one ply of search gives %s (%d): the side's distances cannot be dropped",
				p.FEN(), Decode(want), wantZ, Decode(v), z)
		}
	}
	return nil
}

// DistancesStored reports whether the table holds side to move's
// distances (to mate and to zeroing) as entries, rather than finding
// them by one ply of search (a file saved by SaveOneSide).
func (t *Table) DistancesStored(side int) bool { return !t.dropped(side) }
