package tablebase

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"github.com/chimera-chess/chimera/engine"
)

// The file format: a header, then one byte per entry for White to move and
// one per entry for Black to move. The header holds the magic, the format
// version, the variant's name and board size, the material, the entry
// count and an FNV-1a checksum of the entries.
var magic = [8]byte{'C', 'H', 'I', 'M', 'E', 'R', 'A', 'T'}

const formatVersion = 1

// ErrCorrupt marks a table file that is damaged or does not match.
var ErrCorrupt = errors.New("tablebase file is damaged or does not match")

type header struct {
	Magic         [8]byte
	Version       uint16
	Width, Height uint8
	Pieces        uint8
	Entries       uint32
	Checksum      uint64
}

// FileName is the file a table is stored in: variant-material.ctb.
func FileName(v *engine.Variant, m Material) string {
	return fmt.Sprintf("%s-%s.ctb", v.Name, m)
}

func checksum(val [2][]byte) uint64 {
	h := fnv.New64a()
	h.Write(val[0])
	h.Write(val[1])
	return h.Sum64()
}

// Save writes the table to dir, atomically (a temporary file renamed).
func (t *Table) Save(dir string) error {
	if err := t.save(dir); err != nil {
		return fmt.Errorf("cannot save the %s table: %w", t.Material, err)
	}
	return nil
}

func (t *Table) save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	h := header{Magic: magic, Version: formatVersion, Width: uint8(t.geo.w), Height: uint8(t.geo.h),
		Pieces: uint8(len(t.geo.pieces)), Entries: uint32(t.geo.size), Checksum: checksum(t.val)}
	binary.Write(&b, binary.LittleEndian, h)
	for _, s := range []string{t.Variant.Name, t.Material.String()} {
		binary.Write(&b, binary.LittleEndian, uint16(len(s)))
		b.WriteString(s)
	}
	b.Write(t.val[0])
	b.Write(t.val[1])
	path := filepath.Join(dir, FileName(t.Variant, t.Material))
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return nil
}

// Load reads the table of a material from dir. A missing file is an
// os.ErrNotExist error; a damaged or mismatched one wraps ErrCorrupt.
func Load(dir string, v *engine.Variant, m Material) (*Table, error) {
	path := filepath.Join(dir, FileName(v, m))
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	g, err := newGeometry(v, m)
	if err != nil {
		return nil, err
	}
	corrupt := func(what string) error { return fmt.Errorf("%s: %s: %w", path, what, ErrCorrupt) }
	var h header
	if err := binary.Read(f, binary.LittleEndian, &h); err != nil {
		return nil, corrupt("short header")
	}
	switch {
	case h.Magic != magic:
		return nil, corrupt("not a Chimera tablebase")
	case h.Version != formatVersion:
		return nil, corrupt(fmt.Sprintf("format version %d, want %d", h.Version, formatVersion))
	case int(h.Width) != g.w || int(h.Height) != g.h || int(h.Pieces) != len(g.pieces) || int(h.Entries) != g.size:
		return nil, corrupt("board or material does not match")
	}
	for _, want := range []string{v.Name, m.String()} {
		var n uint16
		if err := binary.Read(f, binary.LittleEndian, &n); err != nil || int(n) != len(want) {
			return nil, corrupt("names do not match")
		}
		got := make([]byte, n)
		if _, err := io.ReadFull(f, got); err != nil || string(got) != want {
			return nil, corrupt("names do not match")
		}
	}
	t := &Table{Variant: v, Material: m, geo: g}
	for c := range t.val {
		t.val[c] = make([]byte, g.size)
		if _, err := io.ReadFull(f, t.val[c]); err != nil {
			return nil, corrupt("truncated")
		}
	}
	if extra, _ := f.Read(make([]byte, 1)); extra != 0 {
		return nil, corrupt("trailing data")
	}
	if checksum(t.val) != h.Checksum {
		return nil, corrupt("checksum mismatch")
	}
	return t, nil
}
