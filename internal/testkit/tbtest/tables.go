package tbtest

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
)

// Tables generates one variant's tables in memory, each once, from the
// smaller tables its captures and promotions lead into. A test package
// holds one Tables per variant for its whole binary, so that the tests
// probing the same seconds-long table (KBNvK, the 5×6 board's KPvKP)
// share one generation instead of each making its own.
type Tables struct {
	newVariant func(testing.TB) *engine.Variant
	generate   Generator

	mu      sync.Mutex
	variant *engine.Variant
	byName  map[string]*tablebase.Table
}

// Generator makes one table from the smaller ones sub supplies.
type Generator func(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error)

// NewTables is the tables of the variant newVariant makes, made on first
// use by gen.Generate; newVariant is called once.
func NewTables(newVariant func(testing.TB) *engine.Variant) *Tables {
	return NewTablesBy(newVariant, func(v *engine.Variant, m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error) {
		return gen.Generate(v, m, sub, nil)
	})
}

// NewTablesBy is NewTables with another generator: tablebase/gen's tests
// share tables made without the distances to zeroing, which take a
// fraction of the time, among the tests of the distances to mate.
func NewTablesBy(newVariant func(testing.TB) *engine.Variant, generate Generator) *Tables {
	return &Tables{newVariant: newVariant, generate: generate, byName: map[string]*tablebase.Table{}}
}

// Variant is the variant the tables are of: positions probed in them must
// be of this variant, the very value, not one loaded again under its name.
func (c *Tables) Variant(t testing.TB) *engine.Variant {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.variantLocked(t)
}

func (c *Tables) variantLocked(t testing.TB) *engine.Variant {
	if c.variant == nil {
		c.variant = c.newVariant(t)
	}
	return c.variant
}

// Get returns the table of a material given by name, generated if need
// be, or fails the test.
func (c *Tables) Get(t testing.TB, name string) *tablebase.Table {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := tablebase.ParseMaterial(c.variantLocked(t), name)
	require.NoError(t, err)
	tb, err := c.subtableLocked(m)
	require.NoError(t, err, name)
	return tb
}

// Subtables returns the tables by material, generated if need be, for
// code that asks for tables the way the generator does.
func (c *Tables) Subtables(t testing.TB) tablebase.Subtables {
	c.Variant(t) // the variant is made before any generation
	return func(m tablebase.Material) (*tablebase.Table, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.subtableLocked(m)
	}
}

// subtableLocked is the generator's Subtables; the lock is held through
// the whole recursion, so no table is generated twice.
func (c *Tables) subtableLocked(m tablebase.Material) (*tablebase.Table, error) {
	if tb, ok := c.byName[m.String()]; ok {
		return tb, nil
	}
	tb, err := c.generate(c.variant, m, c.subtableLocked)
	if err == nil {
		c.byName[m.String()] = tb
	}
	return tb, err
}

// SaveTo writes the named tables' files into dir, as a store that had
// built them would have left them: tests of stores start from these files
// instead of generating the tables again.
func (c *Tables) SaveTo(t testing.TB, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		require.NoError(t, c.Get(t, name).Save(dir), name)
	}
}

// BuildIn generates the named tables of v (and the smaller ones they
// need) into dir, as tb generate does, or fails the test.
func BuildIn(t testing.TB, dir string, v *engine.Variant, names ...string) {
	t.Helper()
	store := gen.NewStore(dir)
	for _, name := range names {
		_, err := store.Build(v, Material(t, v, name), tablebase.Hooks{})
		require.NoError(t, err, name)
	}
}
