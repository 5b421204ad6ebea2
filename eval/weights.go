package eval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/smallfile"
)

// A weights file is text, one item a line; blank lines and lines starting
// with # are comments (chimera tune writes how the weights were made
// there):
//
//	chimera-weights 1
//	variant chess 8x8 PNBRQK
//	scale 1.13
//	tempo 14 9
//	material P 82 104
//	rank N 3 12 4
//	…
//
// The first line names the format, the second the variant, its board and
// its pieces' letters, which must be the variant's; "scale" is the fitted
// scale of the tuner's win-probability curve (informative). Every other
// line is a feature's name (see features.go) and its middlegame and
// endgame weights in centipawns. A feature not listed weighs nothing; an
// unknown or repeated one is an error.

// weightsFormat is the format line of a weights file.
const weightsFormat = "chimera-weights 1"

// maxWeightsBytes bounds a weights file: a real one is a few kilobytes.
const maxWeightsBytes = 1 << 20

// maxWeight bounds a weight's magnitude, in centipawns (a queen is about
// a thousand; the evaluation is bounded by MaxScore besides).
const maxWeight = 10000

// maxErrors bounds the problems a weights error lists.
const maxErrors = 5

// Weights are a variant's feature weights, bound to its feature set.
type Weights struct {
	layout *Layout
	mg, eg []int32 // by feature index
	// Scale is the tuner's fitted scale of sigmoid(Scale·eval/400).
	Scale float64
	// Comments are the file's comment lines, without the "# ".
	Comments []string
}

// NewWeights returns zero weights for a variant's feature set.
func NewWeights(l *Layout) *Weights {
	return &Weights{layout: l, mg: make([]int32, l.Len()), eg: make([]int32, l.Len()), Scale: 1}
}

// Layout returns the feature set the weights are for.
func (w *Weights) Layout() *Layout { return w.layout }

// Get returns feature i's middlegame and endgame weights.
func (w *Weights) Get(i int) (mg, eg int) { return int(w.mg[i]), int(w.eg[i]) }

// Clone returns a copy of w that can be changed without changing w.
func (w *Weights) Clone() *Weights {
	c := *w
	c.mg, c.eg = slices.Clone(w.mg), slices.Clone(w.eg)
	c.Comments = slices.Clone(w.Comments)
	return &c
}

// Set sets feature i's weights.
func (w *Weights) Set(i, mg, eg int) {
	w.mg[i] = int32(max(-maxWeight, min(maxWeight, mg)))
	w.eg[i] = int32(max(-maxWeight, min(maxWeight, eg)))
}

// DocumentsWeights returns the weights that make the tuned evaluation the
// documents' formula as nearly as its features allow: the documents'
// material values and ten centipawns a move of mobility, every other
// feature zero. The tuner starts from them.
func DocumentsWeights(l *Layout) *Weights {
	w := NewWeights(l)
	values := Values(l.v)
	for i := range l.v.Pieces {
		t := i + 1
		if m := l.material[t]; m >= 0 {
			w.Set(m, values[i], values[i])
		}
		if h := l.hand[t]; h >= 0 {
			w.Set(h, values[i], values[i])
		}
		w.Set(l.mobility[t], MobilityWeight, MobilityWeight)
	}
	return w
}

// boardAndPieces is the variant line's description of a variant.
func boardAndPieces(v *engine.Variant) (string, string) {
	var letters strings.Builder
	for _, pt := range v.Pieces {
		letters.WriteByte(pt.Letter)
	}
	return fmt.Sprintf("%dx%d", v.Width, v.Height), letters.String()
}

// Write writes the weights in the file format.
func (w *Weights) Write(out io.Writer) error {
	b := bufio.NewWriter(out)
	for _, c := range w.Comments {
		fmt.Fprintf(b, "# %s\n", c)
	}
	board, pieces := boardAndPieces(w.layout.v)
	fmt.Fprintf(b, "%s\nvariant %s %s %s\nscale %s\n", weightsFormat, w.layout.v.Name, board, pieces, strconv.FormatFloat(w.Scale, 'f', 4, 64))
	for i, name := range w.layout.names {
		fmt.Fprintf(b, "%s %d %d\n", name, w.mg[i], w.eg[i])
	}
	return b.Flush()
}

// ReadWeightsFile reads a weights file, refusing one larger than a weights
// file can be without reading it all.
func ReadWeightsFile(path string) ([]byte, error) {
	return smallfile.Read(path, maxWeightsBytes, "a weights file")
}

// WeightsVariant returns the variant name a weights file is for, reading
// no further than its variant line.
func WeightsVariant(data []byte) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 0; sc.Scan(); {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if n++; n == 2 {
			if fields := strings.Fields(line); len(fields) == 4 && fields[0] == "variant" {
				return fields[1], nil
			}
			break
		}
	}
	return "", errors.New("weights: no variant line (want: variant NAME WIDTHxHEIGHT LETTERS)")
}

// ParseWeights reads a weights file for variant v. The error lists the
// first problems found, with their line numbers, and how many more.
func ParseWeights(v *engine.Variant, data []byte) (*Weights, error) {
	return parseWeightsAs(v, v.Name, data)
}

// parseWeightsAs is ParseWeights for a file whose variant line names v
// by name: v's own, or the variant v is an alias of (shipped weights).
func parseWeightsAs(v *engine.Variant, name string, data []byte) (*Weights, error) {
	board, pieces := boardAndPieces(v)
	return parseWeights(NewLayout(v), data, func(fields []string) string {
		switch {
		case len(fields) != 4 || fields[0] != "variant":
			return "want: variant NAME WIDTHxHEIGHT LETTERS"
		case fields[1] != name || fields[2] != board || fields[3] != pieces:
			return fmt.Sprintf("weights for %s %s %s, not for %s %s %s", fields[1], fields[2], fields[3], name, board, pieces)
		}
		return ""
	})
}

// parseWeights reads a weights file for a feature set; badVariant checks
// the variant line's fields and says what is wrong with them.
func parseWeights(l *Layout, data []byte, badVariant func(fields []string) string) (*Weights, error) {
	if len(data) > maxWeightsBytes {
		return nil, fmt.Errorf("weights: %d bytes, more than a weights file has (at most %d)", len(data), maxWeightsBytes)
	}
	index := map[string]int{}
	for i, name := range l.names {
		index[name] = i
	}
	w := NewWeights(l)
	var problems []string
	more := 0
	bad := func(line int, format string, args ...any) {
		if len(problems) < maxErrors {
			problems = append(problems, fmt.Sprintf("line %d: %s", line, fmt.Sprintf(format, args...)))
		} else {
			more++
		}
	}
	seen := map[string]bool{}
	items, features := 0, 0
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte-order mark some editors write
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxWeightsBytes)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if c, ok := strings.CutPrefix(line, "#"); ok {
			w.Comments = append(w.Comments, strings.TrimSpace(c))
			continue
		}
		if line == "" {
			continue
		}
		items++
		fields := strings.Fields(line)
		switch {
		case items == 1:
			if line != weightsFormat {
				bad(n, "%q is not a weights file's first line (want %q)", truncate(line), weightsFormat)
			}
		case items == 2:
			if problem := badVariant(fields); problem != "" {
				bad(n, "%s", problem)
			}
		case fields[0] == "scale":
			f, err := strconv.ParseFloat(fields[len(fields)-1], 64)
			switch {
			case len(fields) != 2 || err != nil || !(f > 0) || math.IsInf(f, 0):
				bad(n, "want: scale POSITIVE-NUMBER")
			case seen["scale"]:
				bad(n, "scale given twice")
			default:
				seen["scale"] = true
				w.Scale = f
			}
		default:
			if len(fields) < 3 {
				bad(n, "want: FEATURE MIDDLEGAME ENDGAME")
				continue
			}
			name := strings.Join(fields[:len(fields)-2], " ")
			i, known := index[name]
			mg, err1 := strconv.Atoi(fields[len(fields)-2])
			eg, err2 := strconv.Atoi(fields[len(fields)-1])
			switch {
			case !known:
				bad(n, "no feature %q in %s's feature set", truncate(name), l.v.Name)
			case seen[name]:
				bad(n, "feature %q given twice", name)
			case err1 != nil || err2 != nil || mg < -maxWeight || mg > maxWeight || eg < -maxWeight || eg > maxWeight:
				bad(n, "%q: weights are whole numbers of centipawns from -%d to %d", name, maxWeight, maxWeight)
			default:
				seen[name] = true
				features++
				w.Set(i, mg, eg)
			}
		}
	}
	if err := sc.Err(); err != nil {
		bad(0, "%v", err)
	}
	switch {
	case items < 2:
		bad(0, "no %q and variant lines: not a weights file", weightsFormat)
	case features == 0:
		bad(0, "no feature weights: a cut-off file?")
	}
	if len(problems) > 0 {
		msg := "weights: " + strings.Join(problems, "; ")
		if more > 0 {
			msg += fmt.Sprintf("; and %d more", more)
		}
		return nil, errors.New(msg)
	}
	return w, nil
}

// truncate shortens text quoted in an error.
func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
