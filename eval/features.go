package eval

import (
	"fmt"

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
//   - pawns (pieces that promote): passed r (no enemy pawn ahead on its
//     file or the next, r ranks from its side), doubled, isolated,
//     connected (an own pawn beside it or guarding it), blocked (the square
//     ahead occupied).

// Layout is a variant's feature set: every feature's name and index, and
// what computing them needs, derived once per variant.
type Layout struct {
	v     *engine.Variant
	names []string
	// first index of each per-type group, by type index (0 unused), -1
	// where a type has none (royal pieces have no material).
	material, hand, rank, file, pair, mobility, attack [engine.MaxPieceTypes + 1]int
	tempo, attackers, attackers2, defenders, shelter   int
	passed, doubled, isolated, connected, blocked      int
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
		l.material[t], l.hand[t], l.rank[t], l.file[t], l.pair[t], l.mobility[t], l.attack[t] = -1, -1, -1, -1, -1, -1, -1
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
	}
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

// sink is where the extraction puts the features: the evaluation's
// weighted sums (evalSink), or the tuner's counts besides (traceSink). A
// type parameter, not an interface value: each sink gets an extraction of
// its own, compiled with the sink's methods inlined.
type sink interface {
	// add counts v of feature i for White (v < 0: for Black).
	add(i, v int)
	// piece counts a piece's material and piece-square features: pc of
	// colour c on s, for White (sign 1) or Black (−1).
	piece(l *Layout, pc engine.Piece, c engine.Colour, s engine.Square, sign int)
}

// sums are the weighted sums of the features, middlegame and endgame.
type sums struct{ mg, eg int }

// evalSink adds the features' weights; a piece's material and
// piece-square weights come added up in one table (psq).
type evalSink struct {
	s   *sums
	w   *Weights
	psq []sums // by piece code · NumSquares + square
}

func (f evalSink) add(i, v int) {
	f.s.mg += int(f.w.mg[i]) * v
	f.s.eg += int(f.w.eg[i]) * v
}

func (f evalSink) piece(_ *Layout, pc engine.Piece, _ engine.Colour, s engine.Square, sign int) {
	w := f.psq[int(pc)*engine.NumSquares+int(s)]
	f.s.mg += sign * w.mg
	f.s.eg += sign * w.eg
}

// traceSink adds the weights and counts every feature.
type traceSink struct {
	evalSink
	counts []int32
}

func (f traceSink) add(i, v int) {
	f.evalSink.add(i, v)
	f.counts[i] += int32(v)
}

func (f traceSink) piece(l *Layout, pc engine.Piece, c engine.Colour, s engine.Square, sign int) {
	t := pc.Type()
	if i := l.material[t]; i >= 0 {
		f.add(i, sign)
	}
	f.add(l.rank[t]+int(l.relRank[c][s]), sign)
	f.add(l.file[t]+int(l.fileBucket[s]), sign)
}

// pieceSquares adds up each piece's material and piece-square weights on
// each square, for evalSink.
func (l *Layout) pieceSquares(w *Weights) []sums {
	psq := make([]sums, 64*engine.NumSquares)
	trace := traceSink{evalSink: evalSink{s: &sums{}, w: w}, counts: make([]int32, l.Len())}
	for t := 1; t <= len(l.v.Pieces); t++ {
		for c := engine.White; c <= engine.Black; c++ {
			pc := engine.MakePiece(t, c)
			for f := 0; f < l.v.Width; f++ {
				for r := 0; r < l.v.Height; r++ {
					s := engine.SquareAt(f, r)
					*trace.s = sums{}
					trace.piece(l, pc, c, s, 1)
					psq[int(pc)*engine.NumSquares+int(s)] = *trace.s
				}
			}
		}
	}
	return psq
}

// extract computes every feature of p into f and returns the phase.
func extract[S sink](l *Layout, p *engine.Position, f S) int {
	v := l.v
	phase := 0
	var royals [2]int
	var zones [2]engine.Zone // around each side's royal pieces
	var typeCount [2][engine.MaxPieceTypes + 1]int
	// Pawns by file, for the structure terms: counts, and the most
	// advanced (from each side's view) and least advanced ranks.
	var pawnsOnFile [2][engine.MaxSize]int8
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			if l.royal[pc] {
				royals[c]++
				z := p.RoyalZone(s)
				zones[c].Merge(&z)
			}
			if l.pawn[pc] {
				pawnsOnFile[c][s.File()]++
			}
			typeCount[c][pc.Type()]++
			phase += l.phaseValue[pc]
		}
		if v.HasHands() {
			for t := 1; t <= len(v.Pieces); t++ {
				if n := p.InHand(c, t); n > 0 {
					sign := 1 - 2*int(c)
					f.add(l.hand[t], sign*n)
					phase += n * l.phaseValue[engine.MakePiece(t, c)]
				}
			}
		}
	}
	for c := engine.White; c <= engine.Black; c++ {
		sign := 1 - 2*int(c)
		them := c.Other()
		attackers := 0
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			t := pc.Type()
			f.piece(l, pc, c, s, sign)
			moves, hits := p.PieceActivity(s, &zones[them])
			f.add(l.mobility[t], sign*moves)
			if hits > 0 && royals[them] > 0 {
				f.add(l.attack[t], sign*hits)
				attackers++
			}
			if royals[c] > 0 && !l.royal[pc] && zones[c].Has(s) {
				f.add(l.defenders, sign)
			}
			if l.pawn[pc] {
				pawnTerms(l, p, f, c, s, &pawnsOnFile)
			}
		}
		if royals[them] > 0 {
			f.add(l.attackers, sign*attackers)
			f.add(l.attackers2, sign*attackers*attackers)
		}
		if royals[c] > 0 {
			f.add(l.shelter, sign*l.shelterOf(p, c))
		}
		for t := 1; t <= len(v.Pieces); t++ {
			if typeCount[c][t] >= 2 && l.pair[t] >= 0 {
				f.add(l.pair[t], sign)
			}
		}
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

// pawnTerms adds the structure terms of colour c's pawn on s.
func pawnTerms[S sink](l *Layout, p *engine.Position, f S, c engine.Colour, s engine.Square, onFile *[2][engine.MaxSize]int8) {
	v := l.v
	sign := 1 - 2*int(c)
	file, rank := s.File(), s.Rank()
	fwd := 1 - 2*int(c) // ranks grow toward Black for White's pawns
	if onFile[c][file] > 1 {
		f.add(l.doubled, sign)
	}
	neighbours := 0
	for _, df := range []int{-1, 1} {
		if nf := file + df; nf >= 0 && nf < v.Width {
			neighbours += int(onFile[c][nf])
		}
	}
	if neighbours == 0 {
		f.add(l.isolated, sign)
	}
	ahead := rank + fwd
	if ahead >= 0 && ahead < v.Height && p.At(engine.SquareAt(file, ahead)) != engine.NoPiece {
		f.add(l.blocked, sign)
	}
	if l.pawnBeside(p, c, file, rank) || l.pawnBeside(p, c, file, rank-fwd) {
		f.add(l.connected, sign)
	}
	// Passed: no enemy pawn ahead on its file or the next ones.
	them := c.Other()
	for df := -1; df <= 1; df++ {
		nf := file + df
		if nf < 0 || nf >= v.Width || onFile[them][nf] == 0 {
			continue
		}
		for r := ahead; r >= 0 && r < v.Height; r += fwd {
			if q := p.At(engine.SquareAt(nf, r)); q != engine.NoPiece && q.Colour() == them && l.pawn[q] {
				return
			}
		}
	}
	f.add(l.passed+int(l.relRank[c][s]), sign)
}

// pawnBeside reports whether colour c has a pawn on rank, a file beside.
func (l *Layout) pawnBeside(p *engine.Position, c engine.Colour, file, rank int) bool {
	if rank < 0 || rank >= l.v.Height {
		return false
	}
	for _, df := range []int{-1, 1} {
		if nf := file + df; nf >= 0 && nf < l.v.Width {
			if q := p.At(engine.SquareAt(nf, rank)); q != engine.NoPiece && q.Colour() == c && l.pawn[q] {
				return true
			}
		}
	}
	return false
}

// shelterOf counts colour c's pawns on the three files around each of its
// royal pieces, one or two ranks in front of it.
func (l *Layout) shelterOf(p *engine.Position, c engine.Colour) int {
	n := 0
	for _, k := range p.Pieces(c) {
		if l.royal[p.At(k)] {
			n += l.shelterAround(p, c, k)
		}
	}
	return n
}

// shelterAround counts colour c's pawns on the three files around k, one
// or two ranks in front of it.
func (l *Layout) shelterAround(p *engine.Position, c engine.Colour, k engine.Square) int {
	v := l.v
	fwd := 1 - 2*int(c)
	n := 0
	for df := -1; df <= 1; df++ {
		file := k.File() + df
		if file < 0 || file >= v.Width {
			continue
		}
		for dr := 1; dr <= 2; dr++ {
			r := k.Rank() + dr*fwd
			if r < 0 || r >= v.Height {
				continue
			}
			if q := p.At(engine.SquareAt(file, r)); q != engine.NoPiece && q.Colour() == c && l.pawn[q] {
				n++
			}
		}
	}
	return n
}
