package tablebase

// This file is the generator's board: a placement of a table's pieces on
// the compact board, the moves and un-moves of each piece there, and
// whether a king is attacked. The per-entry generator, the verifier and
// the statistics walk placements on it.

// board is a placement being examined: squares by slot and occupancy.
type board struct {
	g   *geometry
	sq  []int
	who []int8 // compact square → slot, -1 empty
}

// newBoard returns an empty board of the geometry.
func (g *geometry) newBoard() *board {
	b := &board{g: g, sq: make([]int, len(g.pieces)), who: make([]int8, g.n)}
	for i := range b.who {
		b.who[i] = -1
	}
	return b
}

// place sets up squares; it reports false if two pieces share a square.
func (b *board) place(sq []int) bool {
	for i, s := range sq {
		if b.who[s] >= 0 {
			for _, t := range sq[:i] {
				b.who[t] = -1
			}
			return false
		}
		b.who[s] = int8(i)
	}
	copy(b.sq, sq)
	return true
}

func (b *board) clear() {
	for _, s := range b.sq {
		b.who[s] = -1
	}
}

// attacked reports whether colour c's king is attacked by the other side,
// with slot `skip` removed (a captured piece), or -1.
func (b *board) attacked(c, skip int) bool {
	g := b.g
	k := b.sq[g.king[c]]
	for _, i := range g.slotsOf[1-c] {
		if i != skip && g.attacks(i, b.sq[i], k, b.who) {
			return true
		}
	}
	return false
}

// appendTargets appends every square the piece in slot i can move to:
// empty squares by its quiet moves, and squares of the other colour by its
// captures. A plain loop over a caller's buffer, not a callback: this is
// the generator's innermost loop.
func (b *board) appendTargets(i int, out []int) []int {
	k, from, c := b.g.kind[i], b.sq[i], b.g.colour[i]
	if k.quiet == k.capture {
		return b.appendSet(k.quiet, from, c, out, true, true)
	}
	out = b.appendSet(k.quiet, from, c, out, true, false)
	return b.appendSet(k.capture, from, c, out, false, true)
}

// appendUnmoves appends every empty square the piece in slot i can have
// come from by a quiet move, leaving out squares it never stands on.
func (b *board) appendUnmoves(i int, out []int) []int {
	k := b.g.kind[i]
	n := len(out)
	out = b.appendSet(k.unmove, b.sq[i], b.g.colour[i], out, true, false)
	if k.banned == nil {
		return out
	}
	kept := out[:n]
	for _, t := range out[n:] {
		if !k.banned[t] {
			kept = append(kept, t)
		}
	}
	return kept
}

// appendSet appends the targets of move set ms from `from` for a piece of
// colour c: empty squares when quiet, the other colour's when capture.
func (b *board) appendSet(ms *moveSet, from, c int, out []int, quiet, capture bool) []int {
	g := b.g
	for _, t := range ms.leaps[from] {
		if w := b.who[t]; (w < 0 && quiet) || (w >= 0 && capture && g.colour[w] != c) {
			out = append(out, int(t))
		}
	}
	for _, r := range ms.rays[from] {
		if r.lame {
			last := len(r.sq) - 1
			open := true
			for _, t := range r.sq[:last] {
				open = open && b.who[t] < 0
			}
			if t := r.sq[last]; open {
				if w := b.who[t]; (w < 0 && quiet) || (w >= 0 && capture && g.colour[w] != c) {
					out = append(out, int(t))
				}
			}
			continue
		}
		for _, t := range r.sq {
			w := b.who[t]
			if w < 0 {
				if quiet {
					out = append(out, int(t))
				}
				continue
			}
			if capture && g.colour[w] != c {
				out = append(out, int(t))
			}
			break
		}
	}
	return out
}

// move puts slot i on t (which must be empty) and returns the old square.
func (b *board) move(i, t int) int {
	from := b.sq[i]
	b.who[from], b.who[t] = -1, int8(i)
	b.sq[i] = t
	return from
}

// play moves slot i to t, removing any piece there (the caller knows
// which), and returns the old square; unplay undoes it, putting back the
// victim (or -1).
func (b *board) play(i, t int) int {
	b.who[t] = -1
	return b.move(i, t)
}

func (b *board) unplay(i, from, victim int) {
	t := b.move(i, from)
	b.who[t] = int8(victim)
}

// legal reports whether the placement with side stm to move is a position:
// the side not to move is not in check.
func (b *board) legal(stm int) bool { return !b.attacked(1-stm, -1) }

// hasMove reports whether side stm has a legal move on the board (captures
// included).
func (b *board) hasMove(stm int) bool {
	targets := make([]int, 0, b.g.n)
	for i := range b.g.pieces {
		if b.g.colour[i] != stm {
			continue
		}
		targets = b.appendTargets(i, targets[:0])
		for _, t := range targets {
			victim := int(b.who[t])
			from := b.play(i, t)
			found := !b.attacked(stm, victim)
			b.unplay(i, from, victim)
			if found {
				return true
			}
		}
	}
	return false
}
