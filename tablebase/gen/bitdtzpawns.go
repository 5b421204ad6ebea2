package gen

import (
	"fmt"
	"math/bits"
)

// Pawns in the bit-parallel walk of the distances to zeroing.
//
// A pawn's move zeroes the count, so it is a terminal like a capture,
// worth one ply or — into a position whose own distance passes the limit
// — limit+1 plies. That position has the pawns further advanced, in a
// layer walked before, so a layer's pawn moves are valued once the
// layers above are done (pawnTerminals), and its nodes' distances beyond
// the limit are kept (farDone) for the layers below. A double step may
// lead into an en-passant twin, whose distance follows from its plain
// node's and its en-passant captures' (twinsFar), as its value does.

// pawnLayers is the walk's state for a table with pawns.
type pawnLayers struct {
	skip   uint32      // the pawns' slots
	pawnOf [2][]int    // each colour's pawn slots
	baseOf []uint8     // by word: the summed advance of the pawns but slot 1
	advOf1 []uint64    // slot 1 a pawn: its squares by advance; else nil
	inside [][]int32   // by layer: the blocks of words with nodes in it
	far    [2][]uint64 // farDone: decided beyond the limit, by side to move
	twins  []*twinDTZ  // by twin set
}

// twinDTZ is a twin set's part of the walk: its en-passant captures'
// terminals (as terminals records them) and its twins decided beyond the
// limit.
type twinDTZ struct{ near, far, farDone []uint64 }

// newPawnLayers finds the table's pawns and each word's layer; without
// pawns the walk is one layer and dtz.pawns stays nil.
func (bg *bitGen) newPawnLayers() error {
	g := bg.g
	pl := &pawnLayers{}
	for i, pc := range g.Pieces {
		if !bg.t.Variant.IsPawn(pc) {
			continue
		}
		pl.skip |= 1 << i
		pl.pawnOf[g.Colour[i]] = append(pl.pawnOf[g.Colour[i]], i)
		for s := range g.N {
			for t := bg.quiet[i].targets(s, 0); t != 0 && bg.banned[i]&bit(s) == 0; t &= t - 1 {
				if advance(g, i, bits.TrailingZeros64(t)) <= advance(g, i, s) {
					return fmt.Errorf("%s: a pawn that moves other than forward: distances to zeroing cannot be ordered by its advance", bg.t.Material)
				}
			}
		}
	}
	if pl.skip == 0 {
		return nil
	}
	if pl.skip&(1<<1) != 0 {
		for s := range g.N {
			a := advance(g, 1, s)
			for len(pl.advOf1) <= a {
				pl.advOf1 = append(pl.advOf1, 0)
			}
			pl.advOf1[a] |= bit(s)
		}
	}
	pl.baseOf = make([]uint8, bg.words)
	for w := range bg.words {
		var p wordPlace
		bg.decodeWord(w, &p)
		sum := 0
		for i := 2; i < bg.np; i++ {
			if pl.skip&(1<<i) != 0 {
				sum += advance(g, i, p.sq[i])
			}
		}
		pl.baseOf[w] = uint8(sum)
	}
	for k := 0; k*wordBlock < bg.words; k++ {
		lo, hi := 255, 0
		for _, b := range pl.baseOf[k*wordBlock : min((k+1)*wordBlock, bg.words)] {
			lo, hi = min(lo, int(b)), max(hi, int(b))
		}
		hi += max(len(pl.advOf1)-1, 0)
		for len(pl.inside) <= hi {
			pl.inside = append(pl.inside, nil)
		}
		for l := lo; l <= hi; l++ {
			pl.inside[l] = append(pl.inside[l], int32(k))
		}
	}
	for c := range 2 {
		pl.far[c] = make([]uint64, bg.words)
	}
	for range bg.twins {
		pl.twins = append(pl.twins, &twinDTZ{near: make([]uint64, bg.words), far: make([]uint64, bg.words), farDone: make([]uint64, bg.words)})
	}
	bg.dtz.pawns = pl
	return nil
}

// slots returns the pawns' slots (none without pawns).
func (pl *pawnLayers) slots() uint32 {
	if pl == nil {
		return 0
	}
	return pl.skip
}

// top returns the highest layer.
func (pl *pawnLayers) top() int {
	if pl == nil {
		return 0
	}
	return len(pl.inside) - 1
}

// blocks returns the blocks of words with nodes in a layer (nil: all).
func (pl *pawnLayers) blocks(layer int) []int32 {
	if pl == nil {
		return nil
	}
	if pl.inside[layer] == nil {
		return []int32{} // none
	}
	return pl.inside[layer]
}

// mask returns word w's nodes in a layer.
func (pl *pawnLayers) mask(w, layer int) uint64 {
	if pl == nil {
		return ^uint64(0)
	}
	a := layer - int(pl.baseOf[w])
	switch {
	case pl.advOf1 == nil && a == 0:
		return ^uint64(0)
	case pl.advOf1 == nil || a < 0 || a >= len(pl.advOf1):
		return 0
	}
	return pl.advOf1[a]
}

// beyond records nodes of word w (side c to move) decided beyond the
// limit.
func (pl *pawnLayers) beyond(c, w int, nodes uint64) {
	if pl != nil {
		pl.far[c][w] |= nodes
	}
}

// pawnChild is the value and distance class of a pawn move's children:
// bitmaps of one word of the side to move after it.
type pawnChild struct{ valid, won, lost, far uint64 }

// child returns word w's nodes (side c to move) as children of a pawn
// move: through the twins of set ts (nil: none) where they have one.
func (bg *bitGen) child(c, w int, ts *twinSet) pawnChild {
	pl := bg.dtz.pawns
	won := bg.won[c][w]
	ch := pawnChild{valid: bg.valid[c][w], won: won, lost: bg.known[c][w] &^ won, far: pl.far[c][w]}
	if ts != nil {
		th := ts.has[w]
		ch.won = ch.won&^th | ts.won[w]&th
		ch.lost = ch.lost&^th | (ts.known[w]&^ts.won[w])&th
		ch.far = ch.far&^th | pl.twins[ts.list-2].farDone[w]&th
	}
	return ch
}

// pawnTerminals adds a layer's pawn moves to its nodes' zeroing moves: a
// won node's moves into a loss, a lost node's moves (all into wins), each
// near or far by the child's distance.
func (bg *bitGen) pawnTerminals(layer int) bool {
	z, pl := bg.dtz, bg.dtz.pawns
	if pl == nil {
		return true
	}
	return bg.forBlocks(pl.blocks(layer), func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			for c := range 2 {
				m := pl.mask(w, layer)
				won, lost := bg.won[c][w]&m, (bg.known[c][w]&^bg.won[c][w])&m
				if won|lost == 0 || len(pl.pawnOf[c]) == 0 {
					continue
				}
				bg.decodeWord(w, &p)
				var near, far uint64
				for _, i := range pl.pawnOf[c] {
					if i == 1 {
						n, f := bg.slotOnePawnTerminals(c, w, &p, won, lost)
						near, far = near|n, far|f
						continue
					}
					from := p.sq[i]
					wk.steps = bg.quiet[i].steps(from, p.occ&^bit(from), wk.steps[:0])
					for _, st := range wk.steps {
						var ts *twinSet
						if st.double {
							ts = bg.twinFor(i, st.to, from)
						}
						ch := bg.child(1-c, w+(st.to-from)*bg.wordWeight[i], ts)
						open := ^(st.path | bit(st.to)) // slot 1 not in the way
						wn, ls := won&open, lost&open
						near |= wn&ch.lost&^ch.far | ls&ch.valid
						far |= wn&ch.lost&ch.far | ls&ch.valid&ch.far
					}
				}
				z.near[c][w] |= near
				z.far[c][w] |= far
			}
		}
	})
}

// slotOnePawnTerminals is pawnTerminals for a pawn in slot 1, whose moves
// stay in the word: bit by bit.
func (bg *bitGen) slotOnePawnTerminals(c, w int, p *wordPlace, won, lost uint64) (near, far uint64) {
	var plain pawnChild
	if won|lost != 0 {
		plain = bg.child(1-c, w, nil)
	}
	for x := won | lost; x != 0; x &= x - 1 {
		z := bits.TrailingZeros64(x)
		double := bg.quiet[1].double[z]
		for t := bg.quiet[1].targets(z, p.occ); t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			ch := plain
			if double&bit(to) != 0 {
				if ts := bg.twinFor(1, to, z); ts != nil {
					ch = bg.child(1-c, w, ts)
				}
			}
			b := bit(to)
			switch {
			case won&bit(z) != 0 && ch.lost&b != 0 && ch.far&b != 0:
				far |= bit(z)
			case won&bit(z) != 0 && ch.lost&b != 0:
				near |= bit(z)
			case lost&bit(z) != 0 && ch.valid&b != 0:
				near |= bit(z)
				if ch.far&b != 0 {
					far |= bit(z)
				}
			}
		}
	}
	return near, far
}

// twinsFar records, once a layer is walked, which of its twins are
// decided beyond the limit: a won twin wins at the sooner of its plain
// node's win and a winning en-passant capture, a lost one loses at the
// later of its plain node's loss and its captures' slowest.
func (bg *bitGen) twinsFar(layer int) bool {
	pl := bg.dtz.pawns
	if pl == nil || len(pl.twins) == 0 {
		return true
	}
	return bg.forBlocks(pl.blocks(layer), func(wk *bitWorker, lo, hi int) {
		for k, ts := range bg.twins {
			tz, c := pl.twins[k], ts.c
			for w := lo; w < hi; w++ {
				m := ts.has[w] & pl.mask(w, layer)
				if m == 0 {
					continue
				}
				winNear := ts.canSave[w]&tz.near[w] | bg.won[c][w]&^pl.far[c][w]
				lostFar := pl.far[c][w] | tz.far[w]
				tz.farDone[w] |= m & (ts.won[w]&^winNear | (ts.known[w]&^ts.won[w])&lostFar)
			}
		}
	})
}
