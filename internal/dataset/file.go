package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// maxString bounds a header string: a longer length is damage.
const maxString = 1 << 16

// Reader reads a file's games in order.
type Reader struct {
	f      io.Closer // nil: nothing to close
	r      *bufio.Reader
	header Header
	// offset is the file offset of the next block; damaged is set once a
	// block fails its checks (Next then reports io.EOF).
	offset  int64
	damaged error
	payload []byte
}

// Open opens the file at path and reads its header.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.f = f
	return r, nil
}

// NewReader reads the header of the data in src, ready to read its
// games.
func NewReader(src io.Reader) (*Reader, error) {
	r := &Reader{r: bufio.NewReaderSize(src, 1<<20)}
	n, err := r.readHeader()
	if err != nil {
		return nil, err
	}
	r.offset = n
	return r, nil
}

// Header returns the file's header.
func (r *Reader) Header() Header { return r.header }

// Close closes the file Open opened.
func (r *Reader) Close() error {
	if r.f == nil {
		return nil
	}
	return r.f.Close()
}

// Damaged returns why reading stopped before the end of the file, or nil:
// a block cut short or failing its checksum (a run killed mid-write, or
// damage).
func (r *Reader) Damaged() error { return r.damaged }

// Next reads the next game into g (reusing its slices), or returns io.EOF
// after the last whole game.
func (r *Reader) Next(g *Game) error {
	if r.damaged != nil {
		return io.EOF
	}
	var head [blockHeaderSize]byte
	if _, err := io.ReadFull(r.r, head[:]); err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return r.damage(fmt.Errorf("a block's header at byte %d: %w", r.offset, ErrCutShort))
	}
	if string(head[:4]) != blockMagic {
		return r.damage(fmt.Errorf("no block starts at byte %d", r.offset))
	}
	g.Index = binary.LittleEndian.Uint64(head[4:])
	g.Result = int8(head[12])
	count := binary.LittleEndian.Uint32(head[13:])
	size := binary.LittleEndian.Uint32(head[17:])
	sum := binary.LittleEndian.Uint32(head[21:])
	if g.Result < -1 || g.Result > 1 || size > maxPayload {
		return r.damage(fmt.Errorf("the block at byte %d is damaged", r.offset))
	}
	if cap(r.payload) < int(size) {
		r.payload = make([]byte, size)
	}
	payload := r.payload[:size]
	if _, err := io.ReadFull(r.r, payload); err != nil {
		return r.damage(fmt.Errorf("the block at byte %d: %w", r.offset, ErrCutShort))
	}
	if crc32.Checksum(payload, castagnoli) != sum {
		return r.damage(fmt.Errorf("the block at byte %d fails its checksum", r.offset))
	}
	g.Positions = g.Positions[:0]
	for range count {
		// Grown within its capacity, the slice keeps the Board and Hand
		// slices of the positions read before: decoding reuses them.
		if n := len(g.Positions); n < cap(g.Positions) {
			g.Positions = g.Positions[:n+1]
		} else {
			g.Positions = append(g.Positions, Position{})
		}
		var err error
		payload, err = decodePosition(payload, &g.Positions[len(g.Positions)-1], r.header.Width, r.header.Height)
		if err != nil {
			return r.damage(fmt.Errorf("the block at byte %d: %w", r.offset, err))
		}
	}
	if len(payload) != 0 {
		return r.damage(fmt.Errorf("the block at byte %d holds more than its positions", r.offset))
	}
	r.offset += blockHeaderSize + int64(size)
	return nil
}

// damage records why reading stopped and reports the end.
func (r *Reader) damage(err error) error {
	r.damaged = err
	return io.EOF
}

// readHeader reads and checks the header, returning its length.
func (r *Reader) readHeader() (int64, error) {
	cr := &countingReader{r: r.r}
	magic := make([]byte, len(fileMagic)+2)
	if _, err := io.ReadFull(cr, magic); err != nil || string(magic[:len(fileMagic)]) != fileMagic {
		return 0, errors.New("not a Chimera training-data file")
	}
	if v := binary.LittleEndian.Uint16(magic[len(fileMagic):]); v < 1 || v > Version {
		return 0, fmt.Errorf("training data of format version %d; this program reads versions 1 to %d", v, Version)
	}
	var h Header
	var err error
	if h.Variant, err = readString(cr); err != nil {
		return 0, err
	}
	var fp [8]byte
	if _, err := io.ReadFull(cr, fp[:]); err != nil {
		return 0, errors.New("the header is cut short")
	}
	h.Fingerprint = binary.LittleEndian.Uint64(fp[:])
	w, err1 := binary.ReadUvarint(cr)
	ht, err2 := binary.ReadUvarint(cr)
	if err1 != nil || err2 != nil || w < 1 || w > 16 || ht < 1 || ht > 16 {
		return 0, errors.New("the header's board size is damaged")
	}
	h.Width, h.Height = int(w), int(ht)
	if h.Command, err = readString(cr); err != nil {
		return 0, err
	}
	r.header = h
	return cr.n, nil
}

func readString(r *countingReader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > maxString {
		return "", errors.New("the header is damaged")
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return "", errors.New("the header is cut short")
	}
	return string(buf), nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// Writer appends games to a file.
type Writer struct {
	f      *os.File
	header Header
	// done holds the indices of the games the file holds; positions
	// counts their positions.
	done      map[uint64]bool
	positions int64
}

// Append opens the file at path to add games with header h: a new file
// is created with it; an existing one must have been made for the same
// variant, board and definition (ErrForeign otherwise), and a damaged or
// cut-short last block (a run killed mid-write) is cut off.
func Append(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	// One writer a file: two runs appending to one file would interleave
	// their games' bytes (it happened: a run left behind by a stopped
	// script, a second started on the same file).
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w, err := appendLocked(f, path, h)
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// appendLocked is Append once the file is open and locked.
func appendLocked(f *os.File, path string, h Header) (*Writer, error) {
	w := &Writer{header: h, done: map[uint64]bool{}}
	end := int64(0)
	if r, err := Open(path); err == nil {
		if err := r.Header().Matches(h); err != nil {
			r.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		w.header.Command = r.Header().Command
		var g Game
		for r.Next(&g) == nil {
			w.done[g.Index] = true
			w.positions += int64(len(g.Positions))
		}
		end = r.offset
		r.Close()
	} else if st, statErr := f.Stat(); statErr != nil || st.Size() > 0 {
		return nil, err // not a training-data file: left as it is
	}
	if end == 0 {
		// A new or empty file: the header first.
		if err := f.Truncate(0); err != nil {
			return nil, err
		}
		if _, err := f.Write(appendHeader(nil, h)); err != nil {
			return nil, err
		}
	} else if err := f.Truncate(end); err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return nil, err
	}
	w.f = f
	return w, nil
}

// Header returns the file's header (its command the first run's).
func (w *Writer) Header() Header { return w.header }

// Has reports whether the file holds game index i.
func (w *Writer) Has(i uint64) bool { return w.done[i] }

// Games returns the number of games the file holds.
func (w *Writer) Games() int { return len(w.done) }

// Positions returns the number of positions the file holds.
func (w *Writer) Positions() int64 { return w.positions }

// Write appends g in one write, so that a run killed meanwhile leaves at
// most this block cut short.
func (w *Writer) Write(g *Game) error {
	if _, err := w.f.Write(encodeBlock(g, w.header.Width, w.header.Height)); err != nil {
		return err
	}
	w.done[g.Index] = true
	w.positions += int64(len(g.Positions))
	return nil
}

// Close syncs and closes the file.
func (w *Writer) Close() error {
	err := w.f.Sync()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}
