package wdl

import (
	"embed"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// shipped are the models fitted to built-in variants' games, one file a
// variant (models/NAME.txt, written by chimera wdl).
//
//go:embed models
var shipped embed.FS

// fallbackVariant's model serves the variants without one of their own:
// every evaluation scores in centipawns of a pawn worth about 100, so
// chess's curve is a fair guess at any game's, and says nothing wrong
// at the extremes (a score of a few pawns wins almost always).
const fallbackVariant = "chess"

// Shipped returns the model shipped for variant v (its own, or that of
// the variant its name is an alias of; own reports which), or chess's for
// a variant without one.
func Shipped(v *engine.Variant) (md Model, own bool) {
	if md, ok := load(variants.Canonical(v.Name)); ok {
		return md, true
	}
	md, _ = load(fallbackVariant)
	return md, false
}

// load reads the model shipped under a name.
func load(name string) (Model, bool) {
	data, err := shipped.ReadFile("models/" + name + ".txt")
	if err != nil {
		return Model{}, false
	}
	md, err := Parse(string(data))
	return md, err == nil
}

// ShippedVariants returns the names of the variants with models of their
// own.
func ShippedVariants() []string {
	entries, _ := shipped.ReadDir("models")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".txt"); ok {
			names = append(names, name)
		}
	}
	return names
}

// Material returns the share of the start position's pieces that p still
// has in play, on the board and in hand, kings included: 1 at the start
// (more where pieces enter the game), falling toward 0 as they are
// traded. start is the start position's count (StartPieces).
func Material(p *engine.Position, start int) float64 {
	return float64(inPlay(p)) / float64(max(start, 1))
}

// StartPieces returns the pieces variant v's start position has in play.
func StartPieces(v *engine.Variant) int { return inPlay(v.StartPosition()) }

// inPlay counts p's pieces on the board and in hand.
func inPlay(p *engine.Position) int {
	n := p.PieceCount()
	hands := p.Hands()
	for c := range hands {
		for _, k := range hands[c] {
			n += int(k)
		}
	}
	return n
}
