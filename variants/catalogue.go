package variants

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/smallfile"
)

//go:embed builtin.ini
var builtinINI []byte

// builtinFile is the file name the built-in variants carry.
const builtinFile = "builtin.ini"

// builtinSpecs parses the embedded catalogue once; the specs are never
// modified afterwards (children clone them).
var builtinSpecs = sync.OnceValue(func() []parsed {
	out, err := parseSections(builtinFile, builtinINI, func(string) (*spec, bool) { return nil, false }, true)
	if err != nil {
		panic("variants: the built-in catalogue does not load: " + err.Error())
	}
	return out
})

// Catalogue is a set of variants by UCI_Variant name: the built-ins plus any
// user variant files loaded into it.
type Catalogue struct {
	byName map[string]parsed
	names  []string // in definition order
}

// Builtin returns a catalogue of the built-in variants.
func Builtin() *Catalogue {
	c := &Catalogue{byName: map[string]parsed{}}
	c.add(builtinSpecs())
	return c
}

// add adds variants; one of a name already loaded from a variant file
// replaces it (a user edited the file and loads it again).
func (c *Catalogue) add(ps []parsed) {
	for _, p := range ps {
		if _, exists := c.byName[p.spec.name]; !exists {
			c.names = append(c.names, p.spec.name)
		}
		c.byName[p.spec.name] = p
	}
}

// LoadFile adds the variants of a variant file. Nothing is added unless the
// whole file is correct; the error lists every problem as file:line.
func (c *Catalogue) LoadFile(path string) error {
	data, err := readVariantFile(path)
	if err != nil {
		return err
	}
	return c.Load(path, data)
}

// MaxFileBytes bounds a variant file (Fairy-Stockfish's own variants.ini,
// every variant it knows, is about 60 KB).
const MaxFileBytes = 1 << 20

// readVariantFile reads a variant file of at most MaxFileBytes.
func readVariantFile(path string) ([]byte, error) {
	return smallfile.Read(path, MaxFileBytes, "a variant file")
}

// Load is LoadFile for data already read; name is used in messages.
func (c *Catalogue) Load(name string, data []byte) error {
	ps, err := parseINI(name, data, c.spec)
	if err != nil {
		return err
	}
	c.add(ps)
	return nil
}

// Check reports every problem in a variant file without loading it.
func (c *Catalogue) Check(path string) error {
	data, err := readVariantFile(path)
	if err != nil {
		return err
	}
	_, err = parseINI(path, data, c.spec)
	return err
}

func (c *Catalogue) spec(name string) (*spec, bool) {
	p, ok := c.byName[name]
	return p.spec, ok
}

// Names returns the variant names in definition order.
func (c *Catalogue) Names() []string { return append([]string(nil), c.names...) }

// Lookup returns the variant with the given name.
func (c *Catalogue) Lookup(name string) (*engine.Variant, error) {
	p, ok := c.byName[name]
	if !ok {
		sorted := c.Names()
		sort.Strings(sorted)
		return nil, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(sorted, ", "))
	}
	v, err := p.variant()
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", name, err)
	}
	return v, nil
}

// Canonical returns the name of the variant that name stands for: for an
// alias (a section that sets nothing but its description, such as
// fischerandom, chess960 under XBoard's name), the variant it is another
// name of; otherwise name itself. What is kept per variant (shipped
// weights, reference perft files) is kept once, under the canonical
// name.
func (c *Catalogue) Canonical(name string) string {
	if p, ok := c.byName[name]; ok && p.spec.aliasOf != "" {
		return p.spec.aliasOf
	}
	return name
}

// Description returns a variant's one-line description.
func (c *Catalogue) Description(name string) string { return c.byName[name].spec.description }

// BoardSize returns a variant's board, files by ranks, as its built
// variant has it (Width, Height), without building it: a list of every
// variant's size built all of them. ok is false for an unknown name.
func (c *Catalogue) BoardSize(name string) (files, ranks int, ok bool) {
	p, ok := c.byName[name]
	if !ok {
		return 0, 0, false
	}
	return p.spec.files, p.spec.ranks, true
}

// Names returns the built-in variant names in catalogue order.
func Names() []string { return Builtin().Names() }

// Canonical returns the name of the built-in variant that name stands for
// (see Catalogue.Canonical).
func Canonical(name string) string { return Builtin().Canonical(name) }

// Lookup returns the built-in variant with the given name.
func Lookup(name string) (*engine.Variant, error) { return Builtin().Lookup(name) }

// Chess returns FIDE chess.
func Chess() *engine.Variant {
	v, err := Lookup("chess")
	if err != nil {
		panic(err)
	}
	return v
}
