package gen

import (
	"fmt"
	"math/bits"
	"runtime/debug"
	"sync/atomic"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Distances to zeroing in the bit-parallel generator.
//
// The distance to mate has already said who wins, and the rule's outcome
// must be the same, so only the distance is walked, one ply a level, over
// the moves that do not zero: a node won by distance to mate is won at the
// first level where a quiet move reaches a node lost the level before, or
// a zeroing move wins; a lost one at the first level at which every quiet
// move reaches a node already won and its slowest zeroing move is
// reached. A zeroing move (a capture, a promotion, a pawn's move) is
// worth one ply, or limit+1 plies when the position after it is decided
// only beyond the rule (layout.Terminal), so two bitmaps hold a node's
// zeroing moves: near seeds level 1, far level limit+1 and holds a lost
// node back until then. No counters, no lists: the walk is the distance
// to mate's gather (predecessors) and forward test (escape), both
// word-parallel, on bitmaps the distance to mate leaves behind, with the
// pawns' moves left out of both.
//
// A pawn's move leads into a position with the pawns further advanced,
// so the walk goes by layer (the pawns' summed advance), the most
// advanced first (bitdtzpawns.go): a layer's pawn moves lead into layers
// whose distances are known, and its quiet moves never leave it.

// bitDTZ is the walk's state: bitmaps by side to move, by word.
type bitDTZ struct {
	limit int // plies the move rule allows
	// near and far: a zeroing move decides the node at one ply, or at
	// limit+1 plies. Found with the captures (see terminals) and, layer
	// by layer, the pawns' moves; a won node keeps its winning zeroing
	// moves, a lost one its losing ones, once normalised.
	near, far [2][]uint64
	// zknown: the node's distance is filed; freshW and freshL: won and
	// lost at the level walked; candW and candL: the predecessors of the
	// losses and of the wins, gathered for the next.
	zknown, freshW, freshL, candW, candL [2][]uint64
	pawns                                *pawnLayers // nil without pawns: one layer
}

// newBitDTZ checks that every smaller table holds distances to zeroing
// and makes the bitmaps the captures fill.
func (bg *bitGen) newBitDTZ() error {
	for _, st := range bg.subs {
		if st.DTZ[0] == nil {
			return fmt.Errorf("%s: the %s table holds no distances to zeroing", bg.t.Material, st.Material)
		}
	}
	for _, byVictim := range bg.promos {
		for _, tables := range byVictim {
			for _, st := range tables {
				if st.DTZ[0] == nil {
					return fmt.Errorf("%s: the %s table holds no distances to zeroing", bg.t.Material, st.Material)
				}
			}
		}
	}
	z := &bitDTZ{limit: tablebase.RuleLimit(bg.t.Variant)}
	for c := range 2 {
		z.near[c], z.far[c] = make([]uint64, bg.words), make([]uint64, bg.words)
	}
	bg.dtz = z
	return bg.newPawnLayers()
}

// terminals records in near and far the zeroing moves of a node (bit b
// of word w), summed up in caps. Whether the node is won or lost is not
// known yet; whether a capture saves it is, and that is enough: a node a
// capture saves is never lost, so its winning zeroing moves are kept, and
// a node none saves is won only by another move, so its losing ones are.
func terminals(near, far []uint64, w int, b uint64, caps *captureResults) {
	n, f := caps.lostNear, caps.lostFar
	if !caps.draw && caps.winBy < 0 {
		n, f = true, caps.wonFar
	}
	if n {
		near[w] |= b
	}
	if f {
		far[w] |= b
	}
}

// walkDTZ files every decided node's distance to zeroing; run after the
// distances to mate, before the read-out.
func (bg *bitGen) walkDTZ() error {
	z := bg.dtz
	// The distance to mate's per-level lists are drained; return their
	// memory before the walk's bitmaps and bytes are made.
	debug.FreeOSMemory()
	z.zknown, z.freshL, z.candL = bg.canSave, bg.fresh, bg.cand
	bg.canSave = [2][]uint64{}
	for c := range 2 {
		z.freshW[c], z.candW[c] = make([]uint64, bg.words), make([]uint64, bg.words)
		bg.t.DTZ[c] = make([]byte, bg.g.Size)
	}
	for _, ts := range bg.twins {
		clear(ts.fresh) // no twin is walked back: its un-move is a double step
	}
	bg.skip = z.pawns.slots()
	if !bg.normalise() {
		return tablebase.ErrAbandoned
	}
	top := z.pawns.top()
	for layer := top; layer >= 0; layer-- {
		report := func(d int) {
			f := float64(top-layer) + min(float64(d)/float64(z.limit+1), 0.99)
			bg.hooks.Report(dtmShare + (1-dtmShare)*f/float64(top+1))
		}
		if err := bg.walkLayer(layer, report); err != nil {
			return err
		}
	}
	return bg.checkDTZ()
}

// walkLayer walks the distances of one layer's nodes.
func (bg *bitGen) walkLayer(layer int, report func(d int)) error {
	z := bg.dtz
	if !bg.pawnTerminals(layer) || !bg.seedMates(layer) {
		return tablebase.ErrAbandoned
	}
	for d := 1; ; d++ {
		if !bg.gatherDTZ(layer) {
			return tablebase.ErrAbandoned
		}
		n, ok := bg.decideDTZ(layer, d)
		if !ok {
			return tablebase.ErrAbandoned
		}
		if n > 0 && d > layout.MaxDTZ {
			return fmt.Errorf("%s: a distance to zeroing over %d plies, more than a table stores", bg.t.Material, layout.MaxDTZ)
		}
		report(d)
		if n == 0 {
			if d > z.limit {
				break
			}
			// Nothing decided: nothing is until the zeroing moves
			// beyond the rule seed level limit+1.
			d = z.limit
		}
	}
	if !bg.twinsFar(layer) {
		return tablebase.ErrAbandoned
	}
	return nil
}

// normalise readies the walk's maps: the zeroing moves' bitmaps
// normalised (a won node no capture saves has no winning zeroing move
// among its captures), and the distance to mate's scratch maps cleared
// for reuse.
func (bg *bitGen) normalise() bool {
	z := bg.dtz
	return bg.forWords(func(wk *bitWorker, lo, hi int) {
		for w := lo; w < hi; w++ {
			for c := range 2 {
				unsaved := bg.won[c][w] &^ z.zknown[c][w] // zknown still holds canSave here
				z.near[c][w] &^= unsaved
				z.far[c][w] &^= unsaved
				z.zknown[c][w], z.freshL[c][w], z.candL[c][w] = 0, 0, 0
			}
		}
	})
}

// seedMates starts a layer's walk: its mates are lost at level 0.
func (bg *bitGen) seedMates(layer int) bool {
	z := bg.dtz
	return bg.forBlocks(z.pawns.blocks(layer), func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			for c := range 2 {
				lost := (bg.known[c][w] &^ bg.won[c][w]) & z.pawns.mask(w, layer)
				if lost == 0 {
					continue
				}
				bg.decodeWord(w, &p)
				for x := lost; x != 0; x &= x - 1 {
					b := bits.TrailingZeros64(x)
					if bg.t.Val[c][p.fileBase+bg.regions*b] == 1 {
						z.freshL[c][w] |= bit(b)
					}
				}
			}
		}
	})
}

// gatherDTZ ORs into candW the predecessors of the fresh losses and into
// candL those of the fresh wins, and files the fresh nodes as known.
func (bg *bitGen) gatherDTZ(layer int) bool {
	z := bg.dtz
	return bg.forBlocks(z.pawns.blocks(layer), func(wk *bitWorker, lo, hi int) {
		for c := range 2 {
			bg.predecessors(wk, z.freshL[c], 1-c, z.candW[1-c], lo, hi)
			bg.predecessors(wk, z.freshW[c], 1-c, z.candL[1-c], lo, hi)
		}
		// predecessors reads fresh only in lo…hi: this worker's to clear.
		// (Words are written only where they change: most are empty, and
		// a store would dirty every line of the maps each level.)
		for c := range 2 {
			for w := lo; w < hi; w++ {
				if f := z.freshW[c][w] | z.freshL[c][w]; f != 0 {
					z.zknown[c][w] |= f
					z.freshW[c][w], z.freshL[c][w] = 0, 0
				}
			}
		}
	})
}

// decideDTZ decides a layer's nodes at distance d: the won candidates,
// and the lost ones whose every quiet move leads into a node known won
// (zknown is not written here, so that is a win before d). It returns
// how many. (The candidates are the layer's, as the quiet moves keep to
// a layer; the seeds are masked to it.)
func (bg *bitGen) decideDTZ(layer, d int) (int, bool) {
	z := bg.dtz
	var decided atomic.Int64
	ok := bg.forBlocks(z.pawns.blocks(layer), func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		n := 0
		for w := lo; w < hi; w++ {
			for c := range 2 {
				cw, cl := z.candW[c][w], z.candL[c][w]
				if cw|cl != 0 {
					z.candW[c][w], z.candL[c][w] = 0, 0
				}
				switch d {
				case 1:
					seed := z.near[c][w] & z.pawns.mask(w, layer)
					cw, cl = cw|seed, cl|seed
				case z.limit + 1:
					seed := z.far[c][w] & z.pawns.mask(w, layer)
					cw, cl = cw|seed, cl|seed
				}
				if cw|cl == 0 {
					continue
				}
				won := bg.won[c][w]
				nw := cw & won &^ z.zknown[c][w]
				nl := cl & bg.known[c][w] &^ won &^ z.zknown[c][w]
				if d <= z.limit {
					nl &^= z.far[c][w] // its slowest zeroing move is not reached yet
				}
				if nw|nl == 0 {
					continue
				}
				bg.decodeWord(w, &p)
				if nl != 0 {
					nl &^= bg.escape(wk, c, w, &p, nl, bg.valid[1-c], z.zknown[1-c])
				}
				z.freshW[c][w], z.freshL[c][w] = nw, nl
				if d <= layout.MaxDTZ {
					for x := nw | nl; x != 0; x &= x - 1 {
						bg.t.DTZ[c][p.fileBase+bg.regions*bits.TrailingZeros64(x)] = byte(d)
					}
				}
				if d > z.limit {
					z.pawns.beyond(c, w, nw|nl)
				}
				n += bits.OnesCount64(nw | nl)
			}
		}
		decided.Add(int64(n))
	})
	return int(decided.Load()), ok
}

// checkDTZ requires every node the distance to mate decided to have a
// distance to zeroing: the two metrics agree on who wins.
func (bg *bitGen) checkDTZ() error {
	for c := range 2 {
		for w, known := range bg.known[c] {
			missing := known &^ bg.dtz.zknown[c][w]
			if missing == 0 {
				continue
			}
			var p wordPlace
			bg.decodeWord(w, &p)
			p.sq[1] = bits.TrailingZeros64(missing)
			sq := p.sq[:bg.np]
			where := fmt.Sprint(sq)
			if pos, err := bg.t.Position(bg.t.Variant, sq, c); err == nil {
				where = pos.FEN()
			}
			return fmt.Errorf("%s: %s: decided by distance to mate, not by distance to zeroing: %w", bg.t.Material, where, errMetricsDisagree)
		}
	}
	return nil
}
