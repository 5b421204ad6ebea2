package gen

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// This file computes each entry's distance to zeroing under the variant's
// move rule (DTZ50 in chess, as Syzygy defines it): the plies to the next
// move that resets the count (a capture, a pawn move, a promotion) or to
// mate, under optimal play by both sides with the rule in force. The
// winner wins as fast as it can within the rule, the loser holds out as
// long as it can. A zeroing move is a terminal: it is worth what the
// position after it is worth with a fresh count, a win or loss at one ply,
// or — when that position is won only beyond the rule's reach (a cursed
// win, or its blessed loss) — at limit+1 plies. So a stored distance d
// above the limit (100 plies in chess) marks a win the rule draws (or a
// loss it saves), reached by zeroing in d or d−limit plies, exactly the
// numbers Syzygy's tables and python-chess's prober give.
//
// The walk is a retrograde analysis like the per-entry generator's, over
// the moves that do not zero: a pawn move changes the layer (the pawns'
// advance, which only grows), so layers are walked from the most advanced
// down, each one's pawn moves leading into layers already known. The
// outcome (win, draw, loss) must agree with the distance to mate's, which
// ignores the rule: a table whose two metrics disagree is refused.

// dtmShare is the share of a generation's progress the distances to mate
// take when distances to zeroing follow.
const dtmShare = 0.6

// dtzState is an entry's working state during the walk.
type dtzState struct {
	// cnt is the non-zeroing replies (distinct child entries) not yet
	// proven won for the opponent.
	cnt uint8
	// zwin is the fastest win by a zeroing move (1, or limit+1 into a
	// blessed loss), zloss the slowest loss by one; 0 if none.
	zwin, zloss uint8
	canSave     bool // a zeroing move draws or wins: never lost
	done        bool // settled: an entry may sit in a bucket twice
}

// dtzWalk is the working state of one table's walk.
type dtzWalk struct {
	gen   *generation // its own buckets and known bitmap; the DTM generation's subtables and twins
	limit int         // plies the move rule allows
	pawn  []bool      // by slot: its moves zero the count
	// dv is each entry's outcome by side to move (twins after the stored
	// entries): d+1 won at d plies, −(d+1) lost at d, 0 a draw (or not
	// yet known).
	dv       [2][]int16
	st       [2][]dtzState
	layer    []uint8 // by stored entry: the pawns' advance
	failOnce sync.Once
	err      error
	failed   atomic.Bool
}

// fail records the walk's first error.
func (w *dtzWalk) fail(err error) {
	w.failOnce.Do(func() { w.err = err; w.failed.Store(true) })
}

// generateDTZ computes the table's distances to zeroing, its distances to
// mate being known.
func (gen *generation) generateDTZ(workers int) error {
	t, g := gen.t, gen.g
	if !tablebase.HasDTZ(t.Variant) {
		return nil
	}
	w := &dtzWalk{limit: tablebase.RuleLimit(t.Variant), pawn: make([]bool, len(g.Pieces))}
	dg := &generation{t: t, g: g, sub: gen.sub, subs: gen.subs, promos: gen.promos, promoTypes: gen.promoTypes,
		buckets: make([][]uint32, layout.MaxDTZ+2), hooks: tablebase.Hooks{Pause: gen.hooks.Pause}}
	w.gen = dg
	for i, pc := range g.Pieces {
		if t.Variant.IsPawn(pc) {
			w.pawn[i] = true
			dg.unmoveSkip |= 1 << i
		}
	}
	scratches := make([]*scratch, workers)
	for k := range scratches {
		scratches[k] = dg.newScratch(workers)
	}
	dg.twins = gen.twins
	if dg.twins == nil && twinsPossible(g) {
		dg.twins = dg.findTwins(scratches)
	}
	for c := range 2 {
		size := g.Size + dg.twins.count(c)
		w.dv[c] = make([]int16, size)
		w.st[c] = make([]dtzState, size)
		dg.known[c] = make([]uint64, (size+63)/64)
	}
	top := w.layers(scratches)
	for layer := top; layer >= 0; layer-- {
		if !dg.hooks.GoOn() {
			return tablebase.ErrAbandoned
		}
		gen.hooks.Report(dtmShare + (1-dtmShare)*float64(top-layer)/float64(top+1))
		w.examineLayer(scratches, uint8(layer))
		if w.failed.Load() {
			return w.err
		}
		if !dg.propagate(scratches, w) {
			return tablebase.ErrAbandoned
		}
		if w.failed.Load() {
			return w.err
		}
	}
	return w.store()
}

// advance is how far the piece in slot i on square s has come from its
// side's first rank.
func advance(g *layout.Geometry, i, s int) int {
	if g.Colour[i] == 0 {
		return s / g.W
	}
	return g.H - 1 - s/g.W
}

// layers fills each stored entry's layer (the pawns' summed advance) and
// returns the highest.
func (w *dtzWalk) layers(scratches []*scratch) int {
	g := w.gen.g
	w.layer = make([]uint8, g.Size)
	const block = 1 << 12
	blocks := (g.Size + block - 1) / block
	w.gen.forEach(blocks, scratches, func(sc *scratch, k int) {
		for idx := k * block; idx < min((k+1)*block, g.Size); idx++ {
			g.Decode(idx, sc.sq)
			sum := 0
			for i, s := range sc.sq {
				if w.pawn[i] {
					sum += advance(g, i, s)
				}
			}
			w.layer[idx] = uint8(sum)
		}
	})
	top := 0
	for _, l := range w.layer {
		top = max(top, int(l))
	}
	return top
}

// examineLayer examines every entry of a layer (twins included) and files
// those resolved into the buckets.
func (w *dtzWalk) examineLayer(scratches []*scratch, layer uint8) {
	dg, g := w.gen, w.gen.g
	const block = 1 << 12
	blocks := (g.Size + block - 1) / block
	dg.forEach(blocks, scratches, func(sc *scratch, k int) {
		for idx := k * block; idx < min((k+1)*block, g.Size); idx++ {
			if w.layer[idx] != layer || w.failed.Load() {
				continue
			}
			g.Decode(idx, sc.sq)
			if !g.IsCanonical(sc.sq, idx) || g.Banned(sc.sq) || !sc.b.Place(sc.sq) {
				continue
			}
			for stm := range 2 {
				// A draw by distance to mate is a draw under the rule too,
				// and never informs a predecessor: nothing to examine.
				if v := dg.t.Val[stm][idx]; v != layout.NotPosition && v != 0 {
					w.examine(sc, stm, idx, idx, -1, tablebase.Decode(v).WDL > 0)
				}
			}
			sc.b.Clear()
		}
	})
	for c := range 2 {
		dg.forEach(dg.twins.count(c), scratches, func(sc *scratch, k int) {
			base, via := dg.twins.of(c, k)
			if w.layer[base] != layer {
				return
			}
			sc.place(base)
			w.examine(sc, c, g.Size+k, base, via, false) // a twin's outcome is not known
			sc.b.Clear()
		})
	}
	// Outcomes known now are final (mates, losses by zeroing alone).
	for c := range 2 {
		for idx, v := range w.dv[c] {
			if v != 0 {
				dg.known[c][idx/64] |= 1 << (idx % 64)
			}
		}
	}
	dg.bucketResolved(scratches)
}

// examine generates the moves of entry idx (side stm to move; its
// placement, base's, is on the scratch board; via is a twin's passed
// square, else -1), values its zeroing moves and counts the others. A
// position won by distance to mate (won) is never lost: its other moves
// need no counting.
func (w *dtzWalk) examine(sc *scratch, stm, idx, base, via int, won bool) {
	dg, g, b := w.gen, w.gen.g, sc.b
	safety := safetyOf(b, stm)
	var z layout.Terminal
	moves := false
	children := sc.children[:0]
	for _, i := range g.SlotsOf[stm] {
		promotes := g.Kind[i].Promotes
		sc.targets = b.AppendTargets(i, sc.targets[:0])
		for _, t := range sc.targets {
			victim := int(b.Who[t])
			if victim >= 0 && isRoyal(dg.t.Variant, g.Pieces[victim]) {
				continue
			}
			if !dg.legalAfter(b, stm, i, t, victim, safety) {
				continue
			}
			moves = true
			switch {
			case promotes != nil && promotes[t]:
				from := b.Play(i, t)
				for k := range dg.promoTypes {
					z.Add(w.promotionOutcome(b, i, victim, k, 1-stm), w.limit)
				}
				b.Unplay(i, from, victim)
			case victim >= 0:
				from := b.Play(i, t)
				z.Add(w.captureOutcome(b, victim, 1-stm), w.limit)
				b.Unplay(i, from, victim)
			case w.pawn[i]:
				if advance(g, i, t) <= advance(g, i, b.Sq[i]) {
					w.fail(fmt.Errorf("%s: a pawn that moves other than forward: distances to zeroing cannot be ordered by its advance", dg.t.Material))
					return
				}
				z.Add(w.outcome(1-stm, dg.childOf(b, stm, base, i, t)), w.limit)
			case !won:
				children = append(children, dg.childOf(b, stm, base, i, t))
			}
		}
	}
	if via >= 0 && dg.epCaptures(b, stm, via, func(victim int) { z.Add(w.captureOutcome(b, victim, 1-stm), w.limit) }) > 0 {
		moves = true
	}
	sc.children = children
	if !moves {
		if safety.inCheck {
			w.dv[stm][idx] = -1 // checkmated: lost, zeroing now
			sc.resolved = append(sc.resolved, resolved{0, uint32(stm<<31 | idx)})
		}
		return // stalemate: a draw
	}
	n := countDistinct(children)
	if n > 255 {
		w.fail(fmt.Errorf("%s: more than 255 replies", dg.t.Material))
		return
	}
	st := &w.st[stm][idx]
	st.cnt, st.zwin, st.zloss = uint8(n), uint8(z.ZWin), uint8(z.ZLoss)
	st.canSave = z.Draw || z.ZWin > 0 || won
	switch {
	case z.ZWin > 0:
		// A win by zeroing, unless a faster one turns up: settled at its level.
		sc.resolved = append(sc.resolved, resolved{uint32(z.ZWin), uint32(stm<<31 | idx)})
	case n == 0 && !st.canSave:
		// Every move zeroes into a lost position: lost at the longest.
		w.dv[stm][idx] = -int16(z.ZLoss + 1)
		sc.resolved = append(sc.resolved, resolved{uint32(z.ZLoss), uint32(stm<<31 | idx)})
	}
}

// outcome returns entry idx's outcome (side stm to move), known since it
// is in a layer walked before.
func (w *dtzWalk) outcome(stm, idx int) layout.Outcome {
	switch v := int(w.dv[stm][idx]); {
	case v > 0:
		return layout.Outcome{WDL: 1, D: v - 1}
	case v < 0:
		return layout.Outcome{WDL: -1, D: -v - 1}
	}
	return layout.Outcome{}
}

// captureOutcome is the outcome, in the subtable, of the position after a
// capture of slot victim (side stm to move); bare royal pieces draw.
func (w *dtzWalk) captureOutcome(b *layout.Board, victim, stm int) layout.Outcome {
	st := w.gen.subs[victim]
	if st == nil {
		return layout.Outcome{}
	}
	var pl placement
	pieces, squares := w.gen.placementAfter(b, &pl, -1, victim, 0)
	return w.lookup(st, pieces, squares, stm)
}

// promotionOutcome is the outcome of the position after the piece in slot
// i promoted to its k-th promotion piece, taking victim (or -1).
func (w *dtzWalk) promotionOutcome(b *layout.Board, i, victim, k, stm int) layout.Outcome {
	var pl placement
	pieces, squares := w.gen.placementAfter(b, &pl, i, victim, k)
	return w.lookup(w.gen.promos[i][victim+1][k], pieces, squares, stm)
}

// lookup reads a position's outcome in a smaller table.
func (w *dtzWalk) lookup(st *tablebase.Table, pieces []engine.Piece, squares []int, stm int) layout.Outcome {
	o, err := outcomeOf(st, pieces, squares, stm)
	if err != nil {
		w.fail(fmt.Errorf("%s: %w", w.gen.t.Material, err))
	}
	return o
}

// outcomeOf returns a placement's outcome in the table, by its distance
// to mate and its distance to zeroing.
func outcomeOf(t *tablebase.Table, pieces []engine.Piece, squares []int, stm int) (layout.Outcome, error) {
	if t.DTZ[0] == nil {
		return layout.Outcome{}, fmt.Errorf("the %s table holds no distances to zeroing", t.Material)
	}
	side, idx, ok := t.EntryOf(pieces, squares, stm)
	if !ok {
		return layout.Outcome{}, fmt.Errorf("%s holds no such position", t.Material)
	}
	v := t.Val[side][idx]
	if v == layout.NotPosition {
		return layout.Outcome{}, fmt.Errorf("%s: no such position", t.Material)
	}
	return layout.Outcome{WDL: tablebase.Decode(v).WDL, D: int(t.DTZ[side][idx])}, nil
}

// settle, lost and inform are the walk's retrograde rules (see
// generation.propagate).

func (w *dtzWalk) settle(level int, e uint32) bool {
	stm, idx := int(e>>31), int(e&(1<<31-1))
	st := &w.st[stm][idx]
	v := w.dv[stm][idx]
	switch {
	case st.done:
		return false
	case v == 0:
		// A win by zeroing found when examined, not beaten since.
		w.set(stm, idx, int16(level+1))
	case v != int16(level+1) && v != -int16(level+1):
		return false // resolved at another level
	}
	st.done = true
	return true
}

func (w *dtzWalk) lost(_, stm, idx int) bool { return w.dv[stm][idx] < 0 }

func (w *dtzWalk) inform(level, side, q int, lost bool, sc *scratch) {
	if w.gen.isKnown(side, q) {
		return
	}
	st := &w.st[side][q]
	if lost {
		// q wins by moving there, unless it zeroes into a win sooner
		// (then it is settled at that level, this one).
		win := level + 1
		if st.zwin > 0 && int(st.zwin) < win {
			win = int(st.zwin)
		}
		w.set(side, q, int16(win+1))
		if win == level+1 {
			w.resolve(sc, win, side, q)
		}
		return
	}
	if st.cnt == 0 {
		return // no reply left to count: it cannot lose by these
	}
	st.cnt--
	if st.cnt == 0 && !st.canSave {
		at := max(level+1, int(st.zloss))
		w.set(side, q, -int16(at+1))
		w.resolve(sc, at, side, q)
	}
}

// set records an entry's final outcome.
func (w *dtzWalk) set(stm, idx int, v int16) {
	w.dv[stm][idx] = v
	w.gen.known[stm][idx/64] |= 1 << (idx % 64)
}

// resolve files an entry resolved at level for its bucket.
func (w *dtzWalk) resolve(sc *scratch, level, stm, idx int) {
	if level > layout.MaxDTZ {
		w.fail(fmt.Errorf("%s: a distance to zeroing over %d plies, more than a table stores", w.gen.t.Material, layout.MaxDTZ))
		return
	}
	sc.resolved = append(sc.resolved, resolved{uint32(level), uint32(stm<<31 | idx)})
}

// errMetricsDisagree marks a table whose distance to zeroing and distance
// to mate disagree on who wins: a generator bug, never saved.
var errMetricsDisagree = errors.New("the distances to zeroing and to mate disagree")

// store keeps the stored entries' distances, checking each outcome against
// the distance to mate's.
func (w *dtzWalk) store() error {
	t, g := w.gen.t, w.gen.g
	for c := range 2 {
		t.DTZ[c] = make([]byte, g.Size)
		for idx, v := range w.dv[c][:g.Size] {
			stored := t.Val[c][idx]
			if stored == layout.NotPosition {
				continue
			}
			o := w.outcome(c, idx)
			if o.WDL != tablebase.Decode(stored).WDL {
				sq := make([]int, len(g.Pieces))
				g.Decode(idx, sq)
				where := fmt.Sprint(sq)
				if p, err := t.Position(t.Variant, sq, c); err == nil {
					where = p.FEN()
				}
				return fmt.Errorf("%s: %s: DTZ says %d, DTM %s: %w", t.Material, where, o.WDL, tablebase.Decode(stored), errMetricsDisagree)
			}
			if v != 0 {
				t.DTZ[c][idx] = byte(o.D)
			}
		}
	}
	return nil
}
