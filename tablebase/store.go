package tablebase

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
)

// Store keeps the tables of a directory: in memory once used, loaded from
// their files, or generated (with the smaller tables they need) and saved.
// A damaged file is reported and regenerated, never trusted. It is safe
// for concurrent use.
type Store struct {
	dir string
	// Log, when set, receives notes for people: a damaged file, a table
	// being generated.
	Log func(string)
	// Progress, when set, is told the fraction of a generation done.
	Progress func(m Material, frac float64)
	// SaveRequired makes a table that cannot be saved an error (tb
	// generate); otherwise it is logged and kept in memory (an engine).
	SaveRequired bool
	// KeepFiles leaves existing files alone: a damaged one is an error,
	// not regenerated over (a server is read-only on the files it has).
	KeepFiles bool

	// largest is the most pieces of a table in memory: the tree's probes
	// of bigger positions are answered without the lock.
	largest atomic.Int32

	mu       sync.Mutex
	tables   map[string]*Table        // by variant/material
	byKey    map[uint64]*Table        // by material key of the position
	building map[string]chan struct{} // closed when that table's build ends
}

// DefaultDir is where tables live unless told otherwise: the user's cache
// directory, or the system temporary directory when there is none.
func DefaultDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "chimera", "tablebases")
	}
	return filepath.Join(os.TempDir(), "chimera-tablebases")
}

// NewStore returns a store for dir ("" means DefaultDir).
func NewStore(dir string) *Store {
	if dir == "" {
		dir = DefaultDir()
	}
	return &Store{dir: dir, tables: map[string]*Table{}, byKey: map[uint64]*Table{}, building: map[string]chan struct{}{}}
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) log(format string, args ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, args...))
	}
}

// Table returns the table of a material, from memory, its file, or by
// generating it. Generation runs without holding the store's lock, so
// probes of other tables go on meanwhile, and a table is never generated
// twice at once: a second caller waits for the first's result.
func (s *Store) Table(v *engine.Variant, m Material) (*Table, error) { return s.table(v, m, Hooks{}) }

// TableWith is Table with generation hooks: a progress report for this
// generation alone (a server builds several at once), and a pause hook.
func (s *Store) TableWith(v *engine.Variant, m Material, hooks Hooks) (*Table, error) {
	return s.table(v, m, hooks)
}

// Stored returns a material's table from memory or its file, never
// generating it (a server answers at once).
func (s *Store) Stored(v *engine.Variant, m Material) (*Table, bool) { return s.stored(v, m) }

// table is Table with generation hooks, which the smaller tables a
// generation needs inherit.
func (s *Store) table(v *engine.Variant, m Material, hooks Hooks) (*Table, error) {
	for {
		m, key, t, err := s.inMemory(v, m)
		if t != nil || err != nil {
			return t, err
		}
		s.mu.Lock()
		if wait, busy := s.building[key]; busy {
			s.mu.Unlock()
			<-wait
			continue
		}
		done := make(chan struct{})
		s.building[key] = done
		s.mu.Unlock()
		t, err = s.loadOrGenerate(v, m, key, hooks)
		s.mu.Lock()
		delete(s.building, key)
		close(done)
		s.mu.Unlock()
		return t, err
	}
}

// loadOrGenerate reads a table's file, or generates it (and the smaller
// tables it needs) and saves it; a damaged file is reported and replaced.
func (s *Store) loadOrGenerate(v *engine.Variant, m Material, key string, hooks Hooks) (*Table, error) {
	t, err := Load(s.dir, v, m)
	switch {
	case err == nil:
	case errors.Is(err, ErrCorrupt) && s.KeepFiles:
		return nil, fmt.Errorf("%w (left as it is: chimera tb generate %s rebuilds it)", err, m)
	case errors.Is(err, ErrCorrupt):
		s.log("%v; regenerating it", err)
		fallthrough
	case errors.Is(err, os.ErrNotExist):
		inherited := hooks
		inherited.Progress = nil // a caller follows the table it asked for
		sub := func(child Material) (*Table, error) { return s.table(v, child, inherited) }
		own := hooks
		own.Progress = func(frac float64) {
			if s.Progress != nil {
				s.Progress(m, frac)
			}
			hooks.progress(frac)
		}
		if t, err = GenerateWith(v, m, sub, own); err != nil {
			return nil, err
		}
		if err := t.Save(s.dir); err != nil {
			if s.SaveRequired {
				return nil, err
			}
			s.log("%v (kept in memory)", err)
		}
	default:
		return nil, err
	}
	return s.keep(key, t), nil
}

// keep files a table in memory (or returns the one another goroutine
// filed first).
func (s *Store) keep(key string, t *Table) *Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tables[key]; ok {
		return old
	}
	s.tables[key] = t
	if t.sub == nil {
		// Positions with an en-passant capture are valued through the
		// tables their moves lead into: read, never generated, here.
		v := t.Variant
		t.sub = func(m Material) (*Table, error) {
			if child, ok := s.stored(v, m); ok {
				return child, nil
			}
			return nil, fmt.Errorf("%s: table %s is not available", v.Name, m)
		}
	}
	if n := int32(len(t.geo.pieces)); n > s.largest.Load() {
		s.largest.Store(n) // under mu: no other writer
	}
	s.byKey[materialKey(t.Variant, t.geo.pieces, false)] = t
	s.byKey[materialKey(t.Variant, t.geo.pieces, true)] = t
	return t
}

// tableKey names a table in memory and in the builder's books:
// variant/material, the material normalised.
func tableKey(v *engine.Variant, m Material) string { return v.Name + "/" + m.String() }

// inMemory normalises a material and returns its key and its table if it
// is in memory (nil otherwise).
func (s *Store) inMemory(v *engine.Variant, m Material) (Material, string, *Table, error) {
	m, err := m.normalised(v)
	if err != nil {
		return m, "", nil, err
	}
	key := tableKey(v, m)
	s.mu.Lock()
	defer s.mu.Unlock()
	return m, key, s.tables[key], nil
}

// stored returns a table from memory or its file, without generating.
func (s *Store) stored(v *engine.Variant, m Material) (*Table, bool) {
	m, key, t, err := s.inMemory(v, m)
	if t != nil || err != nil {
		return t, t != nil
	}
	if t, err = Load(s.dir, v, m); err != nil {
		return nil, false
	}
	return s.keep(key, t), true
}

// materialKey packs a set of pieces (colours swapped if asked) into a
// number that does not depend on their order.
func materialKey(v *engine.Variant, pieces []engine.Piece, swap bool) uint64 {
	codes := make([]int, len(pieces))
	for i, pc := range pieces {
		c := pc.Colour()
		if swap {
			c = c.Other()
		}
		codes[i] = int(engine.MakePiece(pc.Type(), c))
	}
	sort.Ints(codes)
	var k uint64
	for _, c := range codes {
		k = k<<6 | uint64(c)
	}
	return k | uint64(v.Width)<<40 | uint64(v.Height)<<48 // tables of one store share the variant's board
}

// positionKey is materialKey for a position, without allocating.
func positionKey(p *engine.Position) (uint64, bool) {
	var codes [MaxPieces]int
	n := 0
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range p.Pieces(c) {
			if n == MaxPieces {
				return 0, false
			}
			codes[n] = int(p.At(s))
			n++
		}
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && codes[j] < codes[j-1]; j-- {
			codes[j], codes[j-1] = codes[j-1], codes[j]
		}
	}
	var k uint64
	for _, c := range codes[:n] {
		k = k<<6 | uint64(c)
	}
	v := p.Variant()
	return k | uint64(v.Width)<<40 | uint64(v.Height)<<48, true
}

// Loaded returns the table in memory that covers the position, if any.
func (s *Store) Loaded(p *engine.Position) (*Table, bool) {
	key, ok := positionKey(p)
	if !ok || p.CastlingRights() != 0 {
		return nil, false
	}
	s.mu.Lock()
	t, found := s.byKey[key]
	s.mu.Unlock()
	if !found || t.Variant != p.Variant() {
		return nil, false
	}
	return t, true
}

// ForPosition returns the table covering the position, loading or
// generating it when its material allows.
func (s *Store) ForPosition(p *engine.Position) (*Table, error) {
	if t, ok := s.Loaded(p); ok {
		return t, nil
	}
	m, err := positionMaterial(p)
	if err != nil {
		return nil, err
	}
	t, err := s.Table(p.Variant(), m)
	if err != nil {
		return nil, err
	}
	if !t.Covers(p) {
		return nil, fmt.Errorf("%s is not covered by %s", p.FEN(), t.Material)
	}
	return t, nil
}

// TableMaterial returns the material of the table that would hold p,
// normalised: the variant's rules are ones the generator models, each side
// has one royal piece and no castling rights are left, and the pieces are
// ones a table may hold. A table's file may still be missing.
func TableMaterial(p *engine.Position) (Material, error) {
	m, err := positionMaterial(p)
	if err != nil {
		return Material{}, err
	}
	if m, err = m.normalised(p.Variant()); err != nil {
		return Material{}, err
	}
	if err := CheckMaterial(p.Variant(), m); err != nil {
		return Material{}, err
	}
	return m, nil
}

// positionMaterial returns the material of a position, strong side first
// (whether or not a table could hold it: see Material's checks).
func positionMaterial(p *engine.Position) (Material, error) {
	white, black, ok := materialOf(p)
	if !ok {
		return Material{}, fmt.Errorf("%s: each side needs exactly one royal piece", p.FEN())
	}
	if p.CastlingRights() != 0 {
		return Material{}, fmt.Errorf("%s: castling rights are not covered", p.FEN())
	}
	return orient(p.Variant(), Material{Strong: white, Weak: black}), nil
}

// Children returns the table for a position reached by a move, or false
// for bare kings (a draw without a table).
func (s *Store) Children(p *engine.Position) (*Table, bool) {
	if p.PieceCount() <= 2 {
		return nil, false
	}
	t, err := s.ForPosition(p)
	return t, err == nil
}
