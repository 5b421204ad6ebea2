package tablebase

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
)

// Entry values, per side to move: 0 is a draw, notPosition marks indices
// that are no legal canonical position, and any other v is a decided
// position with v−1 plies to mate: odd plies mean the side to move mates,
// even plies that it is mated (0: checkmated now).
const notPosition = 255

// Table is a generated (or loaded) tablebase.
type Table struct {
	Variant  *engine.Variant
	Material Material
	geo      *geometry
	val      [2][]byte // by side to move (0 White), by entry index
}

// Subtables returns the table of a smaller material (after a capture),
// generating it if need be.
type Subtables func(Material) (*Table, error)

// generation is the working state of one generation.
type generation struct {
	t       *Table
	g       *geometry
	sub     Subtables
	subs    map[int]*Table // by captured slot
	cnt     [2][]uint8     // replies (distinct child classes) not yet proven lost
	canSave [2][]bool      // a capture draws or wins: never lost
	capLoss [2][]uint8     // 1 + the plies to our mate after our slowest-losing capture, 0 if none
	done    [2][]bool      // un-moves walked: an entry may sit in a bucket twice
	buckets [][]uint32     // by plies: entries resolved at that distance (stm<<31 | index)
	mu      sync.Mutex
	hooks   Hooks
}

// Hooks let a caller follow and steer a generation. Each may be nil.
type Hooks struct {
	// Progress is told the fraction of the generation done.
	Progress func(float64)
	// Pause is called by every worker at regular check points (every few
	// milliseconds of work); it blocks while the generation is to pause,
	// and returns false to abandon it (GenerateWith then fails with
	// ErrAbandoned).
	Pause func() bool
	// Worker is called at the start of every worker goroutine, on its own
	// thread (to lower the thread's priority, say).
	Worker func()
}

func (h Hooks) progress(frac float64) {
	if h.Progress != nil {
		h.Progress(frac)
	}
}

// goOn calls Pause and reports whether to go on.
func (h Hooks) goOn() bool { return h.Pause == nil || h.Pause() }

// ErrAbandoned is the error of a generation its Pause hook abandoned.
var ErrAbandoned = errors.New("tablebase: generation abandoned")

func (h Hooks) worker() {
	if h.Worker != nil {
		h.Worker()
	}
}

// maxPlies bounds distances to mate; values are stored in a byte.
const maxPlies = notPosition - 2

// Generate builds the table for a material by retrograde analysis; sub
// supplies the smaller tables captures lead into. progress, when not nil,
// is told the fraction done.
func Generate(v *engine.Variant, m Material, sub Subtables, progress func(float64)) (*Table, error) {
	return GenerateWith(v, m, sub, Hooks{Progress: progress})
}

// GenerateWith is Generate with hooks to follow, pause and prioritise the
// work.
func GenerateWith(v *engine.Variant, m Material, sub Subtables, hooks Hooks) (*Table, error) {
	g, err := newGeometry(v, m)
	if err != nil {
		return nil, err
	}
	t := &Table{Variant: v, Material: m, geo: g}
	gen := &generation{t: t, g: g, sub: sub, subs: map[int]*Table{}, buckets: make([][]uint32, maxPlies+2), hooks: hooks}
	for i := range g.pieces {
		if g.pieces[i].Type() == 0 || isRoyal(v, g.pieces[i]) {
			continue
		}
		child := m.without(i)
		if len(child.Strong)+len(child.Weak) == 2 {
			continue // bare kings: a draw, no table needed
		}
		st, err := sub(orient(v, child))
		if err != nil {
			return nil, err
		}
		gen.subs[i] = st
	}
	for c := 0; c < 2; c++ {
		t.val[c] = make([]byte, g.size)
		gen.cnt[c] = make([]uint8, g.size)
		gen.canSave[c] = make([]bool, g.size)
		gen.done[c] = make([]bool, g.size)
		gen.capLoss[c] = make([]uint8, g.size)
	}
	if !gen.initialise() || !gen.propagate() {
		return nil, ErrAbandoned
	}
	hooks.progress(1)
	return t, nil
}

func isRoyal(v *engine.Variant, pc engine.Piece) bool { return v.PieceType(pc).Royal }

// orient puts the side with more material first (by the variant's piece
// values), so every material has one table.
func orient(v *engine.Variant, m Material) Material {
	value := func(side string) int {
		n := 0
		for i := 1; i < len(side); i++ {
			n += v.Pieces[v.TypeByLetter(side[i])-1].Value*16 + v.TypeByLetter(side[i])
		}
		return n
	}
	if value(m.Weak) > value(m.Strong) {
		return Material{Strong: m.Weak, Weak: m.Strong}
	}
	return m
}

// board is a placement being examined: squares by slot and occupancy.
type board struct {
	g   *geometry
	sq  []int
	occ []bool
	who []int // compact square → slot, -1 empty
}

func (g *geometry) newBoard() *board {
	b := &board{g: g, sq: make([]int, len(g.pieces)), occ: make([]bool, g.n), who: make([]int, g.n)}
	for i := range b.who {
		b.who[i] = -1
	}
	return b
}

// place sets up squares; it reports false if two pieces share a square.
func (b *board) place(sq []int) bool {
	for i, s := range sq {
		if b.occ[s] {
			for _, t := range sq[:i] {
				b.occ[t], b.who[t] = false, -1
			}
			return false
		}
		b.occ[s], b.who[s] = true, i
	}
	copy(b.sq, sq)
	return true
}

func (b *board) clear() {
	for _, s := range b.sq {
		b.occ[s], b.who[s] = false, -1
	}
}

// colourOf returns the colour of the piece in slot i.
func (g *geometry) colourOf(i int) int { return g.colour[i] }

// attacked reports whether colour c's king is attacked by the other side,
// with slot `skip` removed (a captured piece), or -1.
func (b *board) attacked(c, skip int) bool {
	g := b.g
	k := b.sq[g.king[c]]
	for _, i := range g.slotsOf[1-c] {
		if i != skip && g.attacks(i, b.sq[i], k, b.occ) {
			return true
		}
	}
	return false
}

// targets calls f for every square the piece in slot i can move to: empty
// squares, and squares of the other colour (captures).
func (b *board) targets(i int, f func(t int)) {
	pm, from, c := b.g.moves[i], b.sq[i], b.g.colourOf(i)
	for _, t := range pm.leaps[from] {
		if w := b.who[t]; w < 0 || b.g.colourOf(w) != c {
			f(t)
		}
	}
	for _, ray := range pm.rays[from] {
		for _, t := range ray {
			w := b.who[t]
			if w < 0 {
				f(t)
				continue
			}
			if b.g.colourOf(w) != c {
				f(t)
			}
			break
		}
	}
}

// move puts slot i on t (which must be empty) and returns the old square.
func (b *board) move(i, t int) int {
	from := b.sq[i]
	b.occ[from], b.who[from] = false, -1
	b.occ[t], b.who[t] = true, i
	b.sq[i] = t
	return from
}

// legal reports whether the placement with side stm to move is a position:
// the side not to move is not in check.
func (b *board) legal(stm int) bool { return !b.attacked(1-stm, -1) }

// initialise examines every entry: marks the non-positions, counts the
// replies, resolves mates and stalemates and what captures decide.
func (gen *generation) initialise() (finished bool) {
	g := gen.g
	workers := runtime.GOMAXPROCS(0)
	var abandoned atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			gen.hooks.worker()
			b := g.newBoard()
			sq := make([]int, len(g.pieces))
			children := make([]int, 0, 64)
			var local [][2]int // (level, entry) resolved here, bucketed afterwards
			for stm := 0; stm < 2; stm++ {
				for idx := w; idx < g.size; idx += workers {
					if idx&(1<<14-1) == w && (abandoned.Load() || !gen.hooks.goOn()) {
						abandoned.Store(true)
						return
					}
					g.decode(idx, sq)
					if g.canonical(sq) != idx || !b.place(sq) {
						gen.t.val[stm][idx] = notPosition
						continue
					}
					if !b.legal(stm) {
						gen.t.val[stm][idx] = notPosition
						b.clear()
						continue
					}
					if level, ok := gen.examine(b, stm, idx, &children); ok {
						local = append(local, [2]int{level, stm<<31 | idx})
					}
					b.clear()
				}
				if w == 0 {
					gen.hooks.progress(0.25 * float64(stm+1))
				}
			}
			gen.mu.Lock()
			for _, e := range local {
				gen.buckets[e[0]] = append(gen.buckets[e[0]], uint32(e[1]))
			}
			gen.mu.Unlock()
		}(w)
	}
	wg.Wait()
	return !abandoned.Load()
}

// examine generates the moves of a legal position and records what is
// known: the number of quiet child classes, and what the captures give. It
// returns a level when the position is resolved (or may be, for a win by
// capture) at that many plies.
func (gen *generation) examine(b *board, stm, idx int, children *[]int) (int, bool) {
	g := gen.g
	*children = (*children)[:0]
	legalMoves := 0
	winBy, lossBy, draw := -1, -1, false
	for i := range g.pieces {
		if g.colourOf(i) != stm {
			continue
		}
		b.targets(i, func(t int) {
			victim := b.who[t]
			if victim >= 0 {
				// A capture: the child is in a smaller table.
				if isRoyal(gen.t.Variant, g.pieces[victim]) {
					return // never in a legal position
				}
				from := b.sq[i]
				b.occ[t], b.who[t] = false, -1
				b.move(i, t)
				safe := !b.attacked(stm, victim)
				v := byte(0)
				if safe {
					v = gen.childValue(b, victim, 1-stm)
				}
				b.move(i, from)
				b.occ[t], b.who[t] = true, victim
				if !safe {
					return
				}
				legalMoves++
				switch {
				case v == 0:
					draw = true
				case (v-1)%2 == 0: // the opponent is mated in v−1 plies
					if w := int(v); winBy < 0 || w < winBy {
						winBy = w // we mate in v plies
					}
				default:
					lossBy = max(lossBy, int(v)) // we are mated in v plies
				}
				return
			}
			from := b.move(i, t)
			if !b.attacked(stm, -1) {
				legalMoves++
				*children = append(*children, g.moved(idx, b.sq, i, from))
			}
			b.move(i, from)
		})
	}
	if legalMoves == 0 {
		if b.attacked(stm, -1) {
			gen.t.val[stm][idx] = 1 // checkmated: mated in 0 plies
			return 0, true
		}
		return 0, false // stalemate: a draw
	}
	distinct := countDistinct(*children)
	gen.cnt[stm][idx] = uint8(distinct)
	gen.canSave[stm][idx] = draw || winBy >= 0
	if lossBy >= 0 {
		gen.capLoss[stm][idx] = uint8(lossBy + 1)
	}
	if winBy >= 0 {
		return winBy, true // a win by capture, unless a faster one turns up
	}
	if distinct == 0 && !draw {
		// Every move captures into a lost position: lost at the longest.
		gen.t.val[stm][idx] = byte(lossBy + 1)
		return lossBy, true
	}
	return 0, false
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

// childValue looks up, in the subtable, the position after a capture of
// slot victim, with side stm to move.
func (gen *generation) childValue(b *board, victim, stm int) byte {
	st := gen.subs[victim]
	if st == nil {
		return 0 // bare kings
	}
	var pieces [MaxPieces]engine.Piece
	var squares [MaxPieces]int
	n := 0
	for i, pc := range gen.g.pieces {
		if i != victim {
			pieces[n], squares[n] = pc, b.sq[i]
			n++
		}
	}
	return st.valueOf(pieces[:n], squares[:n], stm)
}

// propagate walks the un-moves from the resolved positions, level by
// level: a position with a move to a lost one is won one ply later; a
// position all of whose replies are won for the opponent is lost. The
// un-moves of a chunk of entries are generated in parallel; the results
// are applied in order, so the outcome does not depend on scheduling.
func (gen *generation) propagate() (finished bool) {
	workers := runtime.GOMAXPROCS(0)
	boards := make([]*board, workers)
	for w := range boards {
		boards[w] = gen.g.newBoard()
	}
	const chunk = 1 << 14
	preds := make([][]int, chunk)
	for level := 0; level <= maxPlies; level++ {
		if len(gen.buckets[level]) == 0 && gen.emptyFrom(level) {
			break
		}
		bucket := gen.buckets[level]
		for start := 0; start < len(bucket); start += chunk {
			part := bucket[start:min(start+chunk, len(bucket))]
			if !gen.hooks.goOn() {
				return false
			}
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					gen.hooks.worker()
					sq := make([]int, len(gen.g.pieces))
					for k := w; k < len(part); k += workers {
						preds[k] = preds[k][:0]
						stm, idx := int(part[k]>>31), int(part[k]&(1<<31-1))
						if v := gen.t.val[stm][idx]; v != 0 && v != byte(level+1) {
							continue // resolved sooner
						}
						gen.g.decode(idx, sq)
						boards[w].place(sq)
						preds[k] = gen.predecessors(boards[w], stm, idx, preds[k])
						boards[w].clear()
					}
				}(w)
			}
			wg.Wait()
			for k, e := range part {
				gen.apply(level, e, preds[k])
			}
		}
		gen.buckets[level] = nil
		// Distances rarely pass 100 plies in tables this size.
		gen.hooks.progress(0.5 + 0.5*min(float64(level)/100, 0.99))
	}
	return true
}

// apply settles one entry of the bucket of a level and passes its result
// to its predecessors.
func (gen *generation) apply(level int, e uint32, preds []int) {
	stm, idx := int(e>>31), int(e&(1<<31-1))
	v := &gen.t.val[stm][idx]
	switch {
	case gen.done[stm][idx]:
		return // a capture win that a quiet win matched
	case level%2 == 1 && *v == 0:
		*v = byte(level + 1) // a win by capture found at init
	case *v != byte(level+1):
		return // resolved sooner
	}
	gen.done[stm][idx] = true
	for _, q := range preds {
		qv := &gen.t.val[1-stm][q]
		if *qv != 0 {
			continue
		}
		if level%2 == 0 {
			// stm is mated here: whoever moved into it wins.
			*qv = byte(level + 2)
			gen.buckets[level+1] = append(gen.buckets[level+1], uint32((1-stm)<<31|q))
			continue
		}
		gen.cnt[1-stm][q]--
		if gen.cnt[1-stm][q] == 0 && !gen.canSave[1-stm][q] {
			// Lost at the longest resistance: the last reply proven
			// lost, or a capture into a smaller table that loses later.
			lost := max(level+1, int(gen.capLoss[1-stm][q])-1)
			*qv = byte(lost + 1)
			gen.buckets[lost] = append(gen.buckets[lost], uint32((1-stm)<<31|q))
		}
	}
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
// which a legal non-capture move leads to the position on b.
func (gen *generation) predecessors(b *board, stm, idx int, out []int) []int {
	g := gen.g
	mover := 1 - stm
	for i := range g.pieces {
		if g.colourOf(i) != mover {
			continue
		}
		b.targets(i, func(t int) {
			if b.who[t] >= 0 {
				return // un-moves go to empty squares only
			}
			from := b.move(i, t)
			if !b.attacked(stm, -1) { // the side not to move in the predecessor
				out = append(out, g.moved(idx, b.sq, i, from))
			}
			b.move(i, from)
		})
	}
	countDistinct(out) // sorts
	return dedupeSorted(out)
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
