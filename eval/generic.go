package eval

import (
	"fmt"
	"math"
	"sort"

	"github.com/chimera-chess/chimera/engine"
)

// This file is the generic weight set: one set of weights learned across
// variants (chimera tune --generic), loaded by EvalFile for the variants
// that have none of their own. Its features are the generic features of features.go with
// the piece letters and the board's size taken out: a piece counts by its
// class (pawn, minor, major or royal; minor below four pawns by the
// documents' values), a rank or file by its share of the board (eight rank
// buckets, four file buckets), material by the documents' value of the
// piece (the generic weight is a percentage of it). A variant's feature is
// a sum of generic ones (its projection); the generic weights, projected
// back, are that variant's weights.

// GenericName is the variant line's name in a generic weights file.
const GenericName = "generic"

// Generic buckets: the relative ranks and the distances from the edge
// that a rank or file of any board falls into.
const (
	genericRanks = 8
	genericFiles = 4
)

// pieceClasses names the generic classes of pieces.
var pieceClasses = [...]string{"pawn", "minor", "major", "royal"}

const (
	classPawn = iota
	classMinor
	classMajor
	classRoyal
)

// minorLimit is the documents' value from which a piece is major.
const minorLimit = 400

// genericNames lists the generic features, in the file's order.
func genericNames() []string {
	names := []string{"tempo", "material pawn", "material piece", "hand pawn", "hand piece"}
	for _, c := range pieceClasses {
		for r := range genericRanks {
			names = append(names, fmt.Sprintf("rank %s %d", c, r))
		}
		for f := range genericFiles {
			names = append(names, fmt.Sprintf("file %s %d", c, f))
		}
		names = append(names, "mobility "+c, "attack "+c)
		if c != "royal" {
			names = append(names, "check "+c, "threat "+c, "hanging "+c)
		}
		if c == "minor" || c == "major" {
			names = append(names, "pair "+c, "open "+c, "halfopen "+c)
		}
	}
	names = append(names, "threats tomove", "attackers", "attackers2", "defenders", "shelter")
	for r := range genericRanks {
		names = append(names, fmt.Sprintf("passed %d", r))
	}
	return append(names, "doubled", "isolated", "connected", "blocked", "passed own", "passed enemy")
}

// GenericLayout returns the generic feature set. It belongs to no variant:
// its weights are projected onto a variant's features (GenericFor), never
// evaluated directly.
func GenericLayout() *Layout { return &Layout{names: genericNames()} }

// IsGeneric reports whether a layout is the generic feature set.
func (l *Layout) IsGeneric() bool { return l.v == nil }

// A GenericTerm is one generic feature's share of a variant's feature.
type GenericTerm struct {
	Index int     // the generic feature
	Coef  float64 // its coefficient
}

// Projection maps a variant's features onto the generic ones.
type Projection struct {
	terms [][]GenericTerm // by the variant's feature index
	n     int             // generic features
}

// NewProjection returns the projection of a variant's feature set onto
// the generic one.
func NewProjection(l *Layout) *Projection {
	g := GenericLayout()
	index := map[string]int{}
	for i, name := range g.names {
		index[name] = i
	}
	at := func(format string, args ...any) int {
		i, ok := index[fmt.Sprintf(format, args...)]
		if !ok {
			panic(fmt.Sprintf("eval: no generic feature %q", fmt.Sprintf(format, args...)))
		}
		return i
	}
	pr := &Projection{terms: make([][]GenericTerm, l.Len()), n: g.Len()}
	set := func(i, j int, coef float64) {
		if i >= 0 {
			pr.terms[i] = []GenericTerm{{j, coef}}
		}
	}
	v := l.v
	values := Values(v)
	bucket := func(x, last, buckets int) int { // x of 0…last into 0…buckets-1
		if last <= 0 {
			return 0
		}
		return int(math.Round(float64(x) * float64(buckets-1) / float64(last)))
	}
	set(l.tempo, at("tempo"), 1)
	for i, pt := range v.Pieces {
		t := i + 1
		class := classMajor
		switch {
		case pt.Royal:
			class = classRoyal
		case pt.Role == engine.RolePawn:
			class = classPawn
		case values[i] < minorLimit:
			class = classMinor
		}
		c := pieceClasses[class]
		kind := "piece"
		if class == classPawn {
			kind = "pawn"
		}
		share := float64(values[i]) / 100
		set(l.material[t], at("material %s", kind), share)
		set(l.hand[t], at("hand %s", kind), share)
		for r := range v.Height {
			set(l.rank[t]+r, at("rank %s %d", c, bucket(r, v.Height-1, genericRanks)), 1)
		}
		for f := range l.files {
			set(l.file[t]+f, at("file %s %d", c, bucket(f, l.files-1, genericFiles)), 1)
		}
		set(l.mobility[t], at("mobility %s", c), 1)
		set(l.attack[t], at("attack %s", c), 1)
		if class != classRoyal {
			set(l.check[t], at("check %s", c), 1)
			set(l.threat[t], at("threat %s", c), 1)
			set(l.hanging[t], at("hanging %s", c), 1)
		}
		if class == classMinor || class == classMajor {
			set(l.pair[t], at("pair %s", c), 1)
			set(l.open[t], at("open %s", c), 1)
			set(l.halfOpen[t], at("halfopen %s", c), 1)
		}
	}
	for _, name := range []string{"threats tomove", "attackers", "attackers2", "defenders", "shelter", "doubled", "isolated", "connected", "blocked", "passed own", "passed enemy"} {
		set(l.index(name), at("%s", name), 1)
	}
	for r := range v.Height {
		set(l.passed+r, at("passed %d", bucket(r, v.Height-1, genericRanks)), 1)
	}
	return pr
}

// index returns a named feature's index, -1 if there is none.
func (l *Layout) index(name string) int {
	for i, n := range l.names {
		if n == name {
			return i
		}
	}
	return -1
}

// Project turns a variant's feature counts into generic ones: the sparse
// indices and counts of the generic features that are not zero.
func (pr *Projection) Project(index []uint16, count []float32) ([]uint16, []float32) {
	sum := map[int]float64{}
	for k, i := range index {
		for _, t := range pr.terms[i] {
			sum[t.Index] += t.Coef * float64(count[k])
		}
	}
	idx := make([]int, 0, len(sum))
	for j, c := range sum {
		if c != 0 {
			idx = append(idx, j)
		}
	}
	sort.Ints(idx)
	outIndex, outCount := make([]uint16, len(idx)), make([]float32, len(idx))
	for k, j := range idx {
		outIndex[k], outCount[k] = uint16(j), float32(sum[j])
	}
	return outIndex, outCount
}

// GenericFor returns a variant's weights from generic ones: each feature
// weighs the sum of its generic terms.
func GenericFor(g *Weights, v *engine.Variant) *Weights {
	l := NewLayout(v)
	pr := NewProjection(l)
	w := NewWeights(l)
	for i, terms := range pr.terms {
		mg, eg := 0.0, 0.0
		for _, t := range terms {
			gm, ge := g.Get(t.Index)
			mg += t.Coef * float64(gm)
			eg += t.Coef * float64(ge)
		}
		w.Set(i, int(math.Round(mg)), int(math.Round(eg)))
	}
	w.Scale = g.Scale
	w.Comments = []string{"the generic weights, projected onto " + v.Name}
	return w
}

// DocumentsGeneric returns the generic weights of the documents' formula:
// material at its value, ten centipawns a move.
func DocumentsGeneric() *Weights {
	l := GenericLayout()
	w := NewWeights(l)
	for _, name := range []string{"material pawn", "material piece", "hand pawn", "hand piece"} {
		w.Set(l.index(name), 100, 100)
	}
	for _, c := range pieceClasses {
		w.Set(l.index("mobility "+c), MobilityWeight, MobilityWeight)
	}
	return w
}

// name names the layout's variant, or the generic set.
func (l *Layout) name() string {
	if l.IsGeneric() {
		return GenericName
	}
	return l.v.Name
}
