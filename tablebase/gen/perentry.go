package gen

import (
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// The per-entry generator: every entry is examined on its own, its replies
// counted, and the levels propagated by un-moving the positions resolved at
// the level before. It makes the tables the bit-parallel generator cannot
// (boards over 64 squares), and is the reference the bit-parallel one is
// compared with.

// generatePerEntry fills the table's values with that many workers; it
// returns false when abandoned.
func (gen *generation) generatePerEntry(workers int) bool {
	g := gen.g
	scratches := make([]*scratch, workers)
	for w := range scratches {
		scratches[w] = gen.newScratch(len(scratches))
	}
	if twinsPossible(g) {
		gen.twins = gen.findTwins(scratches)
	}
	for c := 0; c < 2; c++ {
		size := g.Size + gen.twins.count(c)
		gen.eager[c] = len(g.SlotsOf[1-c]) > 1 && !gen.stronger(c)
		gen.t.Val[c] = make([]byte, size)
		gen.state[c] = make([]entryState, size)
		gen.known[c] = make([]uint64, (size+63)/64)
	}
	if !gen.initialise(scratches) || !gen.propagate(scratches, dtmRetrograde{gen}) {
		return false
	}
	for c := 0; c < 2; c++ {
		gen.t.Val[c] = gen.t.Val[c][:g.Size:g.Size] // the twins are not stored
		gen.state[c], gen.known[c] = nil, nil       // the DTZ walk has its own
	}
	return true
}

// entryState is an entry's working state during generation.
type entryState struct {
	// cnt is the replies (distinct child classes) not yet proven lost;
	// uncounted until the first reply is proven lost, since most entries
	// of one side (the side that cannot lose) never need counting.
	cnt uint8
	// capLoss is 1 + the plies to our mate after our slowest-losing
	// capture, 0 if none.
	capLoss uint8
	canSave bool // a capture draws or wins: never lost
	done    bool // un-moves walked: an entry may sit in a bucket twice
}

// initialise examines every entry: marks the non-positions, counts the
// replies, resolves mates and stalemates and what captures decide. Workers
// take blocks of consecutive entries, so no two write one cache line.
func (gen *generation) initialise(scratches []*scratch) (finished bool) {
	g := gen.g
	const block = 1 << 12
	blocks := (g.Size + block - 1) / block
	var abandoned atomic.Bool
	var done atomic.Int64
	gen.forEach(blocks, scratches, func(sc *scratch, k int) {
		if abandoned.Load() || !gen.hooks.GoOn() {
			abandoned.Store(true)
			return
		}
		for idx := k * block; idx < min((k+1)*block, g.Size); idx++ {
			gen.initialiseEntry(sc, idx)
		}
		if n := done.Add(1); n%64 == 0 {
			gen.hooks.Report(0.5 * float64(n) / float64(blocks))
		}
	})
	if abandoned.Load() {
		return false
	}
	for c := 0; c < 2; c++ {
		gen.forEach(gen.twins.count(c), scratches, func(sc *scratch, k int) {
			idx := g.Size + k
			base, via := gen.twins.of(c, k)
			sc.place(base)
			if level, ok := gen.examine(sc.b, c, idx, base, via, &sc.children, &sc.targets); ok {
				sc.resolved = append(sc.resolved, resolved{uint32(level), uint32(c<<31 | idx)})
			}
			sc.b.Clear()
		})
	}
	for c := 0; c < 2; c++ {
		for idx, v := range gen.t.Val[c] {
			if v != 0 {
				gen.known[c][idx/64] |= 1 << (idx % 64)
			}
		}
	}
	gen.bucketResolved(scratches)
	return true
}

// initialiseEntry examines entry idx with either side to move.
func (gen *generation) initialiseEntry(sc *scratch, idx int) {
	g := gen.g
	g.Decode(idx, sc.sq)
	if !g.IsCanonical(sc.sq, idx) || g.Banned(sc.sq) || !sc.b.Place(sc.sq) {
		gen.t.Val[0][idx], gen.t.Val[1][idx] = layout.NotPosition, layout.NotPosition
		return
	}
	for stm := 0; stm < 2; stm++ {
		if !sc.b.Legal(stm) {
			gen.t.Val[stm][idx] = layout.NotPosition
		} else if level, ok := gen.examine(sc.b, stm, idx, idx, -1, &sc.children, &sc.targets); ok {
			sc.resolved = append(sc.resolved, resolved{uint32(level), uint32(stm<<31 | idx)})
		}
	}
	sc.b.Clear()
}

// isKnown reports whether the value of entry idx (side stm to move) is known.
func (gen *generation) isKnown(stm, idx int) bool {
	return gen.known[stm][idx/64]&(1<<(idx%64)) != 0
}

// setValue records the value of entry idx (side stm to move). Entries are
// owned by 64-entry words (see propagate), so no word has two writers.
func (gen *generation) setValue(stm, idx int, v byte) {
	gen.t.Val[stm][idx] = v
	gen.known[stm][idx/64] |= 1 << (idx % 64)
}

// bucketResolved files the entries the workers resolved into the buckets,
// worker by worker, so the order does not depend on scheduling.
func (gen *generation) bucketResolved(scratches []*scratch) {
	for _, sc := range scratches {
		for _, r := range sc.resolved {
			gen.buckets[r.level] = append(gen.buckets[r.level], r.entry)
		}
		sc.resolved = sc.resolved[:0]
	}
}

// examine generates the moves of a legal position and records what is
// known: the number of quiet child classes, and what captures and
// promotions give. idx is the entry; base the entry of its placement (idx
// itself, but for a twin: the position with an en-passant capture, whose
// pawn passed via, else via is -1). It returns a level when the position
// is resolved (or may be, for a win by capture) at that many plies.
func (gen *generation) examine(b *layout.Board, stm, idx, base, via int, children, targets *[]int) (int, bool) {
	g := gen.g
	caps := captureResults{winBy: -1, lossBy: -1}
	quiet := false
	safety := safetyOf(b, stm)
	eager := gen.eager[stm]
	// When the moves lead to distinct entries, counting them is enough.
	distinct := g.DistinctMoves(stm, b.Sq[0])
	quietMoves := 0
	*children = (*children)[:0]
	for _, i := range g.SlotsOf[stm] {
		promotes := g.Kind[i].Promotes
		*targets = b.AppendTargets(i, (*targets)[:0])
		for _, t := range *targets {
			victim := int(b.Who[t])
			if victim >= 0 && isRoyal(gen.t.Variant, g.Pieces[victim]) {
				continue // never in a legal position
			}
			if promotes != nil && promotes[t] {
				if gen.legalAfter(b, stm, i, t, victim, safety) {
					from := b.Play(i, t)
					for k := range gen.promoTypes {
						caps.add(gen.promotionValue(b, i, victim, k, 1-stm))
					}
					b.Unplay(i, from, victim)
				}
				continue
			}
			if victim < 0 {
				// A quiet move: its child class is counted now for an eager
				// side; otherwise one legal is enough here, and they are
				// counted when first needed (countReplies).
				if (eager || !quiet) && gen.legalAfter(b, stm, i, t, -1, safety) {
					quiet = true
					quietMoves++
					if eager && !distinct {
						*children = append(*children, gen.childOf(b, stm, base, i, t))
					}
				}
				continue
			}
			// A capture: the child is in a smaller table.
			if !gen.legalAfter(b, stm, i, t, victim, safety) {
				continue
			}
			from := b.Play(i, t)
			caps.add(gen.childValue(b, victim, 1-stm))
			b.Unplay(i, from, victim)
		}
	}
	if via >= 0 {
		gen.epCaptures(b, stm, via, func(victim int) { caps.add(gen.childValue(b, victim, 1-stm)) })
	}
	winBy, lossBy, draw := caps.winBy, caps.lossBy, caps.draw
	if caps.n == 0 && !quiet {
		if safety.inCheck {
			gen.t.Val[stm][idx] = 1 // checkmated: mated in 0 plies
			return 0, true
		}
		return 0, false // stalemate: a draw
	}
	st := &gen.state[stm][idx]
	switch {
	case !quiet:
		st.cnt = 0
	case eager && distinct:
		st.cnt = uint8(quietMoves)
	case eager:
		st.cnt = uint8(countDistinct(*children))
	default:
		st.cnt = uncounted
	}
	st.canSave = draw || winBy >= 0
	if lossBy >= 0 {
		st.capLoss = uint8(lossBy + 1)
	}
	if winBy >= 0 {
		return winBy, true // a win by capture, unless a faster one turns up
	}
	if !quiet && !draw {
		// Every move captures into a lost position: lost at the longest.
		gen.t.Val[stm][idx] = byte(lossBy + 1)
		return lossBy, true
	}
	return 0, false
}

// uncounted marks a reply counter not yet computed.
const uncounted = 255

// legalAfter reports whether moving slot i to t (capturing victim, or -1)
// leaves stm's king safe. A move of a piece other than the king, out of
// check, is safe unless the piece is pinned (see kingSafety); the rest are
// played and tested.
func (gen *generation) legalAfter(b *layout.Board, stm, i, t, victim int, safety kingSafety) bool {
	if i != gen.g.King[stm] && !safety.inCheck && safety.pinned&(1<<i) == 0 {
		return true
	}
	from := b.Play(i, t)
	safe := !b.Attacked(stm, victim)
	b.Unplay(i, from, victim)
	return safe
}

// kingSafety is what the legality of a side's moves depends on, found
// once per position.
type kingSafety struct {
	inCheck bool
	// pinned has a bit for each of the side's slots that is the only piece
	// on an enemy rider's (or lame leaper's) line to its king: moving it
	// may expose the king.
	pinned uint32
}

// safetyOf finds colour c's kingSafety on the board.
func safetyOf(b *layout.Board, c int) kingSafety {
	g := b.G
	k := b.Sq[g.King[c]]
	safety := kingSafety{inCheck: b.Attacked(c, -1)}
	for _, j := range g.Riders[1-c] {
		ms, from := g.Kind[j].Capture, b.Sq[j]
		l := ms.Line[from*g.N+k]
		if l&0xff < 2 {
			continue // not on a line to the king
		}
		blocker := -1
		for _, t := range ms.Rays[from][l&0xff-2].Sq[:l>>8] {
			if w := int(b.Who[t]); w >= 0 {
				if blocker >= 0 {
					blocker = -1 // two blockers: nothing is pinned
					break
				}
				blocker = w
			}
		}
		if blocker >= 0 && g.Colour[blocker] == c {
			safety.pinned |= 1 << blocker
		}
	}
	return safety
}

// countReplies counts the distinct child classes of the quiet legal moves
// (promotions aside: they lead into other tables) of the position on b
// (side stm to move, its placement's entry base).
func (gen *generation) countReplies(b *layout.Board, stm, base int, children, targets *[]int) uint8 {
	g := gen.g
	*children = (*children)[:0]
	safety := safetyOf(b, stm)
	distinct := g.DistinctMoves(stm, b.Sq[0])
	moves := 0
	for _, i := range g.SlotsOf[stm] {
		promotes := g.Kind[i].Promotes
		*targets = b.AppendTargets(i, (*targets)[:0])
		for _, t := range *targets {
			if b.Who[t] >= 0 || (promotes != nil && promotes[t]) || !gen.legalAfter(b, stm, i, t, -1, safety) {
				continue
			}
			moves++
			if !distinct {
				*children = append(*children, gen.childOf(b, stm, base, i, t))
			}
		}
	}
	if distinct {
		return uint8(moves)
	}
	return uint8(countDistinct(*children))
}

// childOf returns the entry of the position after the quiet move of slot
// i to t from the position on b (side stm to move, entry base): after a
// double step that can be taken en passant, the twin that says so.
func (gen *generation) childOf(b *layout.Board, stm, base, i, t int) int {
	from := b.Sq[i]
	b.Sq[i] = t // moved reads the new square only
	child := gen.g.Moved(base, b.Sq, i, from)
	if gen.twins != nil {
		if via := gen.g.DoubleStep(i, from, t); via >= 0 {
			if twin := gen.twinOf(1-stm, b.Sq, via); twin >= 0 {
				child = twin
			}
		}
	}
	b.Sq[i] = from
	return child
}

// countDistinct counts distinct values in a short list (sorting it by
// insertion: the lists hold a few dozen entries at most).
func countDistinct(xs []int) int {
	for i := 1; i < len(xs); i++ {
		x := xs[i]
		j := i
		for ; j > 0 && xs[j-1] > x; j-- {
			xs[j] = xs[j-1]
		}
		xs[j] = x
	}
	n := 0
	for i := range xs {
		if i == 0 || xs[i] != xs[i-1] {
			n++
		}
	}
	return n
}

// promotionValue looks up the position on b after the piece in slot i
// promoted to its k-th promotion piece, taking victim (or -1), side stm to
// move.
func (gen *generation) promotionValue(b *layout.Board, i, victim, k, stm int) byte {
	var pl placement
	pieces, squares := gen.placementAfter(b, &pl, i, victim, k)
	return gen.promos[i][victim+1][k].ValueOf(pieces, squares, stm)
}

// placement is room for a placement's pieces and squares.
type placement struct {
	pieces  [tablebase.MaxPieces]engine.Piece
	squares [tablebase.MaxPieces]int
}

// placementAfter fills pl with the pieces on b after a capture of slot
// victim (or -1) and, when promoted >= 0, the piece in slot promoted
// promoting to its k-th promotion piece: the placement a smaller table
// (or a promotion's) is probed with.
func (gen *generation) placementAfter(b *layout.Board, pl *placement, promoted, victim, k int) ([]engine.Piece, []int) {
	n := 0
	for j, pc := range gen.g.Pieces {
		if j == victim {
			continue
		}
		if j == promoted {
			pc = engine.MakePiece(gen.promoTypes[k], pc.Colour())
		}
		pl.pieces[n], pl.squares[n] = pc, b.Sq[j]
		n++
	}
	return pl.pieces[:n], pl.squares[:n]
}

// childValue looks up, in the subtable, the position after a capture of
// slot victim, with side stm to move.
func (gen *generation) childValue(b *layout.Board, victim, stm int) byte {
	st := gen.subs[victim]
	if st == nil {
		return 0 // bare kings
	}
	var pl placement
	pieces, squares := gen.placementAfter(b, &pl, -1, victim, 0)
	return st.ValueOf(pieces, squares, stm)
}

// propagate walks the un-moves from the resolved positions, level by
// level: a position with a move to a lost one is won one ply later; a
// position all of whose replies are won for the opponent is lost. The
// un-moves of a chunk of entries are generated in parallel, each worker
// sorting the predecessors it finds by the worker that owns them (by
// 64-entry word of the known bitmap, so nothing has two writers); then
// each worker informs its own. Within a level the values do not depend
// on the order, and the order is fixed by the worker count.
func (gen *generation) propagate(scratches []*scratch, r retrograde) (finished bool) {
	const chunk = 1 << 14
	settled := make([]uint32, 0, chunk)
	workers := len(scratches)
	pow2, mask := workers&(workers-1) == 0, workers-1
	owner := func(q int) int {
		if pow2 {
			return q >> 6 & mask // no division in this loop
		}
		return q >> 6 % workers
	}
	for level := 0; level < len(gen.buckets)-1; level++ {
		if len(gen.buckets[level]) == 0 && gen.emptyFrom(level) {
			break
		}
		bucket := gen.buckets[level]
		for start := 0; start < len(bucket); start += chunk {
			if !gen.hooks.GoOn() {
				return false
			}
			settled = settled[:0]
			for _, e := range bucket[start:min(start+chunk, len(bucket))] {
				if r.settle(level, e) {
					settled = append(settled, e)
				}
			}
			for _, sc := range scratches {
				for w := range sc.informs {
					sc.informs[w] = sc.informs[w][:0]
				}
			}
			gen.forEach(len(settled), scratches, func(sc *scratch, k int) {
				stm, idx := int(settled[k]>>31), int(settled[k]&(1<<31-1))
				lost := r.lost(level, stm, idx)
				sc.place(gen.base(stm, idx))
				sc.preds = gen.predecessors(sc.b, stm, idx, lost, sc.preds[:0], sc)
				sc.b.Clear()
				for _, q := range sc.preds {
					w := owner(q)
					sc.informs[w] = append(sc.informs[w], informOf(1-stm, q, lost))
				}
			})
			gen.forEach(workers, scratches, func(sc *scratch, w int) {
				for _, from := range scratches {
					for _, e := range from.informs[w] {
						r.inform(level, int(e>>63), int(e>>1&(1<<31-1)), e&1 != 0, sc)
					}
				}
			})
			gen.bucketResolved(scratches)
		}
		gen.buckets[level] = nil
		// Distances rarely pass 100 plies in tables this size.
		gen.hooks.Report(0.5 + 0.5*min(float64(level)/100, 0.99))
	}
	return true
}

// retrograde is what propagate's walk does at each entry: the rules of
// one metric (distance to mate here, distance to zeroing in dtz.go).
type retrograde interface {
	// settle decides whether bucket entry e is resolved at this level
	// now; only then do its predecessors hear of it.
	settle(level int, e uint32) bool
	// lost reports whether a settled entry is lost for its side to move
	// (its predecessors win by moving there).
	lost(level, stm, idx int) bool
	// inform tells predecessor q (side to move `side`) that one of its
	// moves leads to a position settled at level, lost or won there.
	inform(level, side, q int, lost bool, sc *scratch)
}

// informOf packs a predecessor to inform: its side, entry and whether the
// position it moves to is lost.
func informOf(side, q int, lost bool) uint64 {
	e := uint64(side)<<63 | uint64(q)<<1
	if lost {
		e |= 1
	}
	return e
}

// dtmRetrograde is the distance-to-mate walk: a level's parity says who
// wins (even plies: the side to move is mated).
type dtmRetrograde struct{ gen *generation }

func (r dtmRetrograde) settle(level int, e uint32) bool { return r.gen.settle(level, e) }
func (r dtmRetrograde) lost(level, _, _ int) bool       { return level%2 == 0 }
func (r dtmRetrograde) inform(level, side, q int, _ bool, sc *scratch) {
	r.gen.inform(level, side, q, sc)
}

// settle decides whether bucket entry e is resolved at this level now (an
// entry may sit in a bucket twice, or have been resolved sooner); only
// then do its predecessors hear of it.
func (gen *generation) settle(level int, e uint32) bool {
	stm, idx := int(e>>31), int(e&(1<<31-1))
	v := &gen.t.Val[stm][idx]
	switch {
	case gen.state[stm][idx].done:
		return false // a capture win that a quiet win matched
	case level%2 == 1 && *v == 0:
		gen.setValue(stm, idx, byte(level+1)) // a win by capture found at init
	case *v != byte(level+1):
		return false // resolved sooner
	}
	gen.state[stm][idx].done = true
	return true
}

// inform tells predecessor q (side to move `side`) that one of its moves
// leads to a position resolved at level. If the position there is lost,
// q wins one ply later; if it is won, q loses a reply, and is lost at its
// longest resistance when none is left. Entries resolved here are kept in
// the scratch for the buckets.
func (gen *generation) inform(level, side, q int, sc *scratch) {
	if gen.isKnown(side, q) {
		return
	}
	if level%2 == 0 {
		// The position there is mated: whoever moved into it wins.
		gen.setValue(side, q, byte(level+2))
		sc.resolved = append(sc.resolved, resolved{uint32(level + 1), uint32(side<<31 | q)})
		return
	}
	st := &gen.state[side][q]
	if st.cnt == uncounted {
		base := gen.base(side, q)
		sc.place(base)
		st.cnt = gen.countReplies(sc.b, side, base, &sc.children, &sc.targets)
		sc.b.Clear()
	}
	st.cnt--
	if st.cnt == 0 && !st.canSave {
		// Lost at the longest resistance: the last reply proven lost, or
		// a capture into a smaller table that loses later.
		lost := max(level+1, int(st.capLoss)-1)
		gen.setValue(side, q, byte(lost+1))
		sc.resolved = append(sc.resolved, resolved{uint32(lost), uint32(side<<31 | q)})
	}
}

// resolved is an entry resolved at a level, for its bucket: eight bytes,
// since initialisation may resolve tens of millions at once (every win
// by a capture) before they are filed.
type resolved struct {
	level uint32
	entry uint32
}

// scratch is one worker's board and buffers.
type scratch struct {
	b                            *layout.Board
	sq, targets, children, preds []int
	unmoves                      []unmove
	resolved                     []resolved
	informs                      [][]uint64 // by owning worker: predecessors to inform (informOf)
}

func (gen *generation) newScratch(workers int) *scratch {
	g := gen.g
	return &scratch{b: g.NewBoard(), sq: make([]int, len(g.Pieces)), targets: make([]int, 0, g.N),
		children: make([]int, 0, 64), informs: make([][]uint64, workers)}
}

// place sets up the placement of entry idx (not a twin) on the scratch
// board.
func (sc *scratch) place(idx int) {
	sc.b.G.Decode(idx, sc.sq)
	sc.b.Place(sc.sq)
}

// forEach calls f for k in [0, n), spread over the workers (one scratch
// each), and returns when all are done.
func (gen *generation) forEach(n int, scratches []*scratch, f func(sc *scratch, k int)) {
	workers := len(scratches)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := w; k < n; k += workers {
				f(scratches[w], k)
			}
		}(w)
	}
	wg.Wait()
}

func (gen *generation) emptyFrom(level int) bool {
	for _, b := range gen.buckets[level:] {
		if len(b) > 0 {
			return false
		}
	}
	return true
}

// predecessors appends the distinct entries (other side to move) from
// which a legal non-capture move leads to entry idx (side stm to move),
// whose placement is on b. When the position is lost (wins), they win by
// moving here, so those already known are left out, and repeats are
// harmless (they win once). A twin (the position just after a double step
// that can be taken en passant) has one un-move: that double step; the
// same placement without the right has every other.
func (gen *generation) predecessors(b *layout.Board, stm, idx int, wins bool, out []int, sc *scratch) []int {
	g := gen.g
	mover := 1 - stm
	k := b.Sq[g.King[stm]]
	twinVia := -1
	if idx >= g.Size {
		_, twinVia = gen.twins.of(stm, idx-g.Size)
	}
	base := gen.base(stm, idx)
	// A mover's leaper that checks the king now still checks it after
	// another piece's un-move: only its own un-moves can be legal. Riders
	// are tested after each un-move, since it may open or close their line.
	var checkers uint32
	for _, j := range g.SlotsOf[mover] {
		if !g.Rider[j] && g.Attacks(j, b.Sq[j], k, b.Who) {
			checkers |= 1 << j
		}
	}
	cands := sc.unmoves[:0]
	for _, i := range g.SlotsOf[mover] {
		if checkers&^(1<<i) != 0 || gen.unmoveSkip&(1<<i) != 0 {
			continue
		}
		sc.targets = b.AppendUnmoves(i, sc.targets[:0])
		for _, t := range sc.targets {
			if gen.twins != nil {
				via := g.DoubleStep(i, t, b.Sq[i])
				if twinVia >= 0 && via != twinVia {
					continue // a twin is reached by its double step alone
				}
				if twinVia < 0 && via >= 0 && gen.twinOf(stm, b.Sq, via) >= 0 {
					continue // that double step leads to the twin
				}
			} else if twinVia >= 0 {
				continue
			}
			from := b.Sq[i]
			b.Sq[i] = t // moved reads the squares only
			cands = append(cands, unmove{q: g.Moved(base, b.Sq, i, from), slot: int32(i), to: int32(t)})
			b.Sq[i] = from
		}
	}
	// Predecessors already known are dropped first (inform would drop
	// them): the test is cheaper than the legality test, and many fail it
	// (most, when they would win by moving here).
	kept := cands[:0]
	for _, c := range cands {
		if !gen.isKnown(mover, c.q) {
			kept = append(kept, c)
		}
	}
	cands = kept
	for _, c := range cands {
		i := int(c.slot)
		from := b.Move(i, int(c.to))
		if gen.unchecked(b, mover, i, k) {
			out = append(out, c.q)
			if gen.twins != nil {
				out = gen.twins.appendTwins(mover, c.q, g.Size, out)
			}
		}
		b.Move(i, from)
	}
	sc.unmoves = cands
	if wins || g.DistinctMoves(mover, b.Sq[0]) {
		return out
	}
	countDistinct(out) // sorts
	return dedupeSorted(out)
}

// unmove is a candidate un-move: the predecessor's entry q, reached by the
// piece in slot moving back to square to.
type unmove struct {
	q        int
	slot, to int32
}

// unchecked reports whether, after mover's piece in slot i un-moved, the
// king on k is not attacked by it or by any of the mover's riders (whose
// lines the un-move may have opened): the predecessor is a position.
func (gen *generation) unchecked(b *layout.Board, mover, i, k int) bool {
	g := gen.g
	if g.Attacks(i, b.Sq[i], k, b.Who) {
		return false
	}
	for _, j := range g.Riders[mover] {
		if j != i && g.Attacks(j, b.Sq[j], k, b.Who) {
			return false
		}
	}
	return true
}

// dedupeSorted removes repeats from a sorted list.
func dedupeSorted(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// stronger reports whether colour c has more material than the other side
// (by the variant's piece values): it seldom loses, so its replies are
// counted only when first needed.
func (gen *generation) stronger(c int) bool {
	var value [2]int
	for i, pc := range gen.g.Pieces {
		if !isRoyal(gen.t.Variant, pc) {
			value[gen.g.Colour[i]] += gen.t.Variant.PieceType(pc).Value
		}
	}
	return value[c] > value[1-c]
}
