package nnue

import "github.com/chimera-chess/chimera/engine"

// refreshAbove is how many inputs may change from one position to the
// next before the units are computed afresh rather than updated: an
// explosion or a change of many squares costs no more than a refresh.
const refreshAbove = 24

// Tracker keeps a network's hidden units along a search's line. Each
// position's units come from its parent's, by the inputs that changed:
// the squares whose piece differs and the hand counts that differ, found
// by comparing the two positions' placements. No move is interpreted, so
// captures, promotions, drops, explosions and gating need nothing of
// their own. The units are computed lazily: a position evaluated brings
// its line up to date from the nearest ancestor whose units are known. A
// search thread owns its Tracker.
type Tracker struct {
	net     *Network
	layout  *Layout
	squares []engine.Square // the board's squares
	types   int
	frames  []frame
	top     int // frames[top] is the current position's
}

// frame is one position of the line: its placement and hands, and its
// units by view (White's, Black's) once computed.
type frame struct {
	board [engine.NumSquares]engine.Piece
	hands [2][engine.MaxPieceTypes + 1]uint8
	acc   [2][]int32
	ok    bool
}

// NewTracker returns a tracker of network n for variant v (n checked
// against v).
func NewTracker(n *Network, v *engine.Variant) *Tracker {
	t := &Tracker{net: n, layout: NewLayout(v), types: len(v.Pieces)}
	for r := range v.Height {
		for f := range v.Width {
			t.squares = append(t.squares, engine.SquareAt(f, r))
		}
	}
	return t
}

// Reset starts a line at p.
func (t *Tracker) Reset(p *engine.Position) {
	t.top = -1
	t.Push(p)
}

// Push enters p, a position one move (or a pass) after the current one.
func (t *Tracker) Push(p *engine.Position) {
	t.top++
	if t.top == len(t.frames) {
		t.frames = append(t.frames, frame{acc: [2][]int32{make([]int32, t.net.Hidden), make([]int32, t.net.Hidden)}})
	}
	f := &t.frames[t.top]
	f.board, f.hands, f.ok = p.Placement(), p.Hands(), false
}

// Pop leaves the current position for its parent.
func (t *Tracker) Pop() { t.top-- }

// Evaluate returns the network's score of the current position, p, for
// its side to move: what Network.Evaluate gives, computed incrementally.
func (t *Tracker) Evaluate(p *engine.Position) int {
	base := t.top
	for base > 0 && !t.frames[base].ok {
		base--
	}
	if !t.frames[base].ok {
		t.refresh(&t.frames[base])
	}
	for k := base + 1; k <= t.top; k++ {
		t.update(&t.frames[k-1], &t.frames[k])
	}
	f := &t.frames[t.top]
	us := p.SideToMove()
	return t.net.output(f.acc[us][:], f.acc[us.Other()][:], t.layout.Bucket(p.PieceCount(), t.net.Buckets))
}

// refresh computes f's units from its placement and hands.
func (t *Tracker) refresh(f *frame) {
	for view := range 2 {
		a := f.acc[view]
		for j, b := range t.net.B1 {
			a[j] = int32(b)
		}
		for _, s := range t.squares {
			if pc := f.board[s]; pc != engine.NoPiece {
				t.net.addInput(a, t.layout.Board(engine.Colour(view), pc, s))
			}
		}
		if t.layout.hands {
			for c := range 2 {
				for typ := 1; typ <= t.types; typ++ {
					pc := engine.MakePiece(typ, engine.Colour(c))
					for k := range min(int(f.hands[c][typ]), MaxHandCount) {
						t.net.addInput(a, t.layout.Hand(engine.Colour(view), pc, k))
					}
				}
			}
		}
	}
	f.ok = true
}

// update computes next's units from prev's, the position before it.
func (t *Tracker) update(prev, next *frame) {
	type change struct {
		pc  engine.Piece
		s   engine.Square
		k   int // for a hand input: which piece held; -1 for a square
		add bool
	}
	var changes [refreshAbove]change
	n := 0
	note := func(c change) bool {
		if n == len(changes) {
			return false
		}
		changes[n] = c
		n++
		return true
	}
	fits := true
	for _, s := range t.squares {
		a, b := prev.board[s], next.board[s]
		if a == b {
			continue
		}
		if a != engine.NoPiece {
			fits = fits && note(change{pc: a, s: s, k: -1})
		}
		if b != engine.NoPiece {
			fits = fits && note(change{pc: b, s: s, k: -1, add: true})
		}
	}
	if t.layout.hands && prev.hands != next.hands {
		for c := range 2 {
			for typ := 1; typ <= t.types; typ++ {
				before, after := min(int(prev.hands[c][typ]), MaxHandCount), min(int(next.hands[c][typ]), MaxHandCount)
				pc := engine.MakePiece(typ, engine.Colour(c))
				for k := min(before, after); k < max(before, after); k++ {
					fits = fits && note(change{pc: pc, k: k, add: after > before})
				}
			}
		}
	}
	if !fits {
		t.refresh(next)
		return
	}
	for view := range 2 {
		a := next.acc[view]
		copy(a, prev.acc[view])
		for _, c := range changes[:n] {
			var i int
			if c.k < 0 {
				i = t.layout.Board(engine.Colour(view), c.pc, c.s)
			} else {
				i = t.layout.Hand(engine.Colour(view), c.pc, c.k)
			}
			if c.add {
				t.net.addInput(a, i)
			} else {
				t.net.subInput(a, i)
			}
		}
	}
	next.ok = true
}
