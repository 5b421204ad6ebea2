package eval

import (
	"bytes"
	"embed"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/nnue"
)

// shippedNetworks are the networks made by chimera train for built-in
// variants, one file a variant (networks/NAME.nnue), each recording how
// it was made (docs/strength.md has the matches).
//
//go:embed networks
var shippedNetworks embed.FS

// ShippedNetwork returns the network shipped for v, if there is one and
// it fits v's definition now (a user's variant under a built-in's name
// gets none).
func ShippedNetwork(v *engine.Variant) (*nnue.Network, bool) {
	data, err := shippedNetworks.ReadFile("networks/" + v.Name + ".nnue")
	if err != nil {
		return nil, false
	}
	n, err := nnue.Read(bytes.NewReader(data))
	if err != nil || n.Check(v) != nil {
		return nil, false
	}
	return n, true
}

// NetworkOrShipped returns the network evaluation for v, by its shipped
// network, or the tuned evaluation's when none is (ShippedOrDocuments).
func NetworkOrShipped(v *engine.Variant) Evaluator {
	if n, ok := ShippedNetwork(v); ok {
		if e, err := NewNetwork(v, n); err == nil {
			return e
		}
	}
	return ShippedOrDocuments(v)
}

// ShippedNetworks returns the names of the variants networks are shipped
// for.
func ShippedNetworks() []string {
	entries, _ := shippedNetworks.ReadDir("networks")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".nnue"); ok {
			names = append(names, name)
		}
	}
	return names
}
