package gen

import (
	"slices"
	"sort"

	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// epTwins are the positions just after a double step that the other side
// can take en passant. Tables hold positions without en-passant rights, so
// during a generation each such position is a twin entry beside the
// stored ones (entry size+k for the k-th twin of a side to move): the same
// placement, the same quiet moves, and the en-passant captures besides. A
// double step into it leads to the twin, and the twin's only un-move is
// that double step.
type epTwins struct {
	// keys[c] are side c's twins (c may take): the placement's entry << 8
	// | the square the pawn passed, in the symmetry-canonical frame, sorted.
	keys [2][]uint64
	has  [2][]uint64 // bitmap by entry: the placement has a twin
}

// count returns side c's number of twins (none for a nil set).
func (e *epTwins) count(c int) int {
	if e == nil {
		return 0
	}
	return len(e.keys[c])
}

// of returns side c's k-th twin: its placement's entry and passed square.
func (e *epTwins) of(c, k int) (base, via int) {
	key := e.keys[c][k]
	return int(key >> 8), int(key & 0xff)
}

// find returns the number of side c's twin of entry idx with passed
// square via, or -1.
func (e *epTwins) find(c, idx, via int) int {
	if e.has[c][idx/64]&(1<<(idx%64)) == 0 {
		return -1
	}
	key := uint64(idx)<<8 | uint64(via)
	k := sort.Search(len(e.keys[c]), func(k int) bool { return e.keys[c][k] >= key })
	if k < len(e.keys[c]) && e.keys[c][k] == key {
		return k
	}
	return -1
}

// appendTwins appends the entries of side c's twins of entry idx.
func (e *epTwins) appendTwins(c, idx, size int, out []int) []int {
	if e.has[c][idx/64]&(1<<(idx%64)) == 0 {
		return out
	}
	keys := e.keys[c]
	k := sort.Search(len(keys), func(k int) bool { return keys[k] >= uint64(idx)<<8 })
	for ; k < len(keys) && int(keys[k]>>8) == idx; k++ {
		out = append(out, size+k)
	}
	return out
}

// twinsPossible reports whether a pawn's double step can be taken en
// passant.
func twinsPossible(g *layout.Geometry) bool { return len(twinDirections(g)) > 0 }

// findTwins lists every twin: for each legal placement and side to move
// s, each pawn of the other side that can have just double-stepped (both
// squares behind it empty, the position before legal) and that s can take
// en passant now.
func (gen *generation) findTwins(scratches []*scratch) *epTwins {
	g := gen.g
	const block = 1 << 12
	blocks := (g.Size + block - 1) / block
	found := make([][2][]uint64, blocks)
	gen.forEach(blocks, scratches, func(sc *scratch, k int) {
		for idx := k * block; idx < min((k+1)*block, g.Size); idx++ {
			g.Decode(idx, sc.sq)
			if !g.IsCanonical(sc.sq, idx) || g.Banned(sc.sq) || !sc.b.Place(sc.sq) {
				continue
			}
			for s := 0; s < 2; s++ {
				if sc.b.Legal(s) {
					found[k][s] = gen.appendTwinKeys(sc.b, s, found[k][s])
				}
			}
			sc.b.Clear()
		}
	})
	e := &epTwins{}
	for s := 0; s < 2; s++ {
		for _, f := range found {
			e.keys[s] = append(e.keys[s], f[s]...)
		}
		slices.Sort(e.keys[s])
		e.keys[s] = slices.Compact(e.keys[s])
		e.has[s] = make([]uint64, (g.Size+63)/64)
		for _, key := range e.keys[s] {
			idx := key >> 8
			e.has[s][idx/64] |= 1 << (idx % 64)
		}
	}
	return e
}

// appendTwinKeys appends the twins of the placement on b with side s to
// move (a legal position).
func (gen *generation) appendTwinKeys(b *layout.Board, s int, out []uint64) []uint64 {
	g := gen.g
	for _, j := range g.SlotsOf[1-s] {
		for _, r := range g.Kind[j].Unmove.Rays[b.Sq[j]] {
			if !r.Double {
				continue
			}
			via, from := int(r.Sq[0]), int(r.Sq[1])
			if b.Who[via] >= 0 || b.Who[from] >= 0 || gen.epCaptures(b, s, via, nil) == 0 {
				continue
			}
			to := b.Move(j, from)
			before := !b.Attacked(s, -1) // the position before the double step
			b.Move(j, to)
			if before {
				idx, v := g.CanonicalWith(b.Sq, via)
				out = append(out, uint64(idx)<<8|uint64(v))
			}
		}
	}
	return out
}

// epCaptures counts side s's legal en-passant captures onto via, of the
// pawn that passed it, on b; for each it calls f (when not nil) with the
// board showing the position after the capture and the taken slot.
func (gen *generation) epCaptures(b *layout.Board, s, via int, f func(victim int)) int {
	g := gen.g
	victim := -1
	for _, j := range g.SlotsOf[1-s] {
		for _, r := range g.Kind[j].Unmove.Rays[b.Sq[j]] {
			if r.Double && int(r.Sq[0]) == via {
				victim = j
			}
		}
	}
	if victim < 0 {
		return 0
	}
	n := 0
	for _, i := range g.SlotsOf[s] {
		k := g.Kind[i]
		if !k.TakesEP || k.Capture.Line[b.Sq[i]*g.N+via] != 1 {
			continue
		}
		at := b.Sq[victim]
		b.Who[at] = -1
		from := b.Move(i, via)
		if !b.Attacked(s, victim) {
			n++
			if f != nil {
				f(victim)
			}
		}
		b.Move(i, from)
		b.Who[at] = int8(victim)
	}
	return n
}

// twinOf returns the entry of side c's twin of the placement sq whose pawn
// passed via, or -1.
func (gen *generation) twinOf(c int, sq []int, via int) int {
	idx, v := gen.g.CanonicalWith(sq, via)
	if k := gen.twins.find(c, idx, v); k >= 0 {
		return gen.g.Size + k
	}
	return -1
}

// base returns the entry of an entry's placement: itself, or a twin's.
func (gen *generation) base(c, idx int) int {
	if idx < gen.g.Size {
		return idx
	}
	base, _ := gen.twins.of(c, idx-gen.g.Size)
	return base
}
