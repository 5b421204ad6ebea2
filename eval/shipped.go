package eval

import (
	"embed"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// shipped are the weights made by chimera tune for built-in variants, one
// file a variant (weights/NAME.txt); an alias of a variant (fischerandom,
// chess960 under another name: variants.Canonical) plays its variant's.
//
//go:embed weights
var shipped embed.FS

// Shipped returns the weights shipped for a variant, if any: its own, or
// those of the variant its name is an alias of. A shipped file that does
// not fit the variant (a user's variant under a built-in's name) is not
// used.
func Shipped(v *engine.Variant) (*Weights, bool) {
	name := variants.Canonical(v.Name)
	data, err := shipped.ReadFile("weights/" + name + ".txt")
	if err != nil {
		return nil, false
	}
	w, err := parseWeightsAs(v, name, data)
	return w, err == nil
}

// ShippedOrDocuments returns the tuned evaluation with the weights shipped
// for v, or the documents' evaluation if there are none.
func ShippedOrDocuments(v *engine.Variant) Evaluator {
	if w, ok := Shipped(v); ok {
		return NewTuned(w)
	}
	return NewDocuments(v)
}

// ShippedVariants returns the names of the variants with weights files of
// their own (their aliases play them too).
func ShippedVariants() []string {
	entries, _ := shipped.ReadDir("weights")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".txt"); ok {
			names = append(names, name)
		}
	}
	return names
}
