package match

import (
	"fmt"
	"strconv"
	"strings"
)

// optionType is an engine option's declared type and bounds, from either
// protocol's declaration, so a value the engine would refuse (or take
// silently for something else) is refused before the match starts.
type optionType struct {
	kind     string // spin, check, combo, string, button
	min, max int
	choices  []string
}

// parseUCIOption reads "option name N type spin default D min A max B"
// (or check, combo with "var" choices, string, button).
func parseUCIOption(decl string) optionType {
	_, rest, _ := strings.Cut(decl, " type ")
	fields := strings.Fields(rest)
	t := optionType{}
	if len(fields) > 0 {
		t.kind = fields[0]
	}
	for i := 1; i+1 < len(fields); i++ {
		switch fields[i] {
		case "min":
			t.min, _ = strconv.Atoi(fields[i+1])
		case "max":
			t.max, _ = strconv.Atoi(fields[i+1])
		}
	}
	if t.kind == "combo" {
		parts := strings.Split(rest, " var ")
		for _, p := range parts[1:] {
			t.choices = append(t.choices, strings.TrimSpace(p))
		}
	}
	return t
}

// parseCECPOption reads a CECP declaration "N -spin D MIN MAX", "N -check
// 0", "N -combo *a /// b", "N -string S" or "N -button".
func parseCECPOption(decl string) optionType {
	_, rest, _ := strings.Cut(decl, " -")
	kind, args, _ := strings.Cut(rest, " ")
	t := optionType{kind: kind}
	switch kind {
	case "spin", "slider":
		t.kind = "spin"
		if f := strings.Fields(args); len(f) == 3 {
			t.min, _ = strconv.Atoi(f[1])
			t.max, _ = strconv.Atoi(f[2])
		}
	case "combo":
		for _, c := range strings.Split(args, "///") {
			t.choices = append(t.choices, strings.TrimPrefix(strings.TrimSpace(c), "*"))
		}
	case "file", "path":
		t.kind = "string"
	}
	return t
}

// check reports why value does not fit the option, or nil.
func (t optionType) check(value string) error {
	switch t.kind {
	case "spin":
		n, err := strconv.Atoi(value)
		if err != nil || n < t.min || n > t.max {
			return fmt.Errorf("%q is not a whole number from %d to %d", value, t.min, t.max)
		}
	case "check":
		if _, ok := checkValue(value); !ok {
			return fmt.Errorf("%q is not true or false", value)
		}
	case "combo":
		for _, c := range t.choices {
			if strings.EqualFold(c, value) {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", value, strings.Join(t.choices, ", "))
	}
	return nil
}

// checkValue reads a check option's value in either protocol's words
// (UCI's true and false, CECP's 1 and 0).
func checkValue(value string) (on, ok bool) {
	switch value {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// cecpValue is value as CECP writes it: 1 or 0 for a check option.
func (t optionType) cecpValue(value string) string {
	if on, ok := checkValue(value); ok && t.kind == "check" {
		if on {
			return "1"
		}
		return "0"
	}
	return value
}
