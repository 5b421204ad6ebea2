package gen

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// En passant in the bit-parallel generator.
//
// A twin (see epTwins) is a placement just after a pawn's double step
// that the other side can take en passant. Its moves are the placement's
// plus the en-passant captures, so its value follows from the plain
// node's and those captures' alone: it wins when the plain node wins or a
// capture wins sooner; it is lost when no capture saves it, at the later
// of the plain node's loss and the slowest capture's (or at the capture's
// alone when the plain node has no move at all). So a twin needs no moves
// of its own: it is decided as its plain node is, and its one un-move, the
// double step, is walked from it instead of from the plain node.

// twinSet holds the twins of one pawn's double step in one direction (a
// Berolina pawn has two), as bitmaps over the nodes of the side that may
// take en passant: a placement may have a twin of each.
type twinSet struct {
	list int // the workers' list of this set's twins decided later
	j, c int // the pawn's slot; the side to move in the twins
	// via and from, by the pawn's square: the square its double step in
	// this direction passed and the one it came from (-1: none lands
	// there).
	via, from []int
	// has: the node has this twin; known, won: its value is decided, a
	// win; canSave: an en-passant capture draws or wins; late: its
	// captures all lose, at the level kept in lateAt; fresh: decided at
	// the level being walked.
	has, known, won, canSave, late, fresh []uint64
	lateAt                                []uint64 // node<<8 | level, sorted
}

// twinDirection is one direction of one pawn's double step the other side
// can take en passant: by landing square, the square passed and the one
// it came from (-1: none lands there).
type twinDirection struct {
	slot      int
	via, from []int
}

// twinDirections returns the double steps, by pawn and direction, that
// the other side can take en passant.
func twinDirections(g *layout.Geometry) []twinDirection {
	var dirs []twinDirection
	for j := range g.Pieces {
		takes := false
		for _, i := range g.SlotsOf[1-g.Colour[j]] {
			takes = takes || g.Kind[i].TakesEP
		}
		if !takes {
			continue
		}
		byOffset := map[int]int{} // from − landing → index in dirs
		for sq := range g.N {
			for _, r := range g.Kind[j].Unmove.Rays[sq] {
				if !r.Double {
					continue
				}
				off := int(r.Sq[1]) - sq
				k, ok := byOffset[off]
				if !ok {
					k = len(dirs)
					byOffset[off] = k
					d := twinDirection{slot: j, via: make([]int, g.N), from: make([]int, g.N)}
					for t := range g.N {
						d.via[t], d.from[t] = -1, -1
					}
					dirs = append(dirs, d)
				}
				dirs[k].via[sq], dirs[k].from[sq] = int(r.Sq[0]), int(r.Sq[1])
			}
		}
	}
	return dirs
}

// buildTwins makes a twin set for each pawn's double step, by direction,
// that the other side can take en passant.
func (bg *bitGen) buildTwins() {
	bg.twinOf = make([][]*twinSet, bg.np)
	for k, d := range twinDirections(bg.g) {
		ts := &twinSet{list: 2 + k, j: d.slot, c: 1 - bg.g.Colour[d.slot], via: d.via, from: d.from}
		for _, bm := range []*[]uint64{&ts.has, &ts.known, &ts.won, &ts.canSave, &ts.late, &ts.fresh} {
			*bm = make([]uint64, bg.words)
		}
		bg.twins = append(bg.twins, ts)
		bg.twinOf[d.slot] = append(bg.twinOf[d.slot], ts)
	}
}

// twinFor returns the twin set of slot j's double step from origin to
// landing, or nil.
func (bg *bitGen) twinFor(j, landing, origin int) *twinSet {
	for _, ts := range bg.twinOf[j] {
		if ts.from[landing] == origin {
			return ts
		}
	}
	return nil
}

// findTwins records the twins of node (placement p, side c to move, a
// position, squares occ occupied) and what their en-passant captures
// decide.
func (bg *bitGen) findTwins(wk *bitWorker, p *wordPlace, c int, occ uint64, node int) {
	g := bg.g
	for _, ts := range bg.twins {
		if ts.c != c {
			continue
		}
		j := ts.j
		at := p.sq[j]
		via, from := ts.via[at], ts.from[at]
		if via < 0 || occ&(bit(via)|bit(from)) != 0 {
			continue
		}
		caps := captureResults{winBy: -1, lossBy: -1}
		for _, i := range g.SlotsOf[c] {
			sq := p.sq[i]
			if !g.Kind[i].TakesEP || g.Kind[i].Capture.Line[sq*g.N+via] != 1 {
				continue
			}
			p.sq[i] = via
			if !bg.kingAttackedWithout(p, c, j, occ&^bit(sq)&^bit(at)|bit(via)) {
				bg.addProbe(&caps, &bg.probes[j], p, 1-c)
			}
			p.sq[i] = sq
		}
		if caps.n == 0 {
			continue
		}
		p.sq[j] = from // the position before the double step
		before := !bg.kingAttacked(p, c, occ&^bit(at)|bit(from))
		p.sq[j] = at
		if !before {
			continue
		}
		w, b := node>>6, bit(node&63)
		ts.has[w] |= b
		if bg.dtz != nil && bg.dtz.pawns != nil {
			tz := bg.dtz.pawns.twins[ts.list-2]
			terminals(tz.near, tz.far, w, b, &caps)
		}
		switch {
		case caps.draw || caps.winBy >= 0:
			ts.canSave[w] |= b
			if caps.winBy >= 0 {
				wk.put(&wk.wins, ts.list, caps.winBy, node)
			}
		default:
			ts.late[w] |= b
			wk.lateAt = append(wk.lateAt, uint64(ts.list)<<40|uint64(node)<<8|uint64(caps.lossBy))
		}
	}
}

// sortLate files the workers' late losses into their sets, sorted.
func (bg *bitGen) sortLate() {
	for _, wk := range bg.workers {
		for _, e := range wk.lateAt {
			ts := bg.twins[e>>40-2]
			ts.lateAt = append(ts.lateAt, e&(1<<40-1))
		}
		wk.lateAt = nil
	}
	for _, ts := range bg.twins {
		slices.Sort(ts.lateAt)
	}
}

// lateLevel returns the level at which twin node's en-passant captures
// (all losing) lose.
func (ts *twinSet) lateLevel(node int) int {
	key := uint64(node) << 8
	k := sort.Search(len(ts.lateAt), func(k int) bool { return ts.lateAt[k] >= key })
	return int(ts.lateAt[k] & 0xff)
}

// stalemateTwins puts off the twins of nodes without any move (bits
// none of word w, side c to move) whose en-passant captures all lose:
// they are lost when those captures are.
func (bg *bitGen) stalemateTwins(wk *bitWorker, c, w int, none uint64) {
	for _, ts := range bg.twins {
		if ts.c != c {
			continue
		}
		for x := none & ts.late[w]; x != 0; x &= x - 1 {
			node := w<<6 | bits.TrailingZeros64(x)
			wk.put(&wk.losses, ts.list, ts.lateLevel(node), node)
		}
	}
}

// twinsDecided decides the twins at level: won with their plain node
// (odd levels), lost with it unless a capture saves them or loses later
// (even levels), and those put off to this level; they make up fresh.
func (bg *bitGen) twinsDecided(level int) bool {
	if len(bg.twins) == 0 {
		return true
	}
	won := level%2 == 1
	ok := bg.forWords(func(wk *bitWorker, lo, hi int) {
		for _, ts := range bg.twins {
			for w := lo; w < hi; w++ {
				x := bg.fresh[ts.c][w] & ts.has[w] &^ ts.known[w]
				if won {
					x &= bg.won[ts.c][w]
				} else {
					x &^= bg.won[ts.c][w] | ts.canSave[w]
					for l := x & ts.late[w]; l != 0; l &= l - 1 {
						z := bits.TrailingZeros64(l)
						if at := ts.lateLevel(w<<6 | z); at > level {
							x &^= bit(z)
							wk.put(&wk.losses, ts.list, at, w<<6|z)
						}
					}
				}
				ts.fresh[w] = x
				ts.known[w] |= x
				if won {
					ts.won[w] |= x
				}
			}
		}
	})
	lists := func(wk *bitWorker) *[][][]uint32 { return &wk.losses }
	if won {
		lists = func(wk *bitWorker) *[][][]uint32 { return &wk.wins }
	}
	for _, ts := range bg.twins {
		bg.take(lists, ts.list, level, func(node int) {
			w, b := node>>6, bit(node&63)
			if ts.known[w]&b == 0 {
				ts.known[w] |= b
				ts.fresh[w] |= b
				if won {
					ts.won[w] |= b
				}
			}
		})
	}
	return ok
}

// doubleSources returns, for the un-moves of slot j's double step from
// word w (landing on `landing`, from origin), the nodes they start from:
// src's nodes without a twin of that step (a double step into them leads
// to the twin), and the twins decided now.
func (bg *bitGen) doubleSources(j, w, landing, origin int, src uint64) uint64 {
	ts := bg.twinFor(j, landing, origin)
	if ts == nil {
		return src
	}
	return src&^ts.has[w] | ts.fresh[w]
}

// openDouble returns, of word w's nodes (the side to move in valid and
// won), those a double step of slot j from origin to landing leads into
// that are positions and not won: through the twin where the node has
// one.
func (bg *bitGen) openDouble(j, w, landing, origin int, valid, won []uint64) uint64 {
	open := valid[w] &^ won[w]
	if ts := bg.twinFor(j, landing, origin); ts != nil {
		open = open&^ts.has[w] | valid[w]&ts.has[w]&^ts.won[w]
	}
	return open
}
