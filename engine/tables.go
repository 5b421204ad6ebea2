package engine

// This file builds, once per variant, the per-square tables that move
// generation and attack detection walk, so that the hot loops never test
// board edges or decode atoms.

// squareMoves is everything one piece (type and colour) can do from one
// square, grouped so the generator treats each group with one loop.
type squareMoves struct {
	quiet  []Square   // leap targets for non-captures only
	both   []Square   // leap targets for moves and captures
	capt   []Square   // leap targets for captures only
	epCapt []Square   // capture targets where en passant may be taken
	lame   []lameLeap // leaps whose path must be empty
	rays   []moveRay  // unlimited rides
	hops   []moveRay  // grasshopper and cannon lines
}

// empty reports whether the piece has no move at all from the square.
func (sm *squareMoves) empty() bool {
	return len(sm.quiet)+len(sm.both)+len(sm.capt)+len(sm.lame)+len(sm.rays)+len(sm.hops) == 0
}

// lameLeap is a leap that needs every square of path empty. doubleStep marks
// the pawn's initial multi-step, which leaves en-passant squares behind. A
// screen leap (a cannon's jump along a palace diagonal) needs exactly one
// piece on path instead; spares: not one of the mover's kind, and it takes
// none of them.
type lameLeap struct {
	to             Square
	path           []Square
	quiet, capture bool
	doubleStep     bool
	screen, spares bool
}

// moveRay is the line a rider or hopper follows from one square. skip has bit
// k set when the k-th square is emitted by a leap of the same piece instead,
// so the generator never lists a move twice.
type moveRay struct {
	squares        []Square
	ray            int // index into Variant.rays (riders only)
	quiet, capture bool
	cannon         bool // a hop that may land anywhere beyond the hurdle
	spares         bool // a cannon that neither jumps nor takes its own kind
	skip           uint16
	// plain: moves and captures with nothing skipped, the common rider,
	// which the hot loops treat without further tests.
	plain bool
}

// attackTables answer "which pieces of one colour attack this square" by
// scanning outward from the square with every atom reversed.
type attackTables struct {
	leaps [NumSquares][]leapAttack // plain leapers, by target square
	// leapFrom[s] is leaps[s]'s from-squares as a small-board mask, for a
	// quick test that no leaper stands on any of them.
	leapFrom [NumSquares]uint64
	epLeaps  [NumSquares][]leapAttack // capturers that may take en passant
	lame     [NumSquares][]lameAttack // blockable leaps and limited rides
	rayDirs  []attackDir              // riders: first piece met along the ray
	hopDirs  []attackDir              // hoppers: hurdle next, then the hopper
	// cannonDirs: scanning outward, the first piece is the hurdle and the
	// next one attacks if it is in pieces.
	cannonDirs []attackDir
	// along[ray] are the pieces attacking along one ray, by kind (the
	// three lists above indexed by ray).
	along []lineAttackers
}

// lineAttackers are the piece-code sets that attack along one ray.
type lineAttackers struct{ ride, hop, cannon uint64 }

// leapAttack: a piece in pieces (a piece-code set) on from attacks the square.
type leapAttack struct {
	from   Square
	pieces uint64
}

// lameAttack is a leapAttack that also needs path empty (or, for a
// cannon's screen leap, holding exactly one piece; spares: one not of the
// cannon's kind, and no such victim).
type lameAttack struct {
	from           Square
	path           []Square
	pieces         uint64
	screen, spares bool
}

// attackDir: scanning v.rays[ray] outward, the first piece met attacks the
// square when it is in pieces (for hopDirs: the first piece after the hurdle).
type attackDir struct {
	ray    int
	pieces uint64
}

// leapOption is one way to reach a target square, before merging.
type leapOption struct {
	path           []Square
	quiet, capture bool
	ep, doubleStep bool
}

func (v *Variant) buildTables() {
	rayIndex := map[Vector]int{}
	rayOf := func(vec Vector) int {
		if i, ok := rayIndex[vec]; ok {
			return i
		}
		var table [NumSquares][]Square
		for s := 0; s < NumSquares; s++ {
			sq := Square(s)
			if !v.onBoard.Has(sq) {
				continue
			}
			for t, ok := v.step(sq, vec); ok; t, ok = v.step(t, vec) {
				table[s] = append(table[s], t)
			}
		}
		v.rays = append(v.rays, table)
		rayIndex[vec] = len(v.rays) - 1
		return len(v.rays) - 1
	}
	reach := &pieceReach{}
	for i := range v.Pieces {
		for _, c := range []Colour{White, Black} {
			pc := MakePiece(i+1, c)
			v.moves[pc] = make([]squareMoves, NumSquares)
			for s := 0; s < NumSquares; s++ {
				if v.onBoard.Has(Square(s)) {
					v.moves[pc][s] = v.buildSquareMoves(pc, Square(s), rayOf, reach)
				}
			}
			v.buildAttacks(pc, rayOf)
		}
	}
	for i, d := range unitSteps() {
		v.unitRay[d.DX+1][d.DY+1] = rayOf(d)
		v.unitRays[i] = v.unitRay[d.DX+1][d.DY+1]
	}
	v.small = v.buildSmallBoard()
	if v.small != nil {
		v.squareBit = v.small.bit
		for c := range v.attacks {
			at := &v.attacks[c]
			for s := range at.leaps {
				for _, a := range at.leaps[s] {
					at.leapFrom[s] |= v.squareBit[a.from]
				}
			}
		}
	}
	for c := range v.simpleAttacks {
		at := &v.attacks[c]
		v.simpleAttacks[c] = len(at.hopDirs) == 0 && len(at.cannonDirs) == 0
		for s := range at.lame {
			if len(at.lame[s]) > 0 {
				v.simpleAttacks[c] = false
			}
		}
	}
	v.buildLineAttackers()
}

// buildLineAttackers fills, for legalByMaking's tests on the board, each
// colour's attackers by ray (the flying general attacking along its file
// and rank like a rook), whether all those rays are unit steps, and, for
// a colour whose attacks legalByMaking tests (those the pin analysis
// cannot), the royal piece's lines and legs on every square.
func (v *Variant) buildLineAttackers() {
	unit := map[int]bool{}
	for _, d := range unitSteps() {
		unit[v.unitRay[d.DX+1][d.DY+1]] = true
	}
	v.unitLines = true
	for c := range v.attacks {
		at := &v.attacks[c]
		at.along = make([]lineAttackers, len(v.rays))
		for _, d := range at.rayDirs {
			at.along[d.ray].ride |= d.pieces
			v.unitLines = v.unitLines && unit[d.ray]
		}
		for _, d := range at.hopDirs {
			at.along[d.ray].hop |= d.pieces
			v.unitLines = v.unitLines && unit[d.ray]
		}
		for _, d := range at.cannonDirs {
			at.along[d.ray].cannon |= d.pieces
			v.unitLines = v.unitLines && unit[d.ray]
		}
		if v.FlyingGeneral {
			royals := v.royalTypes & colourCodes(Colour(c))
			for _, d := range Symmetric(1, 0) {
				at.along[v.unitRay[d.DX+1][d.DY+1]].ride |= royals
			}
		}
	}
	for c := range v.kingLines {
		if v.simpleAttacks[c] && !v.special {
			continue // legalMoves' pin analysis handles this attacker
		}
		v.kingLines[c] = make([]SquareSet, NumSquares)
		v.kingLegs[c] = make([]SquareSet, NumSquares)
		for s := 0; s < NumSquares; s++ {
			if v.onBoard.Has(Square(s)) {
				v.kingLines[c][s], v.kingLegs[c][s] = v.buildKingLines(Colour(c), Square(s))
			}
		}
	}
}

// unitSteps are the eight one-square steps, orthogonal first.
func unitSteps() []Vector { return append(Symmetric(1, 0), Symmetric(1, 1)...) }

// colourCodes is the piece-code set of every piece of colour c.
func colourCodes(c Colour) uint64 {
	if c == White {
		return 0x5555555555555555
	}
	return 0xAAAAAAAAAAAAAAAA
}

// step returns s moved by vec (mirrored for no one: callers orient vec).
func (v *Variant) step(s Square, vec Vector) (Square, bool) {
	f, r := s.File()+vec.DX, s.Rank()+vec.DY
	if f < 0 || r < 0 || f >= v.Width || r >= v.Height {
		return 0, false
	}
	return SquareAt(f, r), true
}

// orient turns a White-view vector into the board vector for colour c.
func orient(vec Vector, c Colour) Vector {
	if c == Black {
		vec.DY = -vec.DY
	}
	return vec
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// lamePath lists the squares a lame leap by vec from s must find empty,
// walking toward the target as Fairy-Stockfish does: a diagonal step while
// the two distances left are equal, otherwise a step along the longer one.
// So a straight or diagonal leap needs its line empty, the xiangqi horse
// (1,2) its orthogonal first step, and the janggi elephant (2,3) that step
// and the diagonal one after it.
func (v *Variant) lamePath(s Square, vec Vector) []Square {
	var path []Square
	for _, off := range LameWalk(vec) {
		t, _ := v.step(s, off)
		path = append(path, t)
	}
	return path
}

// LameWalk returns the offsets from a lame leaper's square of the squares
// its leap by vec must find empty (lamePath's walk), for the tablebase's
// un-moves too.
func LameWalk(vec Vector) []Vector {
	var walk []Vector
	var at Vector
	for {
		left := Vector{vec.DX - at.DX, vec.DY - at.DY}
		step := Vector{sign(left.DX), sign(left.DY)}
		switch {
		case abs(left.DX) > abs(left.DY):
			step.DY = 0
		case abs(left.DY) > abs(left.DX):
			step.DX = 0
		}
		at = Vector{at.DX + step.DX, at.DY + step.DY}
		if at == vec {
			return walk
		}
		walk = append(walk, at)
	}
}

// buildSquareMoves builds what one piece can do from one square, in three
// steps: collect every way its atoms reach squares, turn the lines (rides,
// hops, cannons) into rays, then merge the leaps to each target square into
// the generator's groups.
func (v *Variant) buildSquareMoves(pc Piece, s Square, rayOf func(Vector) int, reach *pieceReach) squareMoves {
	v.collectReach(pc, s, rayOf, reach)
	var sm squareMoves
	for _, line := range reach.lines {
		key, mode := line.key, line.mode
		r := moveRay{squares: v.rays[key.ray][s], quiet: mode.quiet, capture: mode.capture}
		if key.kind == rideLine {
			r.ray = key.ray
			sm.rays = append(sm.rays, r)
			continue
		}
		r.cannon = key.kind == cannonLine
		r.spares = r.cannon && v.Pieces[pc.Type()-1].SparesOwnKind
		sm.hops = append(sm.hops, r)
	}
	for _, t := range reach.targets {
		sm.addLeapTarget(t, reach.leaps[t])
	}
	sm.lame = append(sm.lame, reach.screens...)
	for i := range sm.rays {
		r := &sm.rays[i]
		r.plain = r.quiet && r.capture && r.skip == 0
	}
	return sm
}

// lineKind says how a piece uses a line of squares from its square.
type lineKind uint8

// The line kinds.
const (
	rideLine   lineKind = iota // slides until blocked
	hopLine                    // lands just beyond the first piece met
	cannonLine                 // moves or captures anywhere beyond one screen
)

// lineKey names one line a piece uses: a ray of Variant.rays and how.
type lineKey struct {
	ray  int
	kind lineKind
}

// lineMode is whether a line is used to move, to capture, or both.
type lineMode struct{ quiet, capture bool }

// pieceReach is every way one piece on one square reaches other squares,
// before the ways to each square are merged. One is used for every piece
// and square of a variant in turn (reset between them): building a
// variant's tables took a map or two and their growth per piece and
// square, most of the time it took.
type pieceReach struct {
	leaps   [NumSquares][]leapOption // by target; empty for squares not in targets
	targets []Square                 // first-seen order, so tables are deterministic
	lines   []reachLine              // first-seen order; a piece has a few at most
	// screens are a cannon's jumps along palace diagonals, kept apart
	// from the leaps: they need a piece in the way, not none.
	screens []lameLeap
}

// reachLine is one line a piece uses and how.
type reachLine struct {
	key  lineKey
	mode lineMode
}

// reset empties the reach for the next piece or square, keeping its
// memory. What was read from it stays valid: the merged moves keep the
// options' paths, never the options' own slices.
func (r *pieceReach) reset() {
	for _, t := range r.targets {
		r.leaps[t] = r.leaps[t][:0]
	}
	r.targets, r.lines, r.screens = r.targets[:0], r.lines[:0], r.screens[:0]
}

func (r *pieceReach) addLeap(t Square, o leapOption) {
	if len(r.leaps[t]) == 0 { // every target holds one option at least
		r.targets = append(r.targets, t)
	}
	r.leaps[t] = append(r.leaps[t], o)
}

func (r *pieceReach) addLine(key lineKey, quiet, capture bool) {
	i := 0
	for i < len(r.lines) && r.lines[i].key != key {
		i++
	}
	if i == len(r.lines) {
		r.lines = append(r.lines, reachLine{key: key})
	}
	mode := &r.lines[i].mode
	mode.quiet = mode.quiet || quiet
	mode.capture = mode.capture || capture
}

// collectReach walks the piece's atoms from s into reach, emptied first:
// unlimited rides, hops and cannons become lines; leaps and limited rides
// (a set of lame leaps, one per distance) become leap options per target
// square.
func (v *Variant) collectReach(pc Piece, s Square, rayOf func(Vector) int, reach *pieceReach) {
	c := pc.Colour()
	pt := &v.Pieces[pc.Type()-1]
	takesEP := false
	for _, a := range pt.Atoms {
		takesEP = takesEP || a.EnPassant
	}
	reach.reset()
	// A confined piece's rides become leaps along the line, kept where
	// they end inside the region (check refuses confined hoppers).
	inRegion := func(t Square) bool { return pt.Region == nil || pt.Region[c].Has(t) }
	for _, a := range pt.Atoms {
		if a.Initial {
			region := &v.InitialRegion
			if a.From != nil {
				region = a.From
			}
			if !region[c].Has(s) {
				continue
			}
		}
		quiet, capture := !a.CaptureOnly, !a.MoveOnly
		for _, wv := range a.Vectors {
			vec := orient(wv, c)
			switch {
			case a.Kind == Ride && a.Range == 0 && pt.Region == nil, a.Kind == Hop, a.Kind == Cannon:
				if _, ok := v.step(s, vec); !ok {
					continue
				}
				key := lineKey{ray: rayOf(vec), kind: rideLine}
				switch a.Kind {
				case Hop:
					key.kind = hopLine
				case Cannon:
					key.kind = cannonLine
				}
				reach.addLine(key, quiet, capture)
			case a.Kind == Ride:
				t := s
				var path []Square
				limit := a.Range
				if limit == 0 {
					limit = MaxSize
				}
				for k := 1; k <= limit; k++ {
					var ok bool
					if t, ok = v.step(t, vec); !ok {
						break
					}
					if !inRegion(t) {
						path = append(path, t)
						continue
					}
					reach.addLeap(t, leapOption{path: append([]Square(nil), path...), quiet: quiet, capture: capture,
						ep:         capture && a.EnPassant && k == 1,
						doubleStep: v.isDoubleStep(a, Vector{vec.DX * k, vec.DY * k}, takesEP)})
					path = append(path, t)
				}
			default:
				t, ok := v.step(s, vec)
				if !ok || !inRegion(t) {
					continue
				}
				var path []Square
				if a.Lame {
					path = v.lamePath(s, vec)
				}
				reach.addLeap(t, leapOption{path: path, quiet: quiet, capture: capture,
					ep: capture && a.EnPassant && len(path) == 0, doubleStep: v.isDoubleStep(a, vec, takesEP)})
			}
		}
	}
	if v.DiagonalLines.Has(s) {
		v.addDiagonalLines(reach, pt, c, s, inRegion)
	}
}

// diagonalGroup is the orthogonal unit steps of one kind of move a piece
// has on a square, gathered across its atoms.
type diagonalGroup struct {
	kind           AtomKind
	limit          int // steps a ride may take (1 for a leap)
	quiet, capture bool
	steps          map[Vector]bool // oriented for the piece's colour
}

// addDiagonalLines gives a piece on a point of the palace diagonals
// (DiagonalLines) the diagonal moves its orthogonal steps make there: a
// diagonal where it has both orthogonal steps that form it (a wazir all
// four, a soldier's forward and sideways steps the two forward ones), as
// a step, a slide or a cannon's jump, along the diagonal's points only.
func (v *Variant) addDiagonalLines(reach *pieceReach, pt *PieceType, c Colour, s Square, inRegion func(Square) bool) {
	var groups []*diagonalGroup
	for _, a := range pt.Atoms {
		if a.Lame || a.Kind == Hop || (a.Initial && a.From == nil && !v.InitialRegion[c].Has(s)) || (a.From != nil && !a.From[c].Has(s)) {
			continue
		}
		limit := 1
		if a.Kind == Ride || a.Kind == Cannon {
			limit = a.Range
			if limit == 0 {
				limit = MaxSize
			}
		}
		quiet, capture := !a.CaptureOnly, !a.MoveOnly
		var g *diagonalGroup
		for _, h := range groups {
			if h.kind == a.Kind && h.limit == limit && h.quiet == quiet && h.capture == capture {
				g = h
			}
		}
		if g == nil {
			g = &diagonalGroup{kind: a.Kind, limit: limit, quiet: quiet, capture: capture, steps: map[Vector]bool{}}
			groups = append(groups, g)
		}
		for _, vec := range a.Vectors {
			if abs(vec.DX)+abs(vec.DY) == 1 {
				g.steps[orient(vec, c)] = true
			}
		}
	}
	for _, g := range groups {
		for _, diag := range Symmetric(1, 1) {
			if !g.steps[Vector{diag.DX, 0}] || !g.steps[Vector{0, diag.DY}] {
				continue
			}
			var line []Square
			for t, ok := v.step(s, diag); ok && v.DiagonalLines.Has(t) && len(line) < g.limit; t, ok = v.step(t, diag) {
				line = append(line, t)
			}
			for k, t := range line {
				switch {
				case !inRegion(t):
				case g.kind == Cannon && k > 0:
					reach.screens = append(reach.screens, lameLeap{to: t, path: line[:k], quiet: g.quiet, capture: g.capture,
						screen: true, spares: pt.SparesOwnKind})
				case g.kind != Cannon:
					reach.addLeap(t, leapOption{path: line[:k], quiet: g.quiet, capture: g.capture})
				}
			}
		}
	}
}

// addLeapTarget merges the ways to reach t into the groups: the shortest
// path for moving and for capturing, minus what an unlimited ray already
// emits (or with the ray skipping t when a plain leap covers it even when
// the line is blocked).
func (sm *squareMoves) addLeapTarget(t Square, options []leapOption) {
	q, cp := bestOption(options, true), bestOption(options, false)
	var eps bool
	for _, o := range options {
		eps = eps || o.ep
	}
	for ri := range sm.rays {
		r := &sm.rays[ri]
		for k, rs := range r.squares {
			if rs != t {
				continue
			}
			if q != nil && r.quiet && len(q.path) == k {
				q = nil
			}
			if cp != nil && r.capture && len(cp.path) == k {
				cp = nil
			}
			if k > 0 && (q != nil && len(q.path) == 0 || !r.quiet) && (cp != nil && len(cp.path) == 0 || !r.capture) {
				r.skip |= 1 << k
			}
		}
	}
	switch {
	case q != nil && cp != nil && samePath(q.path, cp.path):
		if len(q.path) == 0 {
			sm.both = append(sm.both, t)
		} else {
			sm.lame = append(sm.lame, lameLeap{to: t, path: q.path, quiet: true, capture: true, doubleStep: q.doubleStep})
		}
	default:
		for _, o := range []*leapOption{q, cp} {
			switch {
			case o == nil:
			case len(o.path) > 0:
				sm.lame = append(sm.lame, lameLeap{to: t, path: o.path, quiet: o == q, capture: o == cp, doubleStep: o.doubleStep})
			case o == q:
				sm.quiet = append(sm.quiet, t)
			default:
				sm.capt = append(sm.capt, t)
			}
		}
	}
	if eps && cp != nil && len(cp.path) == 0 {
		sm.epCapt = append(sm.epCapt, t)
	}
}

// isDoubleStep reports whether a move by vec under atom a is an initial
// advance that en passant answers: a move-only initial step of a piece that
// itself captures en passant, two or more squares along a straight line
// (exactly two where the variant says so). The squares passed over become
// en-passant targets.
func (v *Variant) isDoubleStep(a Atom, vec Vector, takesEP bool) bool {
	if !a.Initial || !a.MoveOnly || !takesEP {
		return false
	}
	dx, dy := abs(vec.DX), abs(vec.DY)
	n := max(dx, dy)
	if n < 2 || n > maxEPSquares+1 || (v.EnPassantDoubleStepOnly && n != 2) {
		return false
	}
	return dx == 0 || dy == 0 || dx == dy
}

// bestOption picks, among the ways to reach one square with the given mode
// (quiet or capture), the one with the shortest path: a plain leap beats a
// lame one, and a shorter path is blocked less often.
func bestOption(opts []leapOption, quiet bool) *leapOption {
	var best *leapOption
	for i := range opts {
		o := &opts[i]
		if (quiet && !o.quiet) || (!quiet && !o.capture) {
			continue
		}
		if best == nil || len(o.path) < len(best.path) {
			best = o
		}
	}
	return best
}

func samePath(a, b []Square) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// buildAttacks adds piece pc's capturing moves, reversed, to the attack
// tables of its colour.
func (v *Variant) buildAttacks(pc Piece, rayOf func(Vector) int) {
	at := &v.attacks[pc.Colour()]
	bit := uint64(1) << pc
	dirs := map[int]bool{}
	hopDirs, cannonDirs := map[int]bool{}, map[int]bool{}
	for s := 0; s < NumSquares; s++ {
		from := Square(s)
		if !v.onBoard.Has(from) {
			continue
		}
		sm := &v.moves[pc][s]
		for _, list := range [][]Square{sm.both, sm.capt} {
			for _, t := range list {
				at.leaps[t] = addLeapAttack(at.leaps[t], from, bit)
			}
		}
		for _, t := range sm.epCapt {
			at.epLeaps[t] = addLeapAttack(at.epLeaps[t], from, bit)
		}
		for _, l := range sm.lame {
			if l.capture {
				at.lame[l.to] = append(at.lame[l.to], lameAttack{from: from, path: l.path, pieces: bit, screen: l.screen, spares: l.spares})
			}
		}
		for _, r := range sm.rays {
			if r.capture {
				dirs[rayOf(reverse(v.rayVector(r, from)))] = true
			}
		}
		for _, r := range sm.hops {
			switch {
			case r.capture && r.cannon:
				cannonDirs[rayOf(reverse(v.rayVector(r, from)))] = true
			case r.capture:
				hopDirs[rayOf(reverse(v.rayVector(r, from)))] = true
			}
		}
	}
	at.rayDirs = addAttackDirs(at.rayDirs, dirs, bit)
	at.hopDirs = addAttackDirs(at.hopDirs, hopDirs, bit)
	at.cannonDirs = addAttackDirs(at.cannonDirs, cannonDirs, bit)
}

// rayVector recovers the step of a ray from its first square.
func (v *Variant) rayVector(r moveRay, from Square) Vector {
	t := r.squares[0]
	return Vector{t.File() - from.File(), t.Rank() - from.Rank()}
}

func reverse(vec Vector) Vector { return Vector{-vec.DX, -vec.DY} }

func addLeapAttack(list []leapAttack, from Square, bit uint64) []leapAttack {
	for i := range list {
		if list[i].from == from {
			list[i].pieces |= bit
			return list
		}
	}
	return append(list, leapAttack{from: from, pieces: bit})
}

// addAttackDirs merges a piece's directions into the colour's list, in ray
// index order so that the tables do not depend on map iteration.
func addAttackDirs(list []attackDir, dirs map[int]bool, bit uint64) []attackDir {
	for ray := 0; len(dirs) > 0; ray++ {
		if !dirs[ray] {
			continue
		}
		delete(dirs, ray)
		found := false
		for i := range list {
			if list[i].ray == ray {
				list[i].pieces |= bit
				found = true
			}
		}
		if !found {
			list = append(list, attackDir{ray: ray, pieces: bit})
		}
	}
	return list
}
