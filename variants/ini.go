package variants

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chimera-chess/chimera/engine"
)

// parsed is one section of a variant file, checked, and its variant:
// built already (a user's file, so its errors show at once) or when first
// asked for (the built-ins: a command uses one or two of ninety).
type parsed struct {
	spec    *spec
	variant func() (*engine.Variant, error)
}

// parseINI reads a variant file in Fairy-Stockfish's variants.ini format:
// sections [name] or [name:parent], "key = value" lines and # comments.
// A section without a parent starts from chess. Parents are looked up
// among the file's earlier sections, then with known. Every problem is
// reported, each as "file:line: problem" (the first maxProblems, then
// their count); the variants are returned only
// when there is none.
func parseINI(file string, data []byte, known func(string) (*spec, bool)) ([]parsed, error) {
	return parseSections(file, data, known, false)
}

// parseSections is parseINI; with lazy, each section is built when first
// asked for (the built-in catalogue, whose every section a test builds).
func parseSections(file string, data []byte, known func(string) (*spec, bool), lazy bool) ([]parsed, error) {
	var (
		errs    []error
		out     []parsed
		current *spec
		skip    bool // the current section's header or a key was bad
		local   = map[string]*spec{}
		setters = keys()
	)
	more := 0 // problems beyond maxProblems, counted only
	fail := func(line int, format string, args ...any) {
		if len(errs) == maxProblems {
			more++
			return
		}
		errs = append(errs, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
	}
	finish := func() {
		if current == nil || skip {
			return
		}
		if lazy {
			out = append(out, parsed{spec: current, variant: sync.OnceValues(current.build)})
			return
		}
		v, err := current.build()
		if err != nil {
			fail(current.lineOf(err), "[%s]: %v", current.name, err)
			return
		}
		out = append(out, parsed{spec: current, variant: func() (*engine.Variant, error) { return v, nil }})
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			finish()
			current, skip = nil, false
			name, parent, err := parseHeader(line)
			if err != nil {
				fail(n, "%v", err)
				current, skip = chessSpec(), true
				continue
			}
			base := chessSpec()
			if parent != "" {
				p, ok := local[parent]
				if !ok {
					p, ok = known(parent)
				}
				if !ok {
					fail(n, "[%s:%s]: unknown parent variant %q", name, parent, parent)
					skip = true
				} else {
					base = p.clone()
				}
			}
			if _, dup := local[name]; dup {
				fail(n, "[%s]: defined twice in this file", name)
				skip = true
			} else if old, exists := known(name); exists && old.file == builtinFile {
				fail(n, "[%s]: a variant of that name exists already; derive one with [my%s:%s]", name, name, name)
				skip = true
			}
			// Without a description key, the variant says where it comes
			// from rather than nothing.
			derived := ""
			if parent != "" {
				derived = ", derived from " + parent
			}
			if parent != "" {
				// Until a key other than its description changes it.
				base.aliasOf = cmp.Or(base.aliasOf, parent)
			}
			base.name, base.file, base.line = name, file, n
			base.description = fmt.Sprintf("a user's variant (%s, line %d%s)", filepath.Base(file), n, derived)
			current = base
			local[name] = current
		default:
			key, value, ok := strings.Cut(line, "=")
			key, value = strings.TrimSpace(key), strings.TrimSpace(value)
			if current != nil && key != "description" {
				current.aliasOf = "" // a rule of its own: a variant of its own
			}
			switch {
			case !ok || key == "":
				fail(n, "expected key = value, got %q", line)
			case current == nil:
				fail(n, "%s: key outside a [section]", key)
			case strings.HasPrefix(key, mobilityRegionPrefix):
				if err := current.setMobilityRegion(key, value); err != nil {
					fail(n, "%v", err)
					skip = true
				}
			case setters[key] != nil:
				if err := setters[key](current, value); err != nil {
					fail(n, "%s: %v", key, err)
					skip = true // building it would report consequences
				}
				if key == "startFen" {
					current.startFENLine = n // where the build's errors about it point (lineOf)
				}
			default:
				if err := current.setPiece(key, value); err != nil {
					fail(n, "%v", err)
					skip = true
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", file, err))
	}
	finish()
	if more > 0 {
		errs = append(errs, fmt.Errorf("%s: and %d more problems", file, more))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// maxProblems is how many of a file's problems are listed; the rest are
// counted (a file of garbage would otherwise make an error of megabytes).
const maxProblems = 20

// parseHeader reads "[name]" or "[name:parent]".
func parseHeader(line string) (name, parent string, err error) {
	if !strings.HasSuffix(line, "]") {
		return "", "", fmt.Errorf("section header %q has no closing ]", line)
	}
	name, parent, _ = strings.Cut(line[1:len(line)-1], ":")
	name, parent = strings.TrimSpace(name), strings.TrimSpace(parent)
	if !validName(name) {
		return "", "", fmt.Errorf("bad variant name %q: use letters, digits, - and _", name)
	}
	if parent != "" && !validName(parent) {
		return "", "", fmt.Errorf("bad parent name %q", parent)
	}
	return name, parent, nil
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// lineOf is the line of the spec's file an error building it names: the
// startFen line for a problem with the start position the section gives
// (engine.ErrStartPosition, or its size, startFENError), the section's
// header for anything else, an inherited start position included (the
// section's other keys made it wrong).
func (s *spec) lineOf(err error) int {
	var shape startFENError
	given := s.startFENFrom == s.name && s.startFENLine > 0
	if given && (errors.Is(err, engine.ErrStartPosition) || errors.As(err, &shape)) {
		return s.startFENLine
	}
	return s.line
}

// startFENError is an error about the start position a section gives
// found before the engine reads it (its size against the board's).
type startFENError struct{ error }

// build checks the spec by building its engine variant.
func (s *spec) build() (*engine.Variant, error) {
	r, err := s.engineRules()
	if err != nil {
		return nil, err
	}
	return engine.NewVariant(r)
}
