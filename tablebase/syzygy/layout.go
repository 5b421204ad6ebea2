package syzygy

import (
	"errors"
	"fmt"
)

// fileKind is what a table file holds.
type fileKind uint8

const (
	wdlFile fileKind = iota // .rtbw: win, draw or loss under the 50-move rule
	dtzFile                 // .rtbz: distance to zeroing
)

// extension returns the kind's file extension.
func (k fileKind) extension() string {
	if k == dtzFile {
		return ".rtbz"
	}
	return ".rtbw"
}

// magic returns the four bytes every file of the kind starts with.
func (k fileKind) magic() [4]byte {
	if k == dtzFile {
		return [4]byte{0xd7, 0x66, 0x0c, 0xa5}
	}
	return [4]byte{0x71, 0xe8, 0x23, 0x5d}
}

// The bits of a file's fifth byte.
const (
	splitFlag = 1 // WDL: both sides to move are stored
	pawnFlag  = 2 // the table has pawns: a part per file of the leading pawn
)

// The bits of a DTZ part's flags byte.
const (
	dtzBlackStored = 1  // the part stores Black (in the table's colours) to move
	dtzMapped      = 2  // values go through the per-outcome maps
	dtzWinExact    = 4  // wins are stored in plies, not in moves
	dtzLossExact   = 8  // losses likewise
	dtzWideMaps    = 16 // the maps hold 16-bit values
)

// The outcome classes a DTZ file keeps a map for, in file order.
const (
	mapWin = iota
	mapLoss
	mapCursedWin
	mapBlessedLoss
	mapClasses
)

// trailerBytes: a table file ends with 16 bytes after its data (which
// start on 64-byte boundaries), so valid sizes are 16 more than a
// multiple of 64. This reader does not interpret them.
const trailerBytes = 16

// part is one part of a table: the placements of a side to move (in a
// pawn table, with the leading pawn on one folded file) and their
// entries.
type part struct {
	order  placementOrder
	values valueStream
	// DTZ files: the part's flags and its value maps.
	flags byte
	maps  [mapClasses]valueMap
}

// valueMap turns a DTZ part's stored values into distances: the stored
// value is an index into the map of the position's outcome.
type valueMap struct {
	at, length int // the first entry's byte offset, the entries
	wide       bool
}

// layout is a table file, parsed and checked: every part's placement
// order, the places of its compressed tables, its DTZ maps. It reads
// nothing of the entries themselves.
type layout struct {
	kind fileKind
	// material is the table's: colour 0 is the side its piece codes call
	// White, which may be the file name's Black.
	material material
	// files is 4 in a pawn table, else 1; sides is 2 in a WDL file that
	// stores both sides to move, else 1.
	files, sides int
	parts        [4][2]part
}

// parseLayout reads a whole table file of the given kind whose name said
// material named. Any inconsistency is an error (the caller names the
// file): no later lookup reads outside the tables placed here, and the
// decoder checks the rest.
func parseLayout(data []byte, kind fileKind, named material) (*layout, error) {
	if len(data)%64 != trailerBytes || len(data) < 64 {
		return nil, fmt.Errorf("size %d is not a table's (16 more than a multiple of 64)", len(data))
	}
	if [4]byte(data[:4]) != kind.magic() {
		return nil, fmt.Errorf("magic number %x is not a %s file's", data[:4], kind.extension())
	}
	l := &layout{kind: kind, files: 1, sides: 1}
	flags := data[4]
	if (flags&pawnFlag != 0) != named.hasPawns() {
		return nil, fmt.Errorf("pawn flag %d for %v", flags&pawnFlag, named)
	}
	if named.hasPawns() {
		l.files = 4
	}
	if kind == wdlFile && flags&splitFlag != 0 {
		l.sides = 2
	}
	if kind == wdlFile && l.sides == 1 && !named.symmetric() {
		return nil, errors.New("one side to move stored for a table of unlike sides")
	}
	at, err := l.readOrders(data, named)
	if err != nil {
		return nil, err
	}
	if at, err = l.readStreamHeaders(data, at); err != nil {
		return nil, err
	}
	if kind == dtzFile {
		if at, err = l.readMaps(data, at); err != nil {
			return nil, err
		}
	}
	if err := l.placeTables(data, at); err != nil {
		return nil, err
	}
	return l, nil
}

// readOrders reads the piece orders after the flags byte: per file (one
// without pawns) a byte of digit orders (low nibble for the first side
// to move, high for the second; a second such byte for the second pawn
// group when both sides have pawns), then a byte a piece, its codes in
// the same nibbles. It returns where the headers after them start.
func (l *layout) readOrders(data []byte, named material) (int, error) {
	n := named.pieces()
	secondPawns := named.pawns(0) > 0 && named.pawns(1) > 0
	orderBytes := 1 + boolInt(secondPawns)
	at := 5
	for f := 0; f < l.files; f++ {
		if at+orderBytes+n > len(data) {
			return 0, errors.New("piece orders past the end")
		}
		for s := 0; s < l.sides; s++ {
			nibble := func(b byte) int { return int(b>>(4*s)) & 0x0f }
			spec := orderSpec{leadDigit: nibble(data[at]), pieces: make([]pieceCode, n)}
			if secondPawns {
				spec.secondDigit = nibble(data[at+1])
			}
			for i := range n {
				spec.pieces[i] = pieceCode(nibble(data[at+orderBytes+i]))
			}
			if f == 0 && s == 0 {
				// The first list fixes which of the name's sides the table
				// calls White.
				if err := l.setMaterial(spec.pieces, named); err != nil {
					return 0, err
				}
			}
			o, err := newPlacementOrder(spec, l.material, f)
			if err != nil {
				return 0, fmt.Errorf("file %d, side %d: %w", f, s, err)
			}
			if o.leading == leadPawns && o.pieces[0] != l.parts[0][0].order.pieces[0] && (f != 0 || s != 0) {
				// Probing finds the leading pawns by the first list's
				// code before it knows the part.
				return 0, fmt.Errorf("file %d, side %d leads with code %#x", f, s, o.pieces[0])
			}
			l.parts[f][s].order = o
		}
		at += orderBytes + n
	}
	return at + at&1, nil
}

// setMaterial takes the table's colours from its first piece list, which
// must hold the name's pieces one way round or the other.
func (l *layout) setMaterial(pieces []pieceCode, named material) error {
	var m material
	for _, c := range pieces {
		if !c.valid() {
			return fmt.Errorf("piece code %#x", c)
		}
		m = m.plus(c.colour(), c.kind())
	}
	if m != named && m != named.mirrored() {
		return fmt.Errorf("the file lists %v for %v", m, named)
	}
	l.material = m
	return nil
}

// readStreamHeaders reads every part's header, file by file, side by
// side, and returns where the next section starts.
func (l *layout) readStreamHeaders(data []byte, at int) (int, error) {
	for f := 0; f < l.files; f++ {
		for s := 0; s < l.sides; s++ {
			p := &l.parts[f][s]
			h, err := parseStreamHeader(data, at, p.order.size, l.kind == dtzFile)
			if err != nil {
				return 0, fmt.Errorf("file %d, side %d: %w", f, s, err)
			}
			p.values, p.flags, at = h.stream, h.flags, h.next
		}
	}
	return at, nil
}

// readMaps reads a DTZ file's value maps: for each part with the mapped
// flag, four maps (one per outcome class), each its length then its
// values, bytes or (16-bit maps, which start on an even offset) words.
func (l *layout) readMaps(data []byte, at int) (int, error) {
	for f := 0; f < l.files; f++ {
		p := &l.parts[f][0]
		if p.values.constant || p.flags&dtzMapped == 0 {
			continue
		}
		wide := p.flags&dtzWideMaps != 0
		if wide {
			at += at & 1
		}
		for c := range p.maps {
			var length, width int
			switch {
			case wide && at+2 <= len(data):
				length, width = int(data[at])|int(data[at+1])<<8, 2
			case !wide && at < len(data):
				length, width = int(data[at]), 1
			default:
				return 0, errors.New("value maps past the end")
			}
			at += width
			p.maps[c] = valueMap{at: at, length: length, wide: wide}
			at += length * width
			if at > len(data) {
				return 0, errors.New("value maps past the end")
			}
		}
	}
	return at + at&1, nil
}

// placeTables places every part's sparse index, then every block-length
// table, then every part's blocks (each on a 64-byte boundary), and
// checks that they fill the file: the last block padded to 64 bytes,
// then the trailer, nothing missing and nothing more.
func (l *layout) placeTables(data []byte, at int) error {
	limit := uint64(len(data) - trailerBytes)
	pos := uint64(at)
	advance := func(bytes uint64) error {
		if bytes > limit || pos > limit-bytes {
			return errors.New("tables past the end")
		}
		pos += bytes
		return nil
	}
	type step struct {
		size  func(*valueStream) uint64
		start func(*valueStream, int)
		align bool
	}
	steps := []step{
		{(*valueStream).indexBytes, func(s *valueStream, at int) { s.indexAt = at }, false},
		{(*valueStream).lengthBytes, func(s *valueStream, at int) { s.lengthsAt = at }, false},
		{(*valueStream).dataBytes, func(s *valueStream, at int) { s.dataAt = at }, true},
	}
	for _, st := range steps {
		for f := 0; f < l.files; f++ {
			for s := 0; s < l.sides; s++ {
				v := &l.parts[f][s].values
				if st.align {
					if err := advance(-pos & 63); err != nil {
						return err
					}
				}
				st.start(v, int(pos))
				if err := advance(st.size(v)); err != nil {
					return fmt.Errorf("file %d, side %d: %w", f, s, err)
				}
			}
		}
	}
	if end := (pos + 63) &^ 63; end != limit {
		return fmt.Errorf("the tables end at %d, the file's data at %d", end, limit)
	}
	return nil
}
