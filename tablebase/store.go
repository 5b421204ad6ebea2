package tablebase

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/packed"
)

// Store keeps the tables of a directory: in memory once used, loaded from
// their files, or generated (with the smaller tables they need) and saved.
// Every lookup says how far it may go (Policy): the search's tree never
// touches the disk, a server never generates on a request. A damaged file,
// or one made for another definition of its variant, is never trusted:
// rebuilt where the policy allows building, reported otherwise. It is safe
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
	// KeepFiles leaves existing files alone: a damaged or stale one is an
	// error, not rebuilt over (a server is read-only on the files it has).
	KeepFiles bool
	// MemoryBudget, when positive, bounds the bytes of the tables kept in
	// memory: past it, the tables looked up least recently are dropped
	// (and read from their files again when asked for). A table being
	// filed is always kept, even alone over the budget.
	MemoryBudget int64
	// CacheBytes bounds the memory of the decoded blocks of the tables
	// read from their files, shared by all of them (0: 64 MiB). Set it
	// before the first lookup.
	CacheBytes int64
	// Generator, when set, makes the tables the Build policy asks for
	// (tablebase/gen's); without one the store only reads, and Build,
	// ToBuild, Plan and GenerationCost fail with ErrNoGenerator.
	Generator Generator

	// largest is the most pieces of a table in memory: the tree's probes
	// of bigger positions are answered without the lock.
	largest atomic.Int32

	cacheOnce sync.Once
	cache     *packed.Cache // the decoded blocks of the tables read from files

	mu       sync.Mutex
	tables   map[tableID]*Table    // by variant and material
	byKey    map[uint64]*keyed     // by material key of a position
	building map[tableID]*inFlight // lookups under way that read or generate
	inMemory int64                 // bytes of the tables in memory
	evicted  int                   // tables dropped for the budget
	clock    atomic.Int64          // lookups, for the tables' lastUse
}

// tableID names a table in memory. Tables are kept per variant value, not
// per name: a variant redefined under its name (a user's file loaded
// again) is another value, whose tables are looked up afresh and checked
// against its fingerprint.
type tableID struct {
	v *engine.Variant
	m string // the normalised material
}

// inFlight is a lookup under way: others wait for it rather than read or
// generate the same table again, unless it generates and they may not
// (a server's request, the search's root never wait for a generation).
type inFlight struct {
	done       chan struct{} // closed when it ends
	generating bool
}

// positionID names a position's table: its variant and the material key
// of its pieces.
type positionID struct {
	v   *engine.Variant
	key uint64
}

// keyed lists the tables of one material key, one per variant value
// (usually one): the search's lookup is one map access by a number and
// a pointer comparison, which a map keyed by variant and key, hashed as a
// struct, made a fifth slower.
type keyed struct {
	t    *Table
	next *keyed
}

// Policy says how far a lookup may go for a table that is not in memory.
type Policy uint8

const (
	// MemoryOnly answers from tables in memory and never touches the
	// disk: the search's tree, on the clock.
	MemoryOnly Policy = iota
	// MemoryOrDisk also reads a table's file, and never generates: a
	// server's answers, the search's root, the verifier of what exists.
	MemoryOrDisk
	// Build also generates a missing table (with the smaller ones it
	// needs) and saves it; a damaged or stale file is rebuilt unless the
	// store keeps its files.
	Build
)

// String names the policy for messages.
func (p Policy) String() string {
	switch p {
	case MemoryOnly:
		return "memory only"
	case MemoryOrDisk:
		return "memory or disk"
	}
	return "build"
}

// Errors of a lookup that finds no table; the error returned wraps one of
// them (or ErrCorrupt, ErrStale, or a generation's error).
var (
	// ErrNotInMemory: the policy is MemoryOnly and the table is not in
	// memory. It is returned as it is, without allocating: the search's
	// tree asks millions of times.
	ErrNotInMemory = errors.New("table not in memory")
	// ErrNoFile: the policy does not build and the table has no file.
	ErrNoFile = errors.New("no table file")
	// ErrGenerating: the policy does not build, and the table is being
	// generated: it is not waited for.
	ErrGenerating = errors.New("table being generated")
	// ErrNoTable: no table holds the position: bare royal pieces (a draw
	// by the rules), castling rights, a material or rules the generator
	// does not model.
	ErrNoTable = errors.New("no table holds this position")
)

// noTable says why no table holds a position, in the words of the check
// that found it; errors.Is(err, ErrNoTable) holds.
type noTable struct{ err error }

func (e noTable) Error() string   { return e.err.Error() }
func (e noTable) Unwrap() []error { return []error{e.err, ErrNoTable} }

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
	return &Store{dir: dir, tables: map[tableID]*Table{}, byKey: map[uint64]*keyed{}, building: map[tableID]*inFlight{}}
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// CheckDir reports why a directory cannot hold tables, or nil: it must be a
// directory (one that does not exist yet is created) and, when tables are
// to be written there, writable.
func CheckDir(dir string, write bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist) && write:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("table directory %s cannot be created: %w", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("table directory %s: %w", dir, err)
	case !st.IsDir():
		return fmt.Errorf("table directory %s is not a directory", dir)
	case !write:
		return nil
	}
	probe, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("table directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

func (s *Store) log(format string, args ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, args...))
	}
}

// Find returns the table that holds position p, going as far as the policy
// allows. Under MemoryOnly it neither allocates nor takes longer than a
// map lookup under the store's lock: the search's tree calls it.
func (s *Store) Find(p *engine.Position, policy Policy) (*Table, error) {
	if p.PieceCount() <= 2 || p.CastlingRights() != 0 {
		if policy == MemoryOnly {
			return nil, ErrNoTable
		}
		return nil, fmt.Errorf("%s: bare royal pieces or castling rights: %w", p.FEN(), ErrNoTable)
	}
	if key, ok := positionKey(p); ok {
		v := p.Variant()
		s.mu.Lock()
		e := s.byKey[key]
		for e != nil && e.t.Variant != v {
			e = e.next
		}
		s.mu.Unlock()
		if e != nil {
			s.touch(e.t)
			return e.t, nil
		}
	}
	if policy == MemoryOnly {
		return nil, ErrNotInMemory
	}
	m, err := TableMaterial(p)
	if err != nil {
		return nil, noTable{err}
	}
	t, err := s.find(p.Variant(), m, policy, Hooks{})
	if err != nil {
		return nil, err
	}
	if !t.Covers(p) {
		return nil, fmt.Errorf("%s is not covered by %s: %w", p.FEN(), t.Material, ErrNoTable)
	}
	return t, nil
}

// FindMaterial returns a material's table, going as far as the policy
// allows.
func (s *Store) FindMaterial(v *engine.Variant, m Material, policy Policy) (*Table, error) {
	return s.find(v, m, policy, Hooks{})
}

// Build returns a material's table, generating it (and the smaller tables
// it needs) when it has no file: FindMaterial with the Build policy, and
// hooks that follow and steer this generation (a server builds several at
// once). The smaller tables' generations inherit the pause hook.
func (s *Store) Build(v *engine.Variant, m Material, hooks Hooks) (*Table, error) {
	return s.find(v, m, Build, hooks)
}

// Finder returns Find under one policy, the form Table.Moves and Verify
// take for the tables a position's moves lead into.
func (s *Store) Finder(policy Policy) func(*engine.Position) (*Table, error) {
	return func(p *engine.Position) (*Table, error) { return s.Find(p, policy) }
}

// find is FindMaterial with generation hooks. A table is never read or
// generated twice at once: a second caller waits for the first's result
// (and then looks again, under its own policy).
func (s *Store) find(v *engine.Variant, m Material, policy Policy, hooks Hooks) (*Table, error) {
	m, err := m.Normalised(v)
	if err != nil {
		return nil, err
	}
	id := tableID{v, m.String()}
	for {
		s.mu.Lock()
		if t := s.tables[id]; t != nil {
			s.mu.Unlock()
			s.touch(t)
			return t, nil
		}
		if policy == MemoryOnly {
			s.mu.Unlock()
			return nil, ErrNotInMemory
		}
		if f, busy := s.building[id]; busy {
			s.mu.Unlock()
			if f.generating && policy != Build {
				return nil, fmt.Errorf("%s %s: %w", v.Name, m, ErrGenerating)
			}
			<-f.done
			continue
		}
		f := &inFlight{done: make(chan struct{})}
		s.building[id] = f
		s.mu.Unlock()
		t, err := s.loadOrGenerate(v, m, f, policy, hooks)
		s.mu.Lock()
		delete(s.building, id)
		close(f.done)
		s.mu.Unlock()
		return t, err
	}
}

// loadOrGenerate reads a table's file or, under the Build policy, generates
// it (and the smaller tables it needs) and saves it; a damaged or stale
// file is then reported and replaced, unless the store keeps its files.
func (s *Store) loadOrGenerate(v *engine.Variant, m Material, f *inFlight, policy Policy, hooks Hooks) (*Table, error) {
	id := tableID{v, m.String()}
	t, err := open(s.dir, v, m, s.blockCache())
	if err == nil && policy == Build {
		// Where a damaged file would be rebuilt, it is found first:
		// every block's checksum (a read of the file, no decoding).
		// Elsewhere a damaged block is an error when a probe reads it.
		if err = t.packed.Check(); err != nil {
			t.file.Close()
			err = fmt.Errorf("%s: %v: %w", filepath.Join(s.dir, FileName(v, m)), err, ErrCorrupt)
		}
	}
	switch {
	case err == nil:
		return s.keep(id, t), nil
	case policy != Build && errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s %s: %w in %s", v.Name, m, ErrNoFile, s.dir)
	case policy != Build:
		return nil, err
	case (errors.Is(err, ErrCorrupt) || errors.Is(err, ErrStale)) && s.KeepFiles:
		return nil, fmt.Errorf("%w (left as it is: chimera tb generate %s rebuilds it)", err, m)
	case errors.Is(err, ErrCorrupt) || errors.Is(err, ErrStale):
		s.log("%v; regenerating it", err)
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	gen, err := s.generator(v, m)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	f.generating = true
	s.mu.Unlock()
	inherited := hooks
	inherited.Progress = nil // a caller follows the table it asked for
	sub := func(child Material) (*Table, error) { return s.find(v, child, Build, inherited) }
	own := hooks
	own.Progress = func(frac float64) {
		if s.Progress != nil {
			s.Progress(m, frac)
		}
		hooks.Report(frac)
	}
	if t, err = gen.Generate(v, m, sub, own); err != nil {
		return nil, err
	}
	if err := t.Save(s.dir); err != nil {
		if s.SaveRequired {
			return nil, err
		}
		s.log("%v (kept in memory)", err)
		return s.keep(id, t), nil
	}
	// Saved: probes read the file block by block, as anywhere else, so
	// that a plan of many tables does not keep every one whole in memory.
	if saved, err := open(s.dir, v, m, s.blockCache()); err == nil {
		t = saved
	} else {
		s.log("%v (kept in memory)", err)
	}
	return s.keep(id, t), nil
}

// keep files a table in memory (or returns the one another goroutine
// filed first).
func (s *Store) keep(id tableID, t *Table) *Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tables[id]; ok {
		return old
	}
	// Positions with an en-passant capture are valued through the tables
	// their moves lead into: read when they have files, never generated
	// by a probe (the generation's own supplier could build).
	t.sub = func(m Material) (*Table, error) { return s.find(t.Variant, m, MemoryOrDisk, Hooks{}) }
	t.find = s.Finder(MemoryOrDisk)
	s.tables[id] = t
	s.inMemory += t.Bytes()
	s.touch(t)
	s.evictOver(t)
	if n := int32(len(t.Geo.Pieces)); n > s.largest.Load() {
		s.largest.Store(n) // under mu: no other writer
	}
	for _, swap := range []bool{false, true} {
		k := materialKey(t.Geo.Pieces, swap)
		if e := s.byKey[k]; e == nil || e.t != t { // a symmetric material has one key
			s.byKey[k] = &keyed{t: t, next: e}
		}
	}
	return t
}

// touch records a lookup of t, for the memory budget's eviction (nothing
// without a budget: the search's tree looks tables up millions of times).
func (s *Store) touch(t *Table) {
	if s.MemoryBudget > 0 {
		t.lastUse.Store(s.clock.Add(1))
	}
}

// evictOver drops the tables used least recently, but keep, until the
// tables in memory fit the budget. Under mu.
func (s *Store) evictOver(keep *Table) {
	if s.MemoryBudget <= 0 || s.inMemory <= s.MemoryBudget {
		return
	}
	ids := make([]tableID, 0, len(s.tables))
	for id := range s.tables {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b tableID) int { return cmp.Compare(s.tables[a].lastUse.Load(), s.tables[b].lastUse.Load()) })
	for _, id := range ids {
		if s.inMemory <= s.MemoryBudget {
			break
		}
		if t := s.tables[id]; t != keep {
			s.drop(id, t)
		}
	}
}

// drop removes a table from memory. Under mu. Holders of it keep using
// it; the next lookup reads its file again.
func (s *Store) drop(id tableID, t *Table) {
	delete(s.tables, id)
	s.inMemory -= t.Bytes()
	s.evicted++
	for _, swap := range []bool{false, true} {
		k := materialKey(t.Geo.Pieces, swap)
		var kept *keyed
		for e := s.byKey[k]; e != nil; e = e.next {
			if e.t != t {
				kept = &keyed{t: e.t, next: kept}
			}
		}
		if kept == nil {
			delete(s.byKey, k)
		} else {
			s.byKey[k] = kept
		}
	}
}

// blockCache returns the store's cache of decoded blocks, made on first
// use with the bound CacheBytes says.
func (s *Store) blockCache() *packed.Cache {
	s.cacheOnce.Do(func() { s.cache = packed.NewCache(s.CacheBytes) })
	return s.cache
}

// CacheUse returns the bytes of decoded blocks the store's cache holds and
// its bound.
func (s *Store) CacheUse() (used, limit int64) {
	c := s.blockCache()
	return c.Used(), c.Limit()
}

// MemoryUse returns the tables in memory, their bytes, and how many
// tables the memory budget has dropped so far.
func (s *Store) MemoryUse() (tables int, bytes int64, evicted int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables), s.inMemory, s.evicted
}

// ToBuild returns the tables Build would generate to get m's table: m and,
// transitively, the tables it is valued through, those neither in memory
// nor with a file in the store's directory, each after the ones it needs.
// A file is not read here: a damaged or stale one is rebuilt by Build
// (and said so) besides.
func (s *Store) ToBuild(v *engine.Variant, m Material) ([]Material, error) {
	gen, err := s.generator(v, m)
	if err != nil {
		return nil, err
	}
	var out []Material
	seen := map[Material]bool{}
	var visit func(m Material) error
	visit = func(m Material) error {
		m, err := m.Normalised(v)
		if err != nil {
			return err
		}
		if seen[m] {
			return nil
		}
		seen[m] = true
		if _, err := s.FindMaterial(v, m, MemoryOnly); err == nil || s.HasFile(v, m) {
			return nil
		}
		needs, err := gen.Needs(v, m)
		if err != nil {
			return err
		}
		for _, n := range needs {
			if err := visit(n); err != nil {
				return err
			}
		}
		out = append(out, m)
		return nil
	}
	err = visit(m)
	return out, err
}

// HasFile reports whether something is in the store's directory under a
// material's file name: a table file, whole or not, or whatever is in the
// way of one (Load says which).
func (s *Store) HasFile(v *engine.Variant, m Material) bool {
	_, err := os.Lstat(filepath.Join(s.dir, FileName(v, m)))
	return err == nil
}

// FileSize returns the size of a material's table file, if it has one.
func (s *Store) FileSize(v *engine.Variant, m Material) (int64, bool) {
	st, err := os.Stat(filepath.Join(s.dir, FileName(v, m)))
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	return st.Size(), true
}

// DiskUse adds up the sizes of the table files in the store's directory,
// whatever their variant.
func (s *Store) DiskUse() int64 {
	entries, _ := os.ReadDir(s.dir)
	var n int64
	for _, e := range entries {
		if _, _, ok := splitFileName(e.Name()); !ok {
			continue
		}
		if st, err := os.Stat(filepath.Join(s.dir, e.Name())); err == nil {
			n += st.Size()
		}
	}
	return n
}

// TableFile is a table file of a store's directory.
type TableFile struct {
	Variant  *engine.Variant
	Material Material
	Size     int64 // bytes
}

// Files lists the table files of the store's directory whose variant
// lookup knows (a catalogue's Lookup) and whose material is one of that
// variant's, in the directory's order; other files are left out. The file
// is not read: Load says whether it is whole.
func (s *Store) Files(lookup func(name string) (*engine.Variant, error)) []TableFile {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	var out []TableFile
	for _, e := range entries {
		variant, material, ok := splitFileName(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		v, err := lookup(variant)
		if err != nil {
			continue
		}
		m, err := ParseMaterial(v, material)
		if err != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, TableFile{Variant: v, Material: m, Size: info.Size()})
	}
	return out
}

// materialKey packs a set of pieces (colours swapped if asked) into a
// number that does not depend on their order.
func materialKey(pieces []engine.Piece, swap bool) uint64 {
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
	return k
}

// positionKey is materialKey for a position, without allocating; false
// when it has more pieces than a table holds.
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
	return k, true
}

// TableMaterial returns the material of the table that would hold p,
// normalised: each side has one royal piece and no castling rights are
// left, and the variant's rules and the pieces are ones the generator
// models (CheckMaterial). A table's file may still be missing.
func TableMaterial(p *engine.Position) (Material, error) {
	m, err := positionMaterial(p)
	if err != nil {
		return Material{}, err
	}
	if m, err = m.Normalised(p.Variant()); err != nil {
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
