// Package variants is Chimera's catalogue of games: it builds engine.Variant
// values for the built-in variants and looks them up by their UCI_Variant
// names.
package variants
