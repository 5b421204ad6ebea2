package eval

import (
	"embed"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// shipped are the weights made by chimera tune for built-in variants, one
// file a variant (weights/NAME.txt).
//
//go:embed weights
var shipped embed.FS

// Shipped returns the weights shipped for a variant, if any. A shipped
// file that does not fit the variant (a user's variant under a built-in's
// name) is not used.
func Shipped(v *engine.Variant) (*Weights, bool) {
	data, err := shipped.ReadFile("weights/" + v.Name + ".txt")
	if err != nil {
		return nil, false
	}
	w, err := ParseWeights(v, data)
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

// ShippedVariants returns the names of the variants with shipped weights.
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
