package gen

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Bit-parallel generation, for tables on boards of up to 64 squares (en
// passant in bittwins.go).
//
// The entries are walked as words of 64: a word fixes the first king's
// region square and every piece but the one in slot 1, and its bits are
// slot 1's squares. One word operation settles a move of any other piece
// for all 64 placements at once: the moved piece's target square gives
// the child's word, and the bits where slot 1 would stand on the path or
// the target are masked out. Slot 1's own moves, and the first king's
// (which may leave the region, so the child is mapped back by a
// symmetry), are walked bit by bit.
//
// Every placement with the first king in the region is a node, canonical
// or not (the images of a placement whose king stands on a square a
// symmetry fixes, identical pieces in either order): images take the same
// values level by level, so no move but the first king's needs
// canonicalising, and the canonical entries are read out at the end.
// Placements with a pawn where it never stands are nodes too, never
// positions, so that a word always holds all of slot 1's squares.
// A position is found lost by a forward test — every quiet move leads
// into a won position — on the predecessors of the positions won at the
// level before, instead of per-entry reply counters: a bit test per move,
// and no working state per entry but the value byte.
type bitGen struct {
	*generation
	np, regions, n int
	words          int   // nodes / 64
	wordWeight     []int // by slot ≥ 2: the word index step per square
	// quiet, capture and unmove are each slot's move sets as bitboards.
	quiet, capture, unmove []*bitSet
	victims                [2][]int // each colour's slots that can be taken
	probes                 []subProbe
	// promoProbes[i][victim+1][k]: the table after slot i promotes to the
	// k-th promotion type, taking victim (or -1).
	promoProbes [][][]subProbe
	// banned and promoting are each slot's squares it never stands on and
	// where it promotes on arrival.
	banned, promoting []uint64
	// valid: the side to move's node is a position (no two pieces on a
	// square, the side not to move not in check); known: its value is
	// decided; won: decided as a win; canSave: a capture draws or wins,
	// so it is never lost. Bitmaps by side to move, by word.
	valid, known, won, canSave [2][]uint64
	// fresh holds the nodes decided at the level being walked, cand the
	// predecessors being gathered (during initialisation: the nodes in
	// check, and those with a legal capture).
	fresh, cand [2][]uint64
	// twins are the sets of en-passant twins, twinOf each slot's (none
	// for a slot without a double step the other side can take).
	twins   []*twinSet
	twinOf  [][]*twinSet
	workers []*bitWorker
	// dtz is the distances to zeroing's walk (bitdtz.go), nil when they
	// are not walked here.
	dtz *bitDTZ
	// skip has a bit for each slot whose moves escape and predecessors
	// leave out: none for the distances to mate, the pawns (whose moves
	// zero the count) for the distances to zeroing.
	skip uint32
}

// bitWorker is one goroutine's buffers, and the nodes it found decided
// by a capture, kept by list and by the level they are decided at: wins,
// and losses once every quiet move is found to lose sooner. Lists 0 and
// 1 hold nodes by side to move, 2+k the twins of twin set k. They stay
// with the worker (four bytes a node) until their level.
type bitWorker struct {
	steps        []bitStep
	wins, losses [][][]uint32
	lateAt       []uint64 // twins' late losses found (see findTwins)
}

// put records node in list id of lists as decided at level.
func (wk *bitWorker) put(lists *[][][]uint32, id, level, node int) {
	for len(*lists) <= id {
		*lists = append(*lists, nil)
	}
	if (*lists)[id] == nil {
		(*lists)[id] = make([][]uint32, maxPlies+2)
	}
	(*lists)[id][level] = append((*lists)[id][level], uint32(node))
}

// bitSet is a move set as bitboards.
type bitSet struct {
	ms    *layout.MoveSet
	n     int
	leaps []uint64 // by square: plain leap targets
	// path[from*n+to] holds the squares that must be empty for the set to
	// reach `to` from `from` by its line (see moveSet.line).
	path []uint64
	// double, by square: the targets of a pawn's double step (or its
	// un-move), which may lead into an en-passant twin.
	double []uint64
}

// bitStep is a target square and the squares between that must be
// empty; double marks a pawn's double step.
type bitStep struct {
	to     int
	path   uint64
	double bool
}

// bit is a square's bit in a word.
func bit(sq int) uint64 { return 1 << uint(sq) }

// newBitSet builds the bitboards of move set ms on a board of n squares.
func newBitSet(ms *layout.MoveSet, n int) *bitSet {
	b := &bitSet{ms: ms, n: n, leaps: make([]uint64, n), path: make([]uint64, n*n), double: make([]uint64, n)}
	for from := range n {
		for _, r := range ms.Rays[from] {
			if r.Double {
				b.double[from] |= bit(int(r.Sq[len(r.Sq)-1]))
			}
		}
		for _, t := range ms.Leaps[from] {
			b.leaps[from] |= bit(int(t))
		}
		for to := range n {
			l := ms.Line[from*n+to]
			if r := ms.LineRay(from, l); r != nil {
				for _, s := range r.Sq[:l>>8] {
					b.path[from*n+to] |= bit(int(s))
				}
			}
		}
	}
	return b
}

// attacks reports whether the set reaches `to` from `from` with the
// squares occ occupied.
func (b *bitSet) attacks(from, to int, occ uint64) bool {
	return layout.Reaches(b.ms.Line[from*b.n+to]) && b.path[from*b.n+to]&occ == 0
}

// targets returns the empty squares the set reaches from `from`, the
// squares occ occupied.
func (b *bitSet) targets(from int, occ uint64) uint64 {
	t := b.leaps[from] &^ occ
	for _, r := range b.ms.Rays[from] {
		for i, s := range r.Sq {
			if occ&bit(int(s)) != 0 {
				break
			}
			if !r.Lame || i == len(r.Sq)-1 {
				t |= bit(int(s))
			}
		}
	}
	return t
}

// steps appends the set's targets from `from` past the occupied squares
// occ, each with the squares on its way (which another piece, not in occ,
// may block).
func (b *bitSet) steps(from int, occ uint64, out []bitStep) []bitStep {
	for _, t := range b.ms.Leaps[from] {
		if occ&bit(int(t)) == 0 {
			out = append(out, bitStep{to: int(t)})
		}
	}
	for _, r := range b.ms.Rays[from] {
		var path uint64
		for i, s := range r.Sq {
			if occ&bit(int(s)) != 0 {
				break
			}
			if !r.Lame || i == len(r.Sq)-1 {
				out = append(out, bitStep{to: int(s), path: path, double: r.Double})
			}
			path |= bit(int(s))
		}
	}
	return out
}

// subProbe looks up the table after a capture or promotion.
type subProbe struct {
	t *tablebase.Table // nil: bare kings, a draw
	m layout.SlotMatch
}

// bitParallelDTM fills the table's distances to mate, and readies the
// distances to zeroing's walk when withDTZ (see walkDTZ): the values are
// read out once both are done (readOut).
func (gen *generation) bitParallelDTM(workers int, withDTZ bool) (*bitGen, error) {
	g := gen.g
	bg := &bitGen{generation: gen, np: len(g.Pieces), regions: len(g.Region), n: g.N}
	bg.words = bg.regions
	bg.wordWeight = make([]int, bg.np)
	for i := 2; i < bg.np; i++ {
		bg.wordWeight[i] = bg.words
		bg.words *= g.N
	}
	sets := map[*layout.MoveSet]*bitSet{}
	setOf := func(ms *layout.MoveSet) *bitSet {
		if sets[ms] == nil {
			sets[ms] = newBitSet(ms, g.N)
		}
		return sets[ms]
	}
	for i := range g.Pieces {
		bg.quiet = append(bg.quiet, setOf(g.Kind[i].Quiet))
		bg.capture = append(bg.capture, setOf(g.Kind[i].Capture))
		bg.unmove = append(bg.unmove, setOf(g.Kind[i].Unmove))
		if !isRoyal(gen.t.Variant, g.Pieces[i]) {
			bg.victims[g.Colour[i]] = append(bg.victims[g.Colour[i]], i)
		}
	}
	bg.probes = make([]subProbe, bg.np)
	for j := range g.Pieces {
		bg.probes[j] = bg.probe(gen.subs[j], j, -1, 0)
	}
	bg.promoProbes = make([][][]subProbe, bg.np)
	for i, byVictim := range gen.promos {
		if byVictim == nil {
			continue
		}
		bg.promoProbes[i] = make([][]subProbe, bg.np+1)
		for v, tables := range byVictim {
			for k, st := range tables {
				bg.promoProbes[i][v] = append(bg.promoProbes[i][v], bg.probe(st, v-1, i, gen.promoTypes[k]))
			}
		}
	}
	bg.banned, bg.promoting = make([]uint64, bg.np), make([]uint64, bg.np)
	for i, k := range g.Kind {
		for sq := range g.N {
			if k.Banned != nil && k.Banned[sq] {
				bg.banned[i] |= bit(sq)
			}
			if k.Promotes != nil && k.Promotes[sq] {
				bg.promoting[i] |= bit(sq)
			}
		}
	}
	for c := 0; c < 2; c++ {
		for _, bm := range []*[]uint64{&bg.valid[c], &bg.known[c], &bg.won[c], &bg.canSave[c], &bg.fresh[c], &bg.cand[c]} {
			*bm = make([]uint64, bg.words)
		}
		gen.t.Val[c] = make([]byte, g.Size)
	}
	for range workers {
		bg.workers = append(bg.workers, &bitWorker{})
	}
	bg.buildTwins()
	if withDTZ {
		if err := bg.newBitDTZ(); err != nil {
			return nil, err
		}
	}
	if !bg.initialise() {
		return nil, tablebase.ErrAbandoned
	}
	for level := 0; level+2 <= maxPlies; level += 2 {
		if !bg.walkLevel(level) {
			return nil, tablebase.ErrAbandoned
		}
		gen.hooks.Report(0.3 + 0.7*min(float64(level)/100, 0.99))
		if bg.idleAfter(level) {
			break
		}
	}
	return bg, nil
}

// probe matches table st (nil: bare kings) to the placement after slot
// victim (or -1) is taken and slot promoted (or -1) becomes a piece of
// type promoType.
func (bg *bitGen) probe(st *tablebase.Table, victim, promoted, promoType int) subProbe {
	if st == nil {
		return subProbe{}
	}
	var rest []engine.Piece
	var slots []int
	for i, pc := range bg.g.Pieces {
		if i == victim {
			continue
		}
		if i == promoted {
			pc = engine.MakePiece(promoType, pc.Colour())
		}
		rest, slots = append(rest, pc), append(slots, i)
	}
	m, _ := st.Match(rest)
	for s := range st.Geo.Pieces {
		m.From[s] = slots[m.From[s]] // list index → our slot
	}
	return subProbe{t: st, m: m}
}

// wordBlock is the words a worker takes at a time.
const wordBlock = 1 << 10

// forWords runs f over all words in blocks spread over the workers; it
// returns false when the generation is abandoned.
func (bg *bitGen) forWords(f func(wk *bitWorker, lo, hi int)) bool {
	return bg.forBlocks(nil, f)
}

// forBlocks is forWords over the listed blocks of wordBlock words alone
// (all when nil).
func (bg *bitGen) forBlocks(blocks []int32, f func(wk *bitWorker, lo, hi int)) bool {
	n := (bg.words + wordBlock - 1) / wordBlock
	if blocks != nil {
		n = len(blocks)
	}
	var next atomic.Int64
	var abandoned atomic.Bool
	var wg sync.WaitGroup
	for _, wk := range bg.workers {
		wg.Add(1)
		go func(wk *bitWorker) {
			defer wg.Done()
			for !abandoned.Load() {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				if !bg.hooks.GoOn() {
					abandoned.Store(true)
					return
				}
				if blocks != nil {
					k = int(blocks[k])
				}
				lo := k * wordBlock
				f(wk, lo, min(lo+wordBlock, bg.words))
			}
		}(wk)
	}
	wg.Wait()
	return !abandoned.Load()
}

// wordPlace is the placement a word fixes.
type wordPlace struct {
	sq  [tablebase.MaxPieces]int // by slot; sq[1] is the bit's square when set
	occ uint64                   // squares of every slot but 1
	// fileBase + regions·z is the file index of bit z (a square slot 1
	// may stand on).
	fileBase int
	// unfiled: a fixed piece stands where it never does, so the word's
	// nodes have no file entries.
	unfiled bool
}

// decodeWord fills p from word w; it reports false when two of the fixed
// pieces share a square or one stands where it never does.
func (bg *bitGen) decodeWord(w int, p *wordPlace) bool {
	g := bg.g
	r, rest := w%bg.regions, w/bg.regions
	p.sq[0] = g.Region[r]
	p.fileBase = r - g.Lo[1]*g.Weight[1]
	p.unfiled = false
	occ := bit(p.sq[0])
	ok := true
	for i := 2; i < bg.np; i++ {
		s := rest % bg.n
		rest /= bg.n
		p.sq[i] = s
		p.fileBase += (s - g.Lo[i]) * g.Weight[i]
		p.unfiled = p.unfiled || bg.banned[i]&bit(s) != 0
		ok = ok && occ&bit(s) == 0
		occ |= bit(s)
	}
	p.occ = occ
	return ok && !p.unfiled
}

// imageNode returns the node of placement sq (by slot) under symmetry si,
// which must bring the first king into the region.
func (bg *bitGen) imageNode(si int, sq *[tablebase.MaxPieces]int) int {
	s := bg.g.Syms[si]
	w := bg.g.RegionOf[s[sq[0]]]
	for i := 2; i < bg.np; i++ {
		w += s[sq[i]] * bg.wordWeight[i]
	}
	return w<<6 | s[sq[1]]
}

// kingAttacked reports whether colour c's king is attacked on placement p
// with squares occ occupied.
func (bg *bitGen) kingAttacked(p *wordPlace, c int, occ uint64) bool {
	return bg.kingAttackedWithout(p, c, -1, occ)
}

// initialise marks the positions, finds what captures give, and decides
// the mates and the positions whose only moves are captures.
func (bg *bitGen) initialise() bool {
	inCheck, hasCapture := bg.fresh, bg.cand // borrowed until the levels start
	ok := bg.forWords(func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			if !bg.decodeWord(w, &p) {
				continue
			}
			for z := range bg.n {
				if (p.occ|bg.banned[1])&bit(z) != 0 {
					continue
				}
				p.sq[1] = z
				occ := p.occ | bit(z)
				// Each king's safety, tested once: it makes one side's
				// node a position and tells whether the other is in check.
				attacked := [2]bool{bg.kingAttacked(&p, 0, occ), bg.kingAttacked(&p, 1, occ)}
				for c := 0; c < 2; c++ {
					if attacked[1-c] {
						continue
					}
					bg.valid[c][w] |= bit(z)
					if attacked[c] {
						inCheck[c][w] |= bit(z)
					}
					bg.captures(wk, &p, c, occ, w<<6|z, hasCapture)
					if len(bg.twins) > 0 {
						bg.findTwins(wk, &p, c, occ, w<<6|z)
					}
				}
			}
		}
	})
	if !ok {
		return false
	}
	bg.sortLate()
	bg.hooks.Report(0.2)
	// A position without a quiet move is mated, stalemated, or decided by
	// its captures alone.
	ok = bg.forWords(func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			for c := 0; c < 2; c++ {
				m := bg.valid[c][w]
				if m == 0 {
					continue
				}
				bg.decodeWord(w, &p)
				stuck := m &^ bg.escape(wk, c, w, &p, m, bg.valid[1-c], bg.won[1-c])
				mated := stuck &^ hasCapture[c][w] & inCheck[c][w]
				lost := stuck & hasCapture[c][w] &^ bg.canSave[c][w]
				if len(bg.twins) > 0 {
					bg.stalemateTwins(wk, c, w, stuck&^hasCapture[c][w]&^inCheck[c][w])
				}
				inCheck[c][w], hasCapture[c][w] = mated, 0
				bg.known[c][w] |= mated
				for x := mated; x != 0; x &= x - 1 {
					bg.t.Val[c][p.fileBase+bg.regions*bits.TrailingZeros64(x)] = 1
				}
				for x := lost; x != 0; x &= x - 1 {
					z := bits.TrailingZeros64(x)
					level := int(bg.t.Val[c][p.fileBase+bg.regions*z]) - 1
					wk.put(&wk.losses, c, level, w<<6|z)
				}
			}
		}
	})
	return ok
}

// valAt is the value byte of a node (side c to move).
func (bg *bitGen) valAt(c, node int) *byte {
	return &bg.t.Val[c][bg.fileIndex(node)]
}

// fileIndex returns the file index of a node that is a position.
func (bg *bitGen) fileIndex(node int) int {
	var p wordPlace
	bg.decodeWord(node>>6, &p)
	return p.fileBase + bg.regions*(node&63)
}

// captures values colour c's legal captures and promotions on placement
// p (node `node`) and records what they decide: the node has one, is
// saved by one (a draw or a win), wins by one at some level, or loses by
// its slowest losing one (kept in its value byte until it is decided).
func (bg *bitGen) captures(wk *bitWorker, p *wordPlace, c int, occ uint64, node int, hasCapture [2][]uint64) {
	g := bg.g
	caps := captureResults{winBy: -1, lossBy: -1}
	for _, i := range g.SlotsOf[c] {
		from := p.sq[i]
		for _, j := range bg.victims[1-c] {
			to := p.sq[j]
			if bg.capture[i].attacks(from, to, occ) && bg.safeAfter(p, c, i, to, j, occ&^bit(from)) {
				bg.addMove(&caps, p, c, i, to, j)
			}
		}
		if bg.promoting[i] == 0 {
			continue
		}
		for ts := bg.quiet[i].targets(from, occ) & bg.promoting[i]; ts != 0; ts &= ts - 1 {
			to := bits.TrailingZeros64(ts)
			if bg.safeAfter(p, c, i, to, -1, occ&^bit(from)|bit(to)) {
				bg.addMove(&caps, p, c, i, to, -1)
			}
		}
	}
	if caps.n == 0 {
		return
	}
	w, z := node>>6, node&63
	hasCapture[c][w] |= bit(z)
	if bg.dtz != nil {
		terminals(bg.dtz.near[c], bg.dtz.far[c], w, bit(z), &caps)
	}
	if caps.draw || caps.winBy >= 0 {
		bg.canSave[c][w] |= bit(z)
	}
	if caps.winBy >= 0 {
		wk.put(&wk.wins, c, caps.winBy, node)
	} else if caps.lossBy >= 0 {
		bg.t.Val[c][p.fileBase+bg.regions*z] = byte(caps.lossBy + 1)
	}
}

// safeAfter reports whether colour c's king is safe once slot i has gone
// to `to`, taking victim (or -1), with squares occ occupied after.
func (bg *bitGen) safeAfter(p *wordPlace, c, i, to, victim int, occ uint64) bool {
	from := p.sq[i]
	p.sq[i] = to
	safe := !bg.kingAttackedWithout(p, c, victim, occ)
	p.sq[i] = from
	return safe
}

// kingAttackedWithout is kingAttacked with slot skip (a piece just taken,
// or -1) off the board.
func (bg *bitGen) kingAttackedWithout(p *wordPlace, c, skip int, occ uint64) bool {
	k := p.sq[bg.g.King[c]]
	for _, e := range bg.g.SlotsOf[1-c] {
		if e != skip && bg.capture[e].attacks(p.sq[e], k, occ) {
			return true
		}
	}
	return false
}

// addMove adds to caps the value of slot i's capture of victim (or -1)
// on `to`, or of each of its promotions there.
func (bg *bitGen) addMove(caps *captureResults, p *wordPlace, c, i, to, victim int) {
	from := p.sq[i]
	p.sq[i] = to
	if bg.promoting[i]&bit(to) != 0 {
		for k := range bg.promoProbes[i][victim+1] {
			bg.addProbe(caps, &bg.promoProbes[i][victim+1][k], p, 1-c)
		}
	} else {
		bg.addProbe(caps, &bg.probes[victim], p, 1-c)
	}
	p.sq[i] = from
}

// addProbe adds to caps the value of placement p in a smaller table, side
// stm to move (the moved piece already on its square), and its distance
// to zeroing when the walk needs it.
func (bg *bitGen) addProbe(caps *captureResults, pr *subProbe, p *wordPlace, stm int) {
	if pr.t == nil {
		caps.add(0) // bare kings
		return
	}
	var sq [tablebase.MaxPieces]int
	side := pr.m.Place(pr.t.Geo, p.sq[:], stm, sq[:])
	idx := pr.t.Geo.Canonical(sq[:len(pr.t.Geo.Pieces)])
	v := pr.t.Val[side][idx]
	caps.add(v)
	if bg.dtz != nil {
		caps.addZeroing(v, pr.t.DTZ[side][idx], bg.dtz.limit)
	}
}

// escape returns the nodes among cand (bits of word w, placement p, side
// c to move) with a legal quiet move into a node of the other side that
// is a position and not won.
func (bg *bitGen) escape(wk *bitWorker, c, w int, p *wordPlace, cand uint64, valid, won []uint64) uint64 {
	g := bg.g
	var esc uint64
	for _, i := range g.SlotsOf[c] {
		rest := cand &^ esc
		if rest == 0 {
			break
		}
		if bg.skip&(1<<i) != 0 {
			continue
		}
		switch i {
		case 1:
			open := valid[w] &^ won[w]
			for x := rest; x != 0; x &= x - 1 {
				z := bits.TrailingZeros64(x)
				t, d := bg.quiet[1].targets(z, p.occ), bg.quiet[1].double[z]
				if t&^d&open != 0 {
					esc |= bit(z)
					continue
				}
				for y := t & d; y != 0; y &= y - 1 {
					if to := bits.TrailingZeros64(y); bg.openDouble(1, w, to, z, valid, won)&bit(to) != 0 {
						esc |= bit(z)
						break
					}
				}
			}
		case 0:
			sq := p.sq
			for x := rest; x != 0; x &= x - 1 {
				z := bits.TrailingZeros64(x)
				sq[1] = z
				for ts := bg.quiet[0].targets(p.sq[0], p.occ|bit(z)); ts != 0; ts &= ts - 1 {
					sq[0] = bits.TrailingZeros64(ts)
					child := bg.imageNode(g.ToRegion[sq[0]][0], &sq)
					if (valid[child>>6]&^won[child>>6])&bit(child&63) != 0 {
						esc |= bit(z)
						break
					}
				}
			}
		default:
			from := p.sq[i]
			wk.steps = bg.quiet[i].steps(from, p.occ&^bit(from), wk.steps[:0])
			for _, st := range wk.steps {
				to := w + (st.to-from)*bg.wordWeight[i]
				open := valid[to] &^ won[to]
				if st.double {
					open = bg.openDouble(i, to, st.to, from, valid, won)
				}
				esc |= open &^ (st.path | bit(st.to))
			}
		}
	}
	return esc & cand
}

// predecessors ORs into dst (the movers' side to move) the nodes from
// which a quiet move of theirs leads into src's nodes in words lo…hi.
func (bg *bitGen) predecessors(wk *bitWorker, src []uint64, movers int, dst []uint64, lo, hi int) {
	g := bg.g
	var p wordPlace
	for w := lo; w < hi; w++ {
		m := src[w]
		twins := uint64(0) // twins decided now: their double steps are un-moved
		for _, ts := range bg.twins {
			if ts.c == 1-movers {
				twins |= ts.fresh[w]
			}
		}
		if m|twins == 0 {
			continue
		}
		bg.decodeWord(w, &p)
		for _, i := range g.SlotsOf[movers] {
			if bg.skip&(1<<i) != 0 {
				continue
			}
			switch i {
			case 1:
				var acc uint64
				for x := m | twins; x != 0; x &= x - 1 {
					z := bits.TrailingZeros64(x)
					t, d := bg.unmove[1].targets(z, p.occ), bg.unmove[1].double[z]
					if m&bit(z) != 0 {
						acc |= t &^ d
					}
					for y := t & d; y != 0; y &= y - 1 {
						if origin := bits.TrailingZeros64(y); bg.doubleSources(1, w, z, origin, m)&bit(z) != 0 {
							acc |= bit(origin)
						}
					}
				}
				if acc != 0 {
					atomic.OrUint64(&dst[w], acc)
				}
			case 0:
				sq := p.sq
				for x := m; x != 0; x &= x - 1 {
					z := bits.TrailingZeros64(x)
					sq[1] = z
					for ts := bg.unmove[0].targets(p.sq[0], p.occ|bit(z)); ts != 0; ts &= ts - 1 {
						sq[0] = bits.TrailingZeros64(ts)
						// Every image: each is a node of its own.
						for _, si := range g.ToRegion[sq[0]] {
							q := bg.imageNode(si, &sq)
							atomic.OrUint64(&dst[q>>6], bit(q&63))
						}
					}
				}
			default:
				from := p.sq[i]
				wk.steps = bg.unmove[i].steps(from, p.occ&^bit(from), wk.steps[:0])
				for _, st := range wk.steps {
					x := m
					if st.double {
						x = bg.doubleSources(i, w, from, st.to, m)
					}
					if x &^= st.path | bit(st.to); x != 0 {
						atomic.OrUint64(&dst[w+(st.to-from)*bg.wordWeight[i]], x)
					}
				}
			}
		}
	}
}

// gather ORs into cand[1-c] the predecessors of fresh[c], for both c.
func (bg *bitGen) gather() bool {
	return bg.forWords(func(wk *bitWorker, lo, hi int) {
		for c := 0; c < 2; c++ {
			bg.predecessors(wk, bg.fresh[c], 1-c, bg.cand[1-c], lo, hi)
		}
	})
}

// walkLevel takes the positions lost at level (in fresh) to the positions
// won at level+1 and lost at level+2 (left in fresh).
func (bg *bitGen) walkLevel(level int) bool {
	bg.addDecided(level)
	if !bg.twinsDecided(level) || !bg.gather() {
		return false
	}
	bg.addCandidates(level + 1)
	// Won at level+1: the unknown positions with a move into a loss.
	ok := bg.forWords(func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			for c := 0; c < 2; c++ {
				nw := bg.cand[c][w] & bg.valid[c][w] &^ bg.known[c][w]
				bg.cand[c][w], bg.fresh[c][w] = 0, nw
				if nw == 0 {
					continue
				}
				bg.known[c][w] |= nw
				bg.won[c][w] |= nw
				bg.decodeWord(w, &p)
				for x := nw; x != 0; x &= x - 1 {
					bg.t.Val[c][p.fileBase+bg.regions*bits.TrailingZeros64(x)] = byte(level + 2)
				}
			}
		}
	})
	if !ok || !bg.twinsDecided(level+1) || !bg.gather() {
		return false
	}
	// Lost at level+2: the predecessors of those wins whose every quiet
	// move now leads into a win, and no capture saves; a capture that
	// loses more slowly puts the loss off to its level.
	ok = bg.forWords(func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			for c := 0; c < 2; c++ {
				cd := bg.cand[c][w] & bg.valid[c][w] &^ bg.known[c][w] &^ bg.canSave[c][w]
				bg.cand[c][w], bg.fresh[c][w] = 0, 0
				if cd == 0 {
					continue
				}
				bg.decodeWord(w, &p)
				lost := cd &^ bg.escape(wk, c, w, &p, cd, bg.valid[1-c], bg.won[1-c])
				for x := lost; x != 0; x &= x - 1 {
					z := bits.TrailingZeros64(x)
					v := &bg.t.Val[c][p.fileBase+bg.regions*z]
					if capLoss := int(*v); capLoss-1 > level+2 {
						lost &^= bit(z)
						wk.put(&wk.losses, c, capLoss-1, w<<6|z)
						continue
					}
					*v = byte(level + 3)
				}
				bg.known[c][w] |= lost
				bg.fresh[c][w] = lost
			}
		}
	})
	return ok
}

// addDecided marks the nodes the workers put off to this (even) level,
// those still unknown, as lost now and adds them to fresh.
func (bg *bitGen) addDecided(level int) {
	for c := 0; c < 2; c++ {
		bg.take(func(wk *bitWorker) *[][][]uint32 { return &wk.losses }, c, level, func(node int) {
			w, b := node>>6, bit(node&63)
			if bg.known[c][w]&b != 0 {
				return
			}
			bg.known[c][w] |= b
			bg.fresh[c][w] |= b
			*bg.valAt(c, node) = byte(level + 1)
		})
	}
}

// addCandidates adds the nodes that win by a capture at this level to
// cand.
func (bg *bitGen) addCandidates(level int) {
	for c := 0; c < 2; c++ {
		bg.take(func(wk *bitWorker) *[][][]uint32 { return &wk.wins }, c, level, func(node int) {
			bg.cand[c][node>>6] |= bit(node & 63)
		})
	}
}

// take calls f for each node the workers hold in list id at level, and
// drops them.
func (bg *bitGen) take(lists func(*bitWorker) *[][][]uint32, id, level int, f func(node int)) {
	for _, wk := range bg.workers {
		l := *lists(wk)
		if id >= len(l) || l[id] == nil {
			continue
		}
		for _, node := range l[id][level] {
			f(int(node))
		}
		l[id][level] = nil
	}
}

// idleAfter reports whether nothing is left to decide after level: no
// position decided at it and none waiting for a later level.
func (bg *bitGen) idleAfter(level int) bool {
	for c := 0; c < 2; c++ {
		for _, x := range bg.fresh[c] {
			if x != 0 {
				return false
			}
		}
	}
	for _, wk := range bg.workers {
		for _, lists := range [][][][]uint32{wk.wins, wk.losses} {
			for _, l := range lists {
				for _, nodes := range l {
					if len(nodes) > 0 {
						return false
					}
				}
			}
		}
	}
	return true
}

// readOut turns the values into the table's: positions not decided are
// draws (their value byte may still hold a capture's loss), and
// non-canonical entries and non-positions are marked (their distance to
// zeroing, when walked, 0 as dtz.go leaves it).
func (bg *bitGen) readOut() bool {
	g := bg.g
	return bg.forWords(func(wk *bitWorker, lo, hi int) {
		var p wordPlace
		for w := lo; w < hi; w++ {
			fixed := bg.decodeWord(w, &p)
			if p.unfiled {
				continue
			}
			check := len(g.ToRegion[p.sq[0]]) > 1 || len(g.Same) > 0
			for z := range bg.n {
				if bg.banned[1]&bit(z) != 0 {
					continue // no entry: slot 1 never stands there
				}
				f := p.fileBase + bg.regions*z
				canonical := fixed && p.occ&bit(z) == 0
				if canonical && check {
					p.sq[1] = z
					canonical = g.Canonical(p.sq[:bg.np]) == f
				}
				for c := 0; c < 2; c++ {
					switch {
					case !canonical || bg.valid[c][w]&bit(z) == 0:
						bg.t.Val[c][f] = layout.NotPosition
					case bg.known[c][w]&bit(z) == 0:
						bg.t.Val[c][f] = 0
					default:
						continue
					}
					if bg.dtz != nil {
						bg.t.DTZ[c][f] = 0
					}
				}
			}
		}
	})
}
