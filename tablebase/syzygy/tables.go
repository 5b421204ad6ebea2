package syzygy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// Tables is a set of Syzygy table files found by Open. Probes may run
// concurrently, each with a position of its own; Close must not run
// while one does.
type Tables struct {
	// chess is the variant positions must be of; chessPrint its
	// fingerprint, for a position of an equal variant built elsewhere.
	chess      *engine.Variant
	chessPrint uint64
	// wdl and dtz hold each file under its material both ways round
	// (KQvKR and KRvKQ), so that a position's material finds it as it is.
	wdl, dtz  map[material]*tableFile
	maxPieces int
	closed    atomic.Bool
}

// tableFile is one table file, opened (mapped, parsed, checked) by the
// first probe that needs it, once, whatever probes race for it.
type tableFile struct {
	path string
	kind fileKind
	name material

	once   sync.Once
	data   []byte
	unmap  func() error // nil when data was read rather than mapped
	layout *layout
	err    error // why the file cannot be probed, for good
}

// Open finds the table files in the directories: files named as Syzygy
// names them (KQvKR.rtbw, KQvKR.rtbz; the stronger side first), of three
// to seven pieces. Nothing is read yet: each file is opened when a probe
// first needs it. Where two directories hold the same table, the first
// one's is used. A directory that cannot be read is an error.
func Open(dirs ...string) (*Tables, error) {
	if len(dirs) == 0 {
		return nil, errors.New("syzygy: no table directory given")
	}
	chess := variants.Chess()
	t := &Tables{
		chess:      chess,
		chessPrint: chess.Fingerprint(),
		wdl:        map[material]*tableFile{},
		dtz:        map[material]*tableFile{},
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("syzygy: %w", err)
		}
		for _, e := range entries {
			t.add(dir, e)
		}
	}
	return t, nil
}

// add records one directory entry if it is a table file.
func (t *Tables) add(dir string, e os.DirEntry) {
	name := e.Name()
	ext := filepath.Ext(name)
	var kind fileKind
	var into map[material]*tableFile
	switch ext {
	case wdlFile.extension():
		kind, into = wdlFile, t.wdl
	case dtzFile.extension():
		kind, into = dtzFile, t.dtz
	default:
		return
	}
	m, ok := parseTableName(strings.TrimSuffix(name, ext))
	if !ok || m.pieces() < 3 {
		return
	}
	path := filepath.Join(dir, name)
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return
	}
	if _, seen := into[m]; seen {
		return
	}
	f := &tableFile{path: path, kind: kind, name: m}
	into[m], into[m.mirrored()] = f, f
	if kind == wdlFile {
		t.maxPieces = max(t.maxPieces, m.pieces())
	}
}

// MaxPieces returns the most pieces (kings included) of any WDL table
// found: positions with more are not in the tables (a probe may still
// resolve one capture beyond it).
func (t *Tables) MaxPieces() int { return t.maxPieces }

// Close unmaps every opened file; later probes return ErrClosed. It
// must not run while a probe does.
func (t *Tables) Close() error {
	if t.closed.Swap(true) {
		return nil
	}
	var errs []error
	for _, files := range []map[material]*tableFile{t.wdl, t.dtz} {
		for m, f := range files {
			if m != f.name {
				continue // the mirrored entry of a file closed under its name
			}
			// A file never opened is marked so that it never will be.
			f.once.Do(func() {})
			if f.unmap != nil {
				if err := f.unmap(); err != nil {
					errs = append(errs, fmt.Errorf("syzygy: %s: %w", f.path, err))
				}
			}
			f.data, f.unmap, f.layout, f.err = nil, nil, nil, ErrClosed
		}
	}
	return errors.Join(errs...)
}

// checkPosition refuses what no table holds: a position of another
// variant, with castling rights, or with too many pieces.
func (t *Tables) checkPosition(pos *engine.Position) error {
	if t.closed.Load() {
		return ErrClosed
	}
	if v := pos.Variant(); v != t.chess && v.Fingerprint() != t.chessPrint {
		return fmt.Errorf("%w, not %s", ErrNotChess, v.Name)
	}
	if pos.CastlingRights() != 0 {
		return fmt.Errorf("%w: %s", ErrCastling, pos.FEN())
	}
	if n := pos.PieceCount(); n > maxProbePieces {
		return fmt.Errorf("%w: %d in %s", ErrTooManyPieces, n, pos.FEN())
	}
	return nil
}

// open returns the file's checked layout and its bytes, opening it on
// first use.
func (f *tableFile) open() (*layout, []byte, error) {
	f.once.Do(func() {
		data, unmap, err := mapFile(f.path)
		if err != nil {
			f.err = fmt.Errorf("syzygy: %w", err)
			return
		}
		l, err := parseLayout(data, f.kind, f.name)
		if err != nil {
			if unmap != nil {
				_ = unmap() // refused: nothing will read it
			}
			f.err = damaged(f.path, err)
			return
		}
		f.data, f.unmap, f.layout = data, unmap, l
	})
	return f.layout, f.data, f.err
}

// table returns the opened file of the kind for material m.
func (t *Tables) table(kind fileKind, m material) (*tableFile, *layout, []byte, error) {
	files := t.wdl
	if kind == dtzFile {
		files = t.dtz
	}
	f, ok := files[m]
	if !ok {
		return nil, nil, nil, fmt.Errorf("%w: %v%s", ErrMissing, m.normalForm(), kind.extension())
	}
	l, data, err := f.open()
	return f, l, data, err
}

// lookupError names the file a lookup failed in: a placement outside its
// numbering as such, anything else as damage.
func lookupError(f *tableFile, err error) error {
	if errors.Is(err, errNotPlaced) {
		return fmt.Errorf("syzygy: %s: %w", f.path, err)
	}
	return damaged(f.path, err)
}

// tableWDL returns b's raw WDL entry: no capture searched, no en passant
// considered. The bare kings are a draw without a file.
func (t *Tables) tableWDL(b *board) (WDL, error) {
	if b.material.pieces() == 2 {
		return Draw, nil
	}
	f, l, data, err := t.table(wdlFile, b.material)
	if err != nil {
		return 0, err
	}
	v, err := l.wdl(data, b)
	if err != nil {
		return 0, lookupError(f, err)
	}
	return v, nil
}

// tableDTZ returns b's raw DTZ entry for a position of value wdl; stored
// is false when the file keeps the other side to move.
func (t *Tables) tableDTZ(b *board, wdl WDL) (dtz int, stored bool, err error) {
	f, l, data, err := t.table(dtzFile, b.material)
	if err != nil {
		return 0, false, err
	}
	dtz, stored, err = l.dtz(data, b, wdl)
	if err != nil {
		return 0, false, lookupError(f, err)
	}
	return dtz, stored, nil
}
