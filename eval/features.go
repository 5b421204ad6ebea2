package eval

import (
	"fmt"
	"math/bits"

	"github.com/chimera-chess/chimera/engine"
)

// This file is the generic feature set of the tuned evaluation, computed
// from the variant's definition so that it applies to any board, piece set
// and rule family. Every feature is a count, White's minus Black's, and
// has two weights, a middlegame and an endgame one, tapered by the phase
// (the non-pawn material left). The features:
//
//   - tempo: the side to move;
//   - material X, hand X: pieces of type X on the board and in hand;
//   - rank X r, file X f: pieces of type X on their side's r-th rank, and
//     f files from the nearer edge (a piece-square table in two parts, any
//     board size, mirrored for the colours);
//   - pair X: two or more pieces of type X (the bishop pair, generalised);
//   - mobility X: the squares pieces of type X can move to;
//   - attack X: squares around the enemy royal piece that pieces of type X
//     attack; attackers, attackers2: how many pieces attack them, and its
//     square (the danger grows faster than the count); defenders: own
//     pieces around the own royal piece; shelter: own pawns just in front
//     of it;
//   - check X: the moves of pieces of type X that would give check
//     (engine.CheckZones; whether the check is safe is not asked);
//   - threat X: enemy pieces of type X attacked by a piece worth less
//     (the documents' values); hanging X: enemy pieces of type X attacked
//     and not defended (and not already a threat); threats tomove: the
//     side to move's threats and hanging pieces together, which it may
//     take at once (the side not to move may only defend). Attacks are
//     those PieceActivity counts for the zone (hoppers, cannons, one-mode
//     rides and special moves left out); royal pieces attack and defend,
//     except where captures explode (they cannot capture);
//   - open X, halfopen X: pieces of type X on a file without pawns, or
//     without own pawns but with enemy ones;
//   - pawns (pieces that promote): passed r (no enemy pawn ahead on its
//     file or the next, r ranks from its side), doubled, isolated,
//     connected (an own pawn beside it or guarding it), blocked (the square
//     ahead occupied); passed own, passed enemy: the distance in king
//     steps from the own and the enemy royal piece to the square ahead of
//     a passed pawn.

// Layout is a variant's feature set: every feature's name and index, and
// what computing them needs, derived once per variant.
type Layout struct {
	v     *engine.Variant
	names []string
	// first index of each per-type group, by type index (0 unused), -1
	// where a type has none (royal pieces have no material).
	material, hand, rank, file, pair, mobility, attack, check [engine.MaxPieceTypes + 1]int
	open, halfOpen, threat, hanging                           [engine.MaxPieceTypes + 1]int
	tempo, attackers, attackers2, defenders, shelter          int
	threatsToMove                                             int
	// lesser[t]: the types worth less than type t, a bit per type (royal
	// ones never); everyType: all that attack and defend.
	lesser                                        [engine.MaxPieceTypes + 1]uint32
	everyType                                     uint32
	passed, doubled, isolated, connected, blocked int
	passedOwn, passedEnemy                        int
	// relRank[c][s] is square s's rank counted from colour c's side;
	// fileBucket[s] its distance in files from the nearer edge.
	relRank    [2][engine.NumSquares]int8
	fileBucket [engine.NumSquares]int8
	files      int // file buckets: (width+1)/2
	pawn       [64]bool
	royal      [64]bool
	// phaseValue[pc] is a piece's share of the phase: its value when it is
	// neither royal nor a pawn; phaseFull is the start position's total.
	phaseValue [64]int
	phaseFull  int
}

// NewLayout returns the feature set of a variant.
func NewLayout(v *engine.Variant) *Layout {
	l := &Layout{v: v, files: (v.Width + 1) / 2}
	add := func(format string, args ...any) int {
		l.names = append(l.names, fmt.Sprintf(format, args...))
		return len(l.names) - 1
	}
	values := Values(v)
	l.tempo = add("tempo")
	for t := range l.material {
		l.material[t], l.hand[t], l.rank[t], l.file[t], l.pair[t], l.mobility[t], l.attack[t], l.check[t] = -1, -1, -1, -1, -1, -1, -1, -1
		l.open[t], l.halfOpen[t], l.threat[t], l.hanging[t] = -1, -1, -1, -1
	}
	for i, pt := range v.Pieces {
		t, x := i+1, string(pt.Letter)
		for _, c := range []engine.Colour{engine.White, engine.Black} {
			pc := engine.MakePiece(t, c)
			l.pawn[pc] = pt.Role == engine.RolePawn
			l.royal[pc] = pt.Royal
			if !pt.Royal && pt.Role != engine.RolePawn {
				l.phaseValue[pc] = values[i]
			}
		}
		if !pt.Royal {
			l.material[t] = add("material %s", x)
			if v.HasHands() {
				l.hand[t] = add("hand %s", x)
			}
			if pt.Role != engine.RolePawn {
				l.pair[t] = add("pair %s", x)
				l.open[t] = add("open %s", x)
				l.halfOpen[t] = add("halfopen %s", x)
			}
		}
		l.rank[t] = add("rank %s 0", x)
		for r := 1; r < v.Height; r++ {
			add("rank %s %d", x, r)
		}
		l.file[t] = add("file %s 0", x)
		for f := 1; f < l.files; f++ {
			add("file %s %d", x, f)
		}
		l.mobility[t] = add("mobility %s", x)
		l.attack[t] = add("attack %s", x)
		if !pt.Royal {
			l.check[t] = add("check %s", x)
			l.threat[t] = add("threat %s", x)
			l.hanging[t] = add("hanging %s", x)
		}
		if !pt.Royal || !v.BlastOnCapture {
			l.everyType |= 1 << t
		}
		for j, other := range v.Pieces {
			if !other.Royal && values[j] < values[i] {
				l.lesser[t] |= 1 << (j + 1)
			}
		}
	}
	l.threatsToMove = add("threats tomove")
	l.attackers = add("attackers")
	l.attackers2 = add("attackers2")
	l.defenders = add("defenders")
	l.shelter = add("shelter")
	l.passed = add("passed 0")
	for r := 1; r < v.Height; r++ {
		add("passed %d", r)
	}
	l.doubled = add("doubled")
	l.isolated = add("isolated")
	l.connected = add("connected")
	l.blocked = add("blocked")
	l.passedOwn = add("passed own")
	l.passedEnemy = add("passed enemy")
	for f := 0; f < v.Width; f++ {
		for r := 0; r < v.Height; r++ {
			s := engine.SquareAt(f, r)
			l.relRank[engine.White][s], l.relRank[engine.Black][s] = int8(r), int8(v.Height-1-r)
			l.fileBucket[s] = int8(min(f, v.Width-1-f))
		}
	}
	start := v.StartPosition()
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range start.Pieces(c) {
			l.phaseFull += l.phaseValue[start.At(s)]
		}
		for t := 1; t <= len(v.Pieces); t++ {
			l.phaseFull += start.InHand(c, t) * l.phaseValue[engine.MakePiece(t, c)]
		}
	}
	return l
}

// Names returns every feature's name, by index.
func (l *Layout) Names() []string { return append([]string(nil), l.names...) }

// Len returns the number of features.
func (l *Layout) Len() int { return len(l.names) }

// Variant returns the variant the layout is for.
func (l *Layout) Variant() *engine.Variant { return l.v }

// phaseScale is the phase's fixed-point unit: 256 at full material.
const phaseScale = 256

// Trace is one position's features as the tuner reads them: each
// feature's count (White's minus Black's) by index, the phase and the
// side to move. It is filled by Tuned.Trace.
type Trace struct {
	Counts []int32 // by feature index
	Phase  int     // 0 (bare) … 256 (full material)
	White  bool    // White to move
}

// features is where the extraction puts the features: the weighted sums
// and, for the tuner, each feature's count. One concrete type with a
// branch on trace, not a type parameter: Go calls a type parameter's
// methods through a dictionary, and the evaluation's hottest calls must
// inline.
type features struct {
	mg, eg int
	w      *Weights
	psq    []sums  // material and piece-square weights, by piece code · NumSquares + square
	trace  []int32 // counts by feature; nil when only evaluating
	// checks says to count the check features: when tracing, or when some
	// check weight is not zero (weights made before them have none, and
	// finding the checks adds a quarter to two fifths to the evaluation's
	// time).
	checks bool
	// threats says to count the threat features (when tracing, or when
	// some threat weight is not zero): they need both sides' attack maps.
	threats bool
}

// sums are a middlegame and an endgame weight.
type sums struct{ mg, eg int }

// add counts v of feature i for White (v < 0: for Black).
func (f *features) add(i, v int) {
	f.mg += int(f.w.mg[i]) * v
	f.eg += int(f.w.eg[i]) * v
	if f.trace != nil {
		f.trace[i] += int32(v)
	}
}

// piece counts a piece's material and piece-square features: pc of colour
// c on s, for White (sign 1) or Black (−1). Evaluating, the three weights
// come added up from one table.
func (f *features) piece(l *Layout, pc engine.Piece, c engine.Colour, s engine.Square, sign int) {
	if f.trace == nil {
		w := f.psq[int(pc)*engine.NumSquares+int(s)]
		f.mg += sign * w.mg
		f.eg += sign * w.eg
		return
	}
	t := pc.Type()
	if i := l.material[t]; i >= 0 {
		f.add(i, sign)
	}
	f.add(l.rank[t]+int(l.relRank[c][s]), sign)
	f.add(l.file[t]+int(l.fileBucket[s]), sign)
}

// weighsChecks reports whether any check feature has a weight.
func (l *Layout) weighsChecks(w *Weights) bool { return weighsAny(w, l.check[:]) }

// weighsThreats reports whether any threat feature has a weight.
func (l *Layout) weighsThreats(w *Weights) bool {
	return weighsAny(w, l.threat[:]) || weighsAny(w, l.hanging[:]) || weighsAny(w, []int{l.threatsToMove})
}

// weighsAny reports whether any of the features (−1: none) has a weight.
func weighsAny(w *Weights, features []int) bool {
	for _, i := range features {
		if i >= 0 {
			if mg, eg := w.Get(i); mg != 0 || eg != 0 {
				return true
			}
		}
	}
	return false
}

// pieceSquares adds up each piece's material and piece-square weights on
// each square, for the evaluation's features.piece.
func (l *Layout) pieceSquares(w *Weights) []sums {
	psq := make([]sums, 64*engine.NumSquares)
	f := &features{w: w, trace: make([]int32, l.Len())}
	for t := 1; t <= len(l.v.Pieces); t++ {
		for c := engine.White; c <= engine.Black; c++ {
			pc := engine.MakePiece(t, c)
			for file := 0; file < l.v.Width; file++ {
				for r := 0; r < l.v.Height; r++ {
					s := engine.SquareAt(file, r)
					f.mg, f.eg = 0, 0
					f.piece(l, pc, c, s, 1)
					psq[int(pc)*engine.NumSquares+int(s)] = sums{f.mg, f.eg}
				}
			}
		}
	}
	return psq
}

// extract computes every feature of p into f and returns the phase.
func extract(l *Layout, p *engine.Position, f *features) int {
	v := l.v
	phase := 0
	// Each side's royal squares; a few on the stack, any number beyond.
	var royalBuf [2][4]engine.Square
	royalSquares := [2][]engine.Square{royalBuf[0][:0], royalBuf[1][:0]}
	var zones [2]engine.Zone // around each side's royal pieces
	var typeCount [2][engine.MaxPieceTypes + 1]int
	var pawns pawnMap
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			if l.royal[pc] {
				royalSquares[c] = append(royalSquares[c], s)
				z := p.RoyalZone(s)
				zones[c].Merge(&z)
			}
			if l.pawn[pc] {
				pawns[c][s.File()+1] |= 1 << s.Rank()
			}
			typeCount[c][pc.Type()]++
			phase += l.phaseValue[pc]
		}
		if v.HasHands() {
			for t := 1; t <= len(v.Pieces); t++ {
				if n := p.InHand(c, t); n > 0 && l.hand[t] >= 0 { // a royal piece in hand has no weight
					sign := 1 - 2*int(c)
					f.add(l.hand[t], sign*n)
					phase += n * l.phaseValue[engine.MakePiece(t, c)]
				}
			}
		}
	}
	// Where each of c's piece types gives check; nil when the check
	// features are not counted, which PieceActivity then skips.
	var checks *engine.TypeZones
	if f.checks {
		checks = new(engine.TypeZones)
	}
	// Where each side attacks, for the threats; nil when not counted.
	var attackMaps *[2]engine.AttackMap
	if f.threats {
		attackMaps = new([2]engine.AttackMap)
	}
	for c := engine.White; c <= engine.Black; c++ {
		sign := 1 - 2*int(c)
		them := c.Other()
		attackers := 0
		if checks != nil {
			p.CheckZones(royalSquares[them], c, checks)
		}
		var attackMap *engine.AttackMap
		if attackMaps != nil {
			attackMap = &attackMaps[c]
		}
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			t := pc.Type()
			f.piece(l, pc, c, s, sign)
			if i := l.open[t]; i >= 0 {
				switch file := s.File() + 1; {
				case pawns[c][file] != 0:
				case pawns[them][file] == 0:
					f.add(i, sign)
				default:
					f.add(l.halfOpen[t], sign)
				}
			}
			moves, hits, checking := p.PieceActivity(s, &zones[them], checks, attackMap)
			f.add(l.mobility[t], sign*moves)
			if checking > 0 && l.check[t] >= 0 {
				f.add(l.check[t], sign*checking)
			}
			if hits > 0 && len(royalSquares[them]) > 0 {
				f.add(l.attack[t], sign*hits)
				attackers++
			}
			if len(royalSquares[c]) > 0 && !l.royal[pc] && zones[c].Has(s) {
				f.add(l.defenders, sign)
			}
			if l.pawn[pc] {
				pawnTerms(l, p, f, c, s, &pawns)
			}
		}
		if len(royalSquares[them]) > 0 {
			f.add(l.attackers, sign*attackers)
			f.add(l.attackers2, sign*attackers*attackers)
		}
		if len(royalSquares[c]) > 0 {
			f.add(l.shelter, sign*l.shelterOf(p, c, &pawns))
		}
		for t := 1; t <= len(v.Pieces); t++ {
			if typeCount[c][t] >= 2 && l.pair[t] >= 0 {
				f.add(l.pair[t], sign)
			}
		}
	}
	if attackMaps != nil {
		l.threats(p, f, attackMaps)
	}
	if p.SideToMove() == engine.White {
		f.add(l.tempo, 1)
	} else {
		f.add(l.tempo, -1)
	}
	if l.phaseFull <= 0 {
		return phaseScale
	}
	return min(phase*phaseScale/l.phaseFull, phaseScale)
}

// threats adds the threat features from both sides' attack maps.
func (l *Layout) threats(p *engine.Position, f *features, maps *[2]engine.AttackMap) {
	for c := engine.White; c <= engine.Black; c++ {
		sign := 1 - 2*int(c)
		them := c.Other()
		n := 0
		for _, s := range p.Pieces(them) {
			t := p.At(s).Type()
			switch {
			case l.threat[t] < 0: // a royal piece: its attacks are checks
			case p.AttackedIn(&maps[c], s, l.lesser[t]):
				f.add(l.threat[t], sign)
				n++
			case p.AttackedIn(&maps[c], s, l.everyType) && !p.AttackedIn(&maps[them], s, l.everyType):
				f.add(l.hanging[t], sign)
				n++
			}
		}
		if c == p.SideToMove() {
			f.add(l.threatsToMove, sign*n)
		}
	}
}

// pawnMap is each side's pawns as a mask of ranks per file, the files
// shifted by one so that the ones beyond the edges are there, empty.
type pawnMap [2][engine.MaxSize + 2]uint16

// pawnTerms adds the structure terms of colour c's pawn on s.
func pawnTerms(l *Layout, p *engine.Position, f *features, c engine.Colour, s engine.Square, pawns *pawnMap) {
	sign := 1 - 2*int(c)
	file, rank := s.File()+1, s.Rank() // file in pawnMap's numbering
	fwd := 1 - 2*int(c)                // ranks grow toward Black for White's pawns
	own := &pawns[c]
	if own[file]&(own[file]-1) != 0 {
		f.add(l.doubled, sign)
	}
	beside := own[file-1] | own[file+1]
	if beside == 0 {
		f.add(l.isolated, sign)
	}
	ahead := rank + fwd
	if ahead >= 0 && ahead < l.v.Height && p.At(engine.SquareAt(file-1, ahead)) != engine.NoPiece {
		f.add(l.blocked, sign)
	}
	behind := rank - fwd
	if beside>>rank&1 != 0 || (behind >= 0 && behind < l.v.Height && beside>>behind&1 != 0) {
		f.add(l.connected, sign)
	}
	// Passed: no enemy pawn ahead on its file or the next ones.
	them := &pawns[c.Other()]
	var aheadMask uint16
	if c == engine.White {
		aheadMask = ^uint16(0) << (rank + 1)
	} else {
		aheadMask = 1<<rank - 1
	}
	if (them[file-1]|them[file]|them[file+1])&aheadMask != 0 {
		return
	}
	f.add(l.passed+int(l.relRank[c][s]), sign)
	if ahead < 0 || ahead >= l.v.Height {
		return
	}
	stop := engine.SquareAt(file-1, ahead)
	if d, ok := l.royalDistance(p, c, stop); ok {
		f.add(l.passedOwn, sign*d)
	}
	if d, ok := l.royalDistance(p, c.Other(), stop); ok {
		f.add(l.passedEnemy, sign*d)
	}
}

// royalDistance returns the king steps from colour c's nearest royal
// piece to s, false when c has none.
func (l *Layout) royalDistance(p *engine.Position, c engine.Colour, s engine.Square) (int, bool) {
	best := -1
	for _, k := range p.Pieces(c) {
		if l.royal[p.At(k)] {
			if d := distance(k, s); best < 0 || d < best {
				best = d
			}
		}
	}
	return best, best >= 0
}

// distance is the number of king steps between two squares.
func distance(a, b engine.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

// shelterOf counts colour c's pawns on the three files around each of its
// royal pieces, one or two ranks in front of it.
func (l *Layout) shelterOf(p *engine.Position, c engine.Colour, pawns *pawnMap) int {
	fwd := 1 - 2*int(c)
	n := 0
	for _, k := range p.Pieces(c) {
		if !l.royal[p.At(k)] {
			continue
		}
		var front uint16
		for dr := 1; dr <= 2; dr++ {
			if r := k.Rank() + dr*fwd; r >= 0 && r < l.v.Height {
				front |= 1 << r
			}
		}
		file := k.File() + 1
		n += bits.OnesCount16(pawns[c][file-1]&front) + bits.OnesCount16(pawns[c][file]&front) + bits.OnesCount16(pawns[c][file+1]&front)
	}
	return n
}

func abs(x int) int { return max(x, -x) }
