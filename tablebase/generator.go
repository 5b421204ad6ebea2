package tablebase

import (
	"errors"
	"fmt"

	"github.com/chimera-chess/chimera/engine"
)

// Generator makes the tables a store has no file for: tablebase/gen's
// Generator is the one a program hands a store that may build
// (Store.Generator). A store without one only reads.
type Generator interface {
	// Generate builds a material's table; sub supplies the smaller
	// tables its captures and promotions lead into.
	Generate(v *engine.Variant, m Material, sub Subtables, hooks Hooks) (*Table, error)
	// Needs returns the tables a material's table is valued through,
	// normalised, each once.
	Needs(v *engine.Variant, m Material) ([]Material, error)
	// Cost estimates what generating a material's table takes.
	Cost(v *engine.Variant, m Material) (Cost, error)
}

// Cost is what making a table takes.
type Cost struct {
	// Entries per side to move.
	Entries int
	// Memory is the estimated working memory of its generation, in bytes
	// (the smaller tables it needs are generated before it, each within
	// its own, and those it reads are counted by them).
	Memory int64
	// File estimates the size of its (packed) file, in bytes, with a
	// margin.
	File int64
	// Seconds estimates the generation's time on two cores.
	Seconds float64
}

// ErrNoGenerator: the store was asked to build, or what building takes,
// and has no Generator (one that only reads tables).
var ErrNoGenerator = errors.New("this table store only reads tables: it has no generator")

// generator returns the store's generator, or an error naming what was
// asked of it.
func (s *Store) generator(v *engine.Variant, m Material) (Generator, error) {
	if s.Generator == nil {
		return nil, fmt.Errorf("%s %s: %w", v.Name, m, ErrNoGenerator)
	}
	return s.Generator, nil
}

// GenerationCost estimates what generating a material's table takes, by
// the store's generator.
func (s *Store) GenerationCost(v *engine.Variant, m Material) (Cost, error) {
	gen, err := s.generator(v, m)
	if err != nil {
		return Cost{}, err
	}
	return gen.Cost(v, m)
}
