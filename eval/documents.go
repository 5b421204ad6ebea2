package eval

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/chimera-chess/chimera/engine"
)

// RoyalValue is the value of a royal piece (the documents' 20000·K).
const RoyalValue = 20000

// MobilityWeight is the centipawn value of one pseudo-legal move.
const MobilityWeight = 10

// Documents is the documents' evaluation of one variant. It is immutable
// and may be shared between goroutines.
type Documents struct {
	values [64]int // by piece code
	// hands: pieces in hand count at their value too (types: how many
	// piece types the variant has).
	hands bool
	types int
}

// NewDocuments returns the documents' evaluation of a variant.
func NewDocuments(v *engine.Variant) *Documents {
	e := &Documents{hands: v.HasHands(), types: len(v.Pieces)}
	for t, val := range Values(v) {
		e.values[engine.MakePiece(t+1, engine.White)] = val
		e.values[engine.MakePiece(t+1, engine.Black)] = val
	}
	return e
}

// Value returns the value of a piece (0 for an empty square).
func (e *Documents) Value(pc engine.Piece) int { return e.values[pc] }

// Evaluate returns the documents' evaluation of p for the side to move.
func (e *Documents) Evaluate(p *engine.Position) int {
	us := p.SideToMove()
	score := 0
	var mobility [2]int
	mobility[engine.White], mobility[engine.Black] = p.Mobilities()
	for c := engine.White; c <= engine.Black; c++ {
		material := 0
		for _, s := range p.Pieces(c) {
			material += e.values[p.At(s)]
		}
		if e.hands {
			for t := 1; t <= e.types; t++ {
				material += p.InHand(c, t) * e.values[engine.MakePiece(t, c)]
			}
		}
		side := material + MobilityWeight*mobility[c]
		if c == us {
			score += side
		} else {
			score -= side
		}
	}
	return score
}

// Values returns the value of each of the variant's piece types (by type
// index − 1): royal pieces are worth RoyalValue, pieces with a value keep
// it, and the others are estimated by EstimateValue.
func Values(v *engine.Variant) []int {
	out := make([]int, len(v.Pieces))
	for i, pt := range v.Pieces {
		switch {
		case pt.Royal:
			out[i] = RoyalValue
		case pt.Value > 0:
			out[i] = pt.Value
		default:
			out[i] = EstimateValue(v, i+1)
		}
	}
	return out
}

// knightValue anchors the mobility estimate: a knight comes out at 300.
const knightValue = 300

// EstimateValue estimates a piece type's value from its average number of
// target squares over all squares of the variant's empty board, scaled so
// that a knight on the same board comes out at 300.
func EstimateValue(v *engine.Variant, typ int) int {
	knight := engine.PieceType{Name: "knight", Letter: 'N', Atoms: []engine.Atom{engine.Leaper(1, 2)}}
	ref := averageMobility(v, v.Pieces[typ-1])
	if ref == 0 {
		return 0
	}
	unit := averageMobility(v, knight)
	if unit == 0 {
		return ref * knightValue
	}
	return int(float64(ref)/float64(unit)*knightValue + 0.5)
}

// mobilities remembers averageMobility's answers by board size and piece
// (as the probe sees it): each answer builds a variant of the lone piece
// and sets it on every square, milliseconds of work, and every evaluator
// made for a variant with pieces of no given value asked again (each
// search player of each game of self-play, tuning and the explorer).
var mobilities sync.Map // string → int

// averageMobility returns 1000 × the average number of squares pt reaches
// from each square of an empty board of v's size.
func averageMobility(v *engine.Variant, pt engine.PieceType) int {
	lone := pt
	lone.Letter, lone.Royal, lone.Role = 'X', false, engine.RoleOther
	// The piece's fields in full: a pointer field (a region) is the same
	// region only at the same address, which is the safe side.
	key := fmt.Sprintf("%dx%d %#v", v.Width, v.Height, lone)
	if m, ok := mobilities.Load(key); ok {
		return m.(int)
	}
	m := lonePieceMobility(v.Width, v.Height, lone)
	mobilities.Store(key, m)
	return m
}

// lonePieceMobility is averageMobility's answer: the probe of the lone
// piece on each square of an empty board.
func lonePieceMobility(width, height int, lone engine.PieceType) int {
	probe, err := engine.NewVariant(engine.Rules{Name: "probe", Width: width, Height: height,
		Pieces: []engine.PieceType{lone}, StartFEN: loneFEN(width, height, 0, 0)})
	if err != nil {
		return 0
	}
	total, squares := 0, 0
	for f := 0; f < width; f++ {
		for r := 0; r < height; r++ {
			p, err := probe.ParseFEN(loneFEN(width, height, f, r))
			if err != nil {
				continue
			}
			total += p.Mobility(engine.White)
			squares++
		}
	}
	if squares == 0 {
		return 0
	}
	return total * 1000 / squares
}

// loneFEN is the FEN of a board with a single white X on (file, rank).
func loneFEN(width, height, file, rank int) string {
	rows := make([]string, height)
	for r := range rows {
		row := strconv.Itoa(width)
		if r == height-1-rank {
			row = ""
			if file > 0 {
				row += strconv.Itoa(file)
			}
			row += "X"
			if width-file-1 > 0 {
				row += strconv.Itoa(width - file - 1)
			}
		}
		rows[r] = row
	}
	return strings.Join(rows, "/") + " w - - 0 1"
}
