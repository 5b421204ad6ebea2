package layout

// This file is the generator's board: a placement of a table's pieces on
// the compact board, the moves and un-moves of each piece there, and
// whether a king is attacked. The per-entry generator, the verifier and
// the statistics walk placements on it.

// Board is a placement being examined: squares by slot and occupancy.
type Board struct {
	G   *Geometry
	Sq  []int
	Who []int8 // compact square → slot, -1 empty
	// targets is HasMove's buffer: the statistics ask it of every drawn
	// placement, and a new slice each time was most of their time.
	targets []int
}

// NewBoard returns an empty board of the geometry.
func (g *Geometry) NewBoard() *Board {
	b := &Board{G: g, Sq: make([]int, len(g.Pieces)), Who: make([]int8, g.N)}
	for i := range b.Who {
		b.Who[i] = -1
	}
	return b
}

// Place sets up squares; it reports false if two pieces share a square.
func (b *Board) Place(sq []int) bool {
	for i, s := range sq {
		if b.Who[s] >= 0 {
			for _, t := range sq[:i] {
				b.Who[t] = -1
			}
			return false
		}
		b.Who[s] = int8(i)
	}
	copy(b.Sq, sq)
	return true
}

// Clear takes the placement off the board.
func (b *Board) Clear() {
	for _, s := range b.Sq {
		b.Who[s] = -1
	}
}

// Attacked reports whether colour c's king is attacked by the other side,
// with slot `skip` removed (a captured piece), or -1.
func (b *Board) Attacked(c, skip int) bool {
	g := b.G
	k := b.Sq[g.King[c]]
	for _, i := range g.SlotsOf[1-c] {
		if i != skip && g.Attacks(i, b.Sq[i], k, b.Who) {
			return true
		}
	}
	return false
}

// AppendTargets appends every square the piece in slot i can move to:
// empty squares by its quiet moves, and squares of the other colour by its
// captures. A plain loop over a caller's buffer, not a callback: this is
// the generator's innermost loop.
func (b *Board) AppendTargets(i int, out []int) []int {
	k, from, c := b.G.Kind[i], b.Sq[i], b.G.Colour[i]
	if k.Quiet == k.Capture {
		return b.appendSet(k.Quiet, from, c, out, true, true)
	}
	out = b.appendSet(k.Quiet, from, c, out, true, false)
	return b.appendSet(k.Capture, from, c, out, false, true)
}

// AppendUnmoves appends every empty square the piece in slot i can have
// come from by a quiet move, leaving out squares it never stands on.
func (b *Board) AppendUnmoves(i int, out []int) []int {
	k := b.G.Kind[i]
	n := len(out)
	out = b.appendSet(k.Unmove, b.Sq[i], b.G.Colour[i], out, true, false)
	if k.Banned == nil {
		return out
	}
	kept := out[:n]
	for _, t := range out[n:] {
		if !k.Banned[t] {
			kept = append(kept, t)
		}
	}
	return kept
}

// appendSet appends the targets of move set ms from `from` for a piece of
// colour c: empty squares when quiet, the other colour's when capture.
func (b *Board) appendSet(ms *MoveSet, from, c int, out []int, quiet, capture bool) []int {
	g := b.G
	for _, t := range ms.Leaps[from] {
		if w := b.Who[t]; (w < 0 && quiet) || (w >= 0 && capture && g.Colour[w] != c) {
			out = append(out, int(t))
		}
	}
	for _, r := range ms.Rays[from] {
		if r.Lame {
			last := len(r.Sq) - 1
			open := true
			for _, t := range r.Sq[:last] {
				open = open && b.Who[t] < 0
			}
			if t := r.Sq[last]; open {
				if w := b.Who[t]; (w < 0 && quiet) || (w >= 0 && capture && g.Colour[w] != c) {
					out = append(out, int(t))
				}
			}
			continue
		}
		for _, t := range r.Sq {
			w := b.Who[t]
			if w < 0 {
				if quiet {
					out = append(out, int(t))
				}
				continue
			}
			if capture && g.Colour[w] != c {
				out = append(out, int(t))
			}
			break
		}
	}
	return out
}

// Move puts slot i on t (which must be empty) and returns the old square.
func (b *Board) Move(i, t int) int {
	from := b.Sq[i]
	b.Who[from], b.Who[t] = -1, int8(i)
	b.Sq[i] = t
	return from
}

// Play moves slot i to t, removing any piece there (the caller knows
// which), and returns the old square; Unplay undoes it, putting back the
// victim (or -1).
func (b *Board) Play(i, t int) int {
	b.Who[t] = -1
	return b.Move(i, t)
}

// Unplay undoes Play: slot i goes back to from, and victim (a slot, or
// -1) to the square it left.
func (b *Board) Unplay(i, from, victim int) {
	t := b.Move(i, from)
	b.Who[t] = int8(victim)
}

// Legal reports whether the placement with side stm to move is a position:
// the side not to move is not in check.
func (b *Board) Legal(stm int) bool { return !b.Attacked(1-stm, -1) }

// HasMove reports whether side stm has a legal move on the board (captures
// included).
func (b *Board) HasMove(stm int) bool {
	targets := b.targets
	for i := range b.G.Pieces {
		if b.G.Colour[i] != stm {
			continue
		}
		targets = b.AppendTargets(i, targets[:0])
		b.targets = targets
		for _, t := range targets {
			victim := int(b.Who[t])
			from := b.Play(i, t)
			found := !b.Attacked(stm, victim)
			b.Unplay(i, from, victim)
			if found {
				return true
			}
		}
	}
	return false
}
