package tune

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chimera-chess/chimera/eval"
)

// A ConfigError says why a Config cannot run. It names the Config's
// fields by what they hold ("the features to fit"), so that a program
// can name them its own way (a command by its flags) from Field, Needs
// and Excludes, and Err says what is wrong.
type ConfigError struct {
	// Field is the field at fault ("Fit"); empty when no one field is.
	Field string
	// Needs is a field that must be given with it, Excludes one that must
	// not (each empty when none).
	Needs, Excludes string
	Err             error
}

// fieldName says what a Config field a ConfigError names holds.
func fieldName(field string) string {
	switch field {
	case "Variant":
		return "the variant"
	case "Fit":
		return "the features to fit"
	case "Omit":
		return "the features to omit"
	case "SearchShare":
		return "the search labels' share"
	case "LabelNodes":
		return "the nodes searched for each position's label"
	case "Samples":
		return "the positions given"
	case "EPD":
		return "the positions to read"
	case "Save":
		return "the positions to save"
	}
	return field
}

// Error says the problem with the fields named by what they hold.
func (e *ConfigError) Error() string {
	return e.Explain(fieldName)
}

// Explain says the problem naming each field by name(field): Error's
// text, or a command's, where name gives the flag.
func (e *ConfigError) Explain(name func(field string) string) string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(name(e.Field) + ": ")
	}
	b.WriteString(e.Err.Error())
	if e.Needs != "" {
		b.WriteString(": give " + name(e.Needs) + " too")
	}
	if e.Excludes != "" {
		b.WriteString(": give it without " + name(e.Excludes))
	}
	return b.String()
}

// Unwrap returns the problem itself.
func (e *ConfigError) Unwrap() error { return e.Err }

// Validate says, by a *ConfigError, why the run cannot be made as
// configured; nil when it can. It reads nothing (no positions, no
// games): a program calls it first to refuse a bad configuration at
// once, and Run calls it again.
func (cfg Config) Validate() error {
	if cfg.Variant == nil {
		return &ConfigError{Field: "Variant", Err: errors.New("none given")}
	}
	if cfg.SearchShare < 0 || cfg.SearchShare > 1 {
		return &ConfigError{Field: "SearchShare", Err: fmt.Errorf("%g: want a share from 0 to 1", cfg.SearchShare)}
	}
	// Positions from games or read from a file have no search label
	// unless this run searches them.
	if cfg.SearchShare > 0 && cfg.LabelNodes == 0 && cfg.Samples == nil {
		return &ConfigError{Field: "SearchShare", Needs: "LabelNodes", Err: errors.New("weighs the search labels")}
	}
	given := ""
	switch {
	case cfg.EPD != nil:
		given = "EPD"
	case cfg.Samples != nil:
		given = "Samples"
	}
	if cfg.EPD != nil && cfg.Samples != nil {
		return &ConfigError{Field: "EPD", Excludes: "Samples", Err: errors.New("the positions come from one place")}
	}
	if cfg.Save != nil && given != "" {
		return &ConfigError{Field: "Save", Excludes: given, Err: errors.New("keeps the games' positions")}
	}
	_, _, err := freeFeatures(cfg.Layout(), cfg.Fit, cfg.Omit)
	return err
}

// freeFeatures returns, by feature index, the weights the fit moves: the
// features whose names begin with one of fit's prefixes (no prefixes:
// every feature), less the omitted ones, those beginning with one of
// omit's; free is nil when it is every feature, omitted nil when omit is
// empty. A prefix no feature's name begins with is an error.
func freeFeatures(l *eval.Layout, fit, omit []string) (free, omitted []bool, err error) {
	if len(fit) == 0 && len(omit) == 0 {
		return nil, nil, nil
	}
	if free, err = matchFeatures(l, "Fit", fit); err != nil {
		return nil, nil, err
	}
	if len(fit) == 0 {
		for i := range free {
			free[i] = true
		}
	}
	if len(omit) == 0 {
		return free, nil, nil
	}
	if omitted, err = matchFeatures(l, "Omit", omit); err != nil {
		return nil, nil, err
	}
	for i, out := range omitted {
		free[i] = free[i] && !out
	}
	if !slices.Contains(free, true) {
		return nil, nil, &ConfigError{Err: errors.New("the features to fit, less those to omit, leave no feature to fit")}
	}
	return free, omitted, nil
}

// matchFeatures returns, by feature index, the features whose names begin
// with one of the prefixes, or an error naming (by field) a prefix no
// feature has.
func matchFeatures(l *eval.Layout, field string, prefixes []string) ([]bool, error) {
	names := l.Names()
	match := make([]bool, len(names))
	for _, prefix := range prefixes {
		// Every name begins with "", which a stray comma would give.
		if strings.TrimSpace(prefix) == "" {
			return nil, &ConfigError{Field: field, Err: errors.New("an empty prefix (a stray comma?) would name every feature")}
		}
		found := false
		for i, name := range names {
			if strings.HasPrefix(name, prefix) {
				match[i], found = true, true
			}
		}
		if !found {
			return nil, &ConfigError{Field: field, Err: fmt.Errorf("%q: no feature's name begins so", prefix)}
		}
	}
	return match, nil
}
