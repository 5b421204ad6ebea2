package xboard

import (
	"fmt"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/session"
)

// xboardSlots are XBoard's piece types in the order of its piece-to-char
// table: each of the variant's pieces is drawn with one of them.
const xboardSlots = "PNBRQFEACWMOHIJGDVLSUK"

// standardBetza returns the moves XBoard gives its pieces of a letter
// ("" for the letters it has no standard piece for); a piece moving
// otherwise is described to it with a piece command.
func standardBetza(letter byte) string {
	switch letter {
	case 'P':
		return "fmWfceFifmnD"
	case 'N', 'B', 'R', 'Q', 'K':
		return string(letter)
	}
	return ""
}

// setupLines are what tells XBoard a variant it does not know: the
// board, the pieces and the start position (setup), then the moves of
// every piece that is not one of its standard ones (piece, in Betza).
func setupLines(v *engine.Variant) []string {
	last := len(xboardSlots) - 1
	slots := []byte(strings.Repeat(".", len(xboardSlots)))
	for _, pt := range v.Pieces {
		slot := -1
		switch {
		case pt.Role == engine.RolePawn:
			slot = 0
		case pt.Royal:
			slot = last
		case strings.IndexByte(xboardSlots[1:last], pt.Letter) >= 0:
			slot = strings.IndexByte(xboardSlots[1:last], pt.Letter) + 1
		}
		if slot < 0 || slots[slot] != '.' {
			// XBoard's own letter is taken or missing: a free fairy slot.
			if free := strings.IndexByte(string(slots[5:last]), '.'); free >= 0 {
				slot = free + 5
			} else {
				continue // more piece types than XBoard draws
			}
		}
		slots[slot] = pt.Letter
	}
	table := string(slots) + strings.ToLower(string(slots))
	lines := []string{fmt.Sprintf("setup (%s) %dx%d+0_fairy %s", table, v.Width, v.Height, v.StartFEN)}
	for _, pt := range v.Pieces {
		if standardBetza(pt.Letter) != pt.Betza {
			lines = append(lines, fmt.Sprintf("piece %c& %s", pt.Letter, pt.Betza))
		}
	}
	return lines
}

// optionFeature writes an option as CECP's feature option= value.
func optionFeature(o session.Option) string {
	switch o.Kind {
	case session.Spin:
		return fmt.Sprintf("%s -spin %s %d %d", o.Name, o.Default, o.Min, o.Max)
	case session.Check:
		on := "0"
		if o.Default == "true" {
			on = "1"
		}
		return fmt.Sprintf("%s -check %s", o.Name, on)
	case session.Combo:
		choices := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			if c == o.Default {
				c = "*" + c
			}
			choices[i] = c
		}
		return fmt.Sprintf("%s -combo %s", o.Name, strings.Join(choices, " /// "))
	case session.Button:
		return o.Name + " -button"
	}
	return fmt.Sprintf("%s -string %s", o.Name, o.Default)
}
