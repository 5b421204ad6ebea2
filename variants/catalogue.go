package variants

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// builtins maps each UCI_Variant name to the constructor of its rules.
func builtins() map[string]func() engine.Rules {
	return map[string]func() engine.Rules{
		"chess": chessRules,
	}
}

// Names returns the built-in variant names, sorted.
func Names() []string {
	var names []string
	for name := range builtins() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Lookup builds the built-in variant with the given UCI_Variant name.
func Lookup(name string) (*engine.Variant, error) {
	rules, ok := builtins()[name]
	if !ok {
		return nil, fmt.Errorf("variants: unknown variant %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return engine.NewVariant(rules())
}
