package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestRuleSummaries: 'variants show' names each new rule.
func TestRuleSummaries(t *testing.T) {
	for name, want := range map[string]string{
		"kyotoshogi": "promoted pieces demote (-) when they move",
		"micro":      "only when capturing",
		"sittuyin":   "by a move of their own",
		"placement":  "bishops are dropped on both colours",
		"cambodian":  "may leap like a knight",
		"shatar":     "a mate by knights alone loses",
		"makpong":    "may only take a lone checker",
		"suicide":    "fewer pieces",
		"threekings": "left with 2 or fewer",
		"koedem":     "must be dropped first",
		"jesonmor":   "through the reply",
		"loop":       "as they stand",
		"bughouse":   "partner's board",
	} {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		require.Contains(t, strings.Join(ruleSummary(v), "\n"), want, name)
	}
}
