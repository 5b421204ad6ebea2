package tablebase

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
	"github.com/chimera-chess/chimera/tablebase/internal/packed"
)

// The file format: a header, the variant's name and the material, a
// CRC-32C of those, then the entries packed in compressed blocks
// (tablebase/internal/packed: an index of the blocks, then the blocks of
// White to move and of Black's, each holding outcomes, distances to mate
// and, in variants with a move rule, distances to zeroing). The header
// holds the magic, the format version, the board size, the piece count,
// the entry count, an FNV-1a checksum of the entries as generated (the
// table's name for its contents: an explorer's ETag), the variant's
// fingerprint for the material (Fingerprint) and the entries per block;
// since version 5 a byte after it says whose distances are stored (bit
// 0 White to move's, bit 1 Black's: the other side's are found by one
// ply of search, its outcomes are stored).
var magic = [8]byte{'C', 'H', 'I', 'M', 'E', 'R', 'A', 'T'}

// formatVersion 2 added the fingerprint, version 3 the distances to
// zeroing, version 4 packed the entries in compressed blocks, version 5
// may store one side's distances only; files before version 4 are
// rebuilt, version 4's are read (both sides' distances stored). A file
// with both sides' distances is still written as version 4, so that
// releases before one-side files read it.
const formatVersion = 5

// Bits of the version 5 header's byte of stored distances.
const (
	whiteDistances = 1 << iota
	blackDistances
	bothDistances = whiteDistances | blackDistances
)

// ErrCorrupt marks a table file that is damaged or does not match.
var ErrCorrupt = errors.New("tablebase file is damaged or does not match")

// ErrStale marks a table file made for another definition of its variant
// (a user's variant file changed since) or by an older format: whole and
// checksummed, but not a table of the variant as it is now.
var ErrStale = errors.New("tablebase file was made for another definition of its variant")

// header is the fixed part of a file's header.
type header struct {
	Magic         [8]byte
	Version       uint16
	Width, Height uint8
	Pieces        uint8
	Entries       uint32
	Checksum      uint64
	Fingerprint   uint64
	BlockEntries  uint32
}

// fileExt ends the name of every table file.
const fileExt = ".ctb"

// FileName is the file a table is stored in: variant-material.ctb. It is
// the one place a table file's name is made (splitFileName reads it).
func FileName(v *engine.Variant, m Material) string {
	return v.Name + "-" + m.String() + fileExt
}

// splitFileName reads FileName's name back: the variant's name and the
// material's text; false for any other file.
func splitFileName(name string) (variant, material string, ok bool) {
	name, ok = strings.CutSuffix(name, fileExt)
	i := strings.LastIndexByte(name, '-') // a material has no '-', a variant's name may
	if !ok || i < 0 {
		return "", "", false
	}
	return name[:i], name[i+1:], true
}

// FileBytes is the size of a table's file before compression: the
// header, the names and one byte per entry, metric and side to move. A
// packed file is usually a tenth of it or less; plans take it as the
// bound.
func FileBytes(v *engine.Variant, m Material, entries int) int64 {
	arrays := int64(2)
	if HasDTZ(v) {
		arrays = 4
	}
	return int64(binary.Size(header{})) + int64(2+len(v.Name)+2+len(m.String())+4) + arrays*int64(entries)
}

// checksum is the FNV-1a checksum of a table's arrays, in file order.
func checksum(val, dtz [2][]byte) uint64 {
	h := fnv.New64a()
	for _, a := range [][]byte{val[0], val[1], dtz[0], dtz[1]} {
		h.Write(a)
	}
	return h.Sum64()
}

// Save writes the table to dir atomically, as a generation does: every
// distance stored, compressed at the quicker level (packed.Options): a
// temporary file in dir, renamed over the table's name. A failure names
// its cause and leaves no temporary file behind.
func (t *Table) Save(dir string) error {
	return t.save(dir, packed.Options{})
}

// SaveSmallest is Save compressing at the best level: 8–15% fewer bytes
// for twice the time (a set repacked to ship with every distance).
func (t *Table) SaveSmallest(dir string) error {
	return t.save(dir, packed.Options{Smallest: true})
}

// SaveOneSide is SaveSmallest storing the distances of one side to move
// only (the one whose distances take fewer bytes; both where dropping
// either would save under 1%), as a set of tables is shipped: about half
// the bytes, and the other side's distances found by one ply of search
// over this table and the smaller ones, which must then be at hand.
func (t *Table) SaveOneSide(dir string) error {
	return t.save(dir, packed.Options{Smallest: true, OneSide: true})
}

// save writes the table with o's packing (its Threads: every processor).
func (t *Table) save(dir string, o packed.Options) error {
	if err := t.write(dir, o); err != nil {
		return fmt.Errorf("cannot save the %s table: %w", t.Material, err)
	}
	return nil
}

// RepackOneSide writes a table read from a file that stores every
// distance to dir as SaveOneSide does, one side's distances dropped, but
// from the file's compressed blocks as they are: nothing is decompressed
// whole or compressed again (seconds for a five-piece table where
// SaveOneSide takes minutes), and the blocks keep the level they were
// compressed at. The side dropped is searched at sample positions and
// compared with its stored entries first, as SaveOneSide does.
func (t *Table) RepackOneSide(dir string) error {
	if t.packed == nil {
		return fmt.Errorf("cannot repack the %s table: it was not read from a file", t.Material)
	}
	err := t.target(dir)
	if err == nil {
		var blocks *packed.Packed
		if blocks, err = t.packed.DropDistances(); err == nil {
			err = t.writePacked(dir, blocks)
		} else if !errors.Is(err, packed.ErrDropped) {
			err = t.damaged(err)
		}
	}
	if err != nil {
		return fmt.Errorf("cannot repack the %s table: %w", t.Material, err)
	}
	return nil
}

// target makes dir and checks that nothing but a table file is in the
// table's place.
func (t *Table) target(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, FileName(t.Variant, t.Material))
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is a %s, not a table file", path, fileKind(st))
	}
	return nil
}

func (t *Table) write(dir string, o packed.Options) error {
	if t.packed != nil {
		return errors.New("the table was read from its file")
	}
	if err := t.target(dir); err != nil {
		return err
	}
	if t.Val[0] == nil || t.Val[1] == nil {
		return errors.New("a side's entries are not in memory")
	}
	l := packed.Layout{Entries: t.Geo.Size, BlockEntries: packed.DefaultBlockEntries, HasDTZ: t.HasDTZ()}
	o.Threads = runtime.GOMAXPROCS(0)
	blocks, err := packed.Encode(l, t.Val, t.DTZ, o)
	if err != nil {
		return err
	}
	return t.writePacked(dir, blocks)
}

// writePacked writes the table's header and its packed blocks to dir, a
// dropped side's search checked first (checkSearchedSide).
func (t *Table) writePacked(dir string, blocks *packed.Packed) error {
	h := header{Magic: magic, Version: formatVersion, Width: uint8(t.Geo.W), Height: uint8(t.Geo.H),
		Pieces: uint8(len(t.Geo.Pieces)), Entries: uint32(t.Geo.Size), Checksum: t.Checksum(),
		Fingerprint: Fingerprint(t.Variant, t.Material), BlockEntries: uint32(blocks.Layout.BlockEntries)}
	stored := byte(bothDistances)
	for side, dropped := range blocks.Layout.Dropped {
		if dropped {
			if err := t.checkSearchedSide(side); err != nil {
				return err
			}
			stored &^= 1 << side
		}
	}
	var head bytes.Buffer
	if stored == bothDistances {
		// Every distance stored is format 4 exactly, which Chimera
		// releases before one-side files read too.
		h.Version = 4
	}
	binary.Write(&head, binary.LittleEndian, h)
	if h.Version >= 5 {
		head.WriteByte(stored)
	}
	for _, s := range []string{t.Variant.Name, t.Material.String()} {
		binary.Write(&head, binary.LittleEndian, uint16(len(s)))
		head.WriteString(s)
	}
	binary.Write(&head, binary.LittleEndian, crc32.Checksum(head.Bytes(), castagnoli))
	// A table is data anyone may read (a shared table directory, a
	// server's replicas), written whole or not at all.
	path := filepath.Join(dir, FileName(t.Variant, t.Material))
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		if _, err := w.Write(head.Bytes()); err != nil {
			return err
		}
		_, err := blocks.WriteTo(w)
		return err
	})
}

// castagnoli is the CRC-32C table of the header's checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fileKind names what a path that should be a table file is instead.
func fileKind(st os.FileInfo) string {
	if st.IsDir() {
		return "directory"
	}
	return "special file (" + st.Mode().Type().String() + ")"
}

// Load opens the table of a material in dir, with a block cache of its
// own (a store shares one among its tables). A missing file is an
// os.ErrNotExist error; a damaged one wraps ErrCorrupt, and one made for
// another definition of the variant (or by an older format) ErrStale.
func Load(dir string, v *engine.Variant, m Material) (*Table, error) {
	return open(dir, v, m, packed.NewCache(0))
}

// open reads a table file's header and index; its blocks are read when
// probes need them, through cache. The file stays open while the table is
// in use (and is closed with it, when nothing holds the table any more).
func open(dir string, v *engine.Variant, m Material, cache *packed.Cache) (*Table, error) {
	path := filepath.Join(dir, FileName(v, m))
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	t, err := openFile(f, path, v, m, cache)
	if err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

func openFile(f *os.File, path string, v *engine.Variant, m Material, cache *packed.Cache) (*Table, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is a %s, not a table file", path, fileKind(st))
	}
	g, err := newGeometry(v, m)
	if err != nil {
		return nil, err
	}
	corrupt := func(what string) error { return fmt.Errorf("%s: %s: %w", path, what, ErrCorrupt) }
	head := &countingReader{r: bufio.NewReader(io.NewSectionReader(f, 0, st.Size()))}
	h, stored, err := readHeader(head, path, v, m)
	if err != nil {
		return nil, err
	}
	want := head.crc
	var sum uint32
	if err := binary.Read(head, binary.LittleEndian, &sum); err != nil {
		return nil, corrupt("short header")
	}
	if sum != want {
		return nil, corrupt("header checksum mismatch")
	}
	if int(h.Width) != g.W || int(h.Height) != g.H || int(h.Pieces) != len(g.Pieces) || int(h.Entries) != g.Size {
		return nil, corrupt("board or material does not match")
	}
	if err := checkFingerprint(h, path, v, m); err != nil {
		return nil, err
	}
	l := packed.Layout{Entries: g.Size, BlockEntries: int(h.BlockEntries), HasDTZ: HasDTZ(v),
		Dropped: [2]bool{stored&whiteDistances == 0, stored&blackDistances == 0}}
	r, err := packed.Open(f, head.n, l, cache)
	if err != nil {
		return nil, corrupt(err.Error())
	}
	if size := r.Size(); size != st.Size() {
		return nil, corrupt(fmt.Sprintf("%d bytes, the index says %d", st.Size(), size))
	}
	t := &Table{Variant: v, Material: m, Data: layout.Data{Geo: g}, packed: r, file: f}
	t.sum.Store(h.Checksum)
	return t, nil
}

// countingReader counts and checksums the bytes read through it: the
// header's length and CRC-32C.
type countingReader struct {
	r   io.Reader
	n   int64
	crc uint32
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	c.crc = crc32.Update(c.crc, castagnoli, b[:n])
	return n, err
}

// readHeader reads a file's header, the names included, and checks that
// it is a Chimera table of a format read here named for v and m; stored
// says whose distances the file holds (the bits of bothDistances).
func readHeader(r io.Reader, path string, v *engine.Variant, m Material) (h header, stored byte, err error) {
	corrupt := func(what string) error { return fmt.Errorf("%s: %s: %w", path, what, ErrCorrupt) }
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return h, 0, corrupt("short header")
	}
	switch {
	case h.Magic != magic:
		return h, 0, corrupt("not a Chimera tablebase")
	case h.Version < 2:
		return h, 0, fmt.Errorf("%s: format version %d records no fingerprint of its variant: %w", path, h.Version, ErrStale)
	case h.Version < 3:
		return h, 0, fmt.Errorf("%s: format version %d holds no distances to zeroing: %w", path, h.Version, ErrStale)
	case h.Version < 4:
		return h, 0, fmt.Errorf("%s: format version %d stores its entries uncompressed: %w", path, h.Version, ErrStale)
	case h.Version > formatVersion:
		return h, 0, corrupt(fmt.Sprintf("format version %d, this Chimera reads up to %d", h.Version, formatVersion))
	}
	stored = bothDistances
	if h.Version >= 5 {
		var b [1]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return h, 0, corrupt("short header")
		}
		if stored = b[0]; stored == 0 || stored&^bothDistances != 0 {
			return h, 0, corrupt(fmt.Sprintf("stored distances %#x", stored))
		}
	}
	for _, want := range []string{v.Name, m.String()} {
		var n uint16
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil || int(n) != len(want) {
			return h, 0, corrupt("names do not match")
		}
		got := make([]byte, n)
		if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
			return h, 0, corrupt("names do not match")
		}
	}
	return h, stored, nil
}

// checkFingerprint says whether a header's table was made for the variant
// as it is now.
func checkFingerprint(h header, path string, v *engine.Variant, m Material) error {
	if want := Fingerprint(v, m); h.Fingerprint != want {
		return fmt.Errorf("%s: made for another definition of %s (fingerprint %016x, the variant's now %016x): %w",
			path, v.Name, h.Fingerprint, want, ErrStale)
	}
	return nil
}

// CheckFile reads only the header of a material's table file and says
// whether the file is one of this format made for the variant as it is
// now: what can be known without reading the entries (Load also checks
// their checksum). An error wraps os.ErrNotExist, ErrCorrupt or ErrStale.
func CheckFile(dir string, v *engine.Variant, m Material) error {
	path := filepath.Join(dir, FileName(v, m))
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h, _, err := readHeader(bufio.NewReader(f), path, v, m)
	if err != nil {
		return err
	}
	return checkFingerprint(h, path, v, m)
}
