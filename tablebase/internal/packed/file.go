package packed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync/atomic"
)

// DefaultBlockEntries is how many entries a block holds unless told
// otherwise (a file records its own): 16,384 made the chess tables of up
// to four pieces 11% larger than 65,536 did (one side stored: 17.7 MB
// against 15.9), and a cold probe 1.4 times quicker, a cold probe of a
// searched side (a block for each move) 2.7 times: a probe decodes
// whole blocks, and a table's bytes were never the scarce thing.
const DefaultBlockEntries = 1 << 14

// Layout describes the entries a packed section holds.
type Layout struct {
	Entries      int  // entries per side to move
	BlockEntries int  // entries per block (the last block may hold fewer)
	HasDTZ       bool // distances to zeroing are stored
	// Dropped, by side to move: only the outcomes of its entries are
	// stored, no distances (to mate or zeroing); those are found by one
	// ply of search over the other side's entries (tablebase's job).
	Dropped [2]bool
}

// blocks is the number of blocks per side to move.
func (l Layout) blocks() int { return (l.Entries + l.BlockEntries - 1) / l.BlockEntries }

// blockLen is the number of entries of block b.
func (l Layout) blockLen(b int) int { return min(l.BlockEntries, l.Entries-b*l.BlockEntries) }

// Reader reads the blocks of a packed section on demand, through a block
// cache. It is safe for concurrent use.
type Reader struct {
	r     io.ReaderAt
	base  int64 // where the first block starts in r
	l     Layout
	ends  []uint64 // by side·blocks + block: the block's end offset
	cache *Cache
	id    uint64 // the reader's key in the cache
	codec *decoder
	// last is, by side to move, the block read last: asked for again (as
	// the probes of one ending are, many times over) it is returned
	// without the cache's lock. Its entries are the cache's, so keeping
	// one allocates nothing; a reader may so hold two blocks the cache
	// has dropped.
	last [2]atomic.Pointer[entry]
}

// Open reads the index of a packed section starting at offset in r.
func Open(r io.ReaderAt, offset int64, l Layout, cache *Cache) (*Reader, error) {
	if l.Entries <= 0 || l.BlockEntries <= 0 {
		return nil, fmt.Errorf("no entries: %w", ErrDamaged)
	}
	n := 2 * l.blocks()
	raw := make([]byte, 8*n+4)
	if _, err := r.ReadAt(raw, offset); err != nil {
		return nil, fmt.Errorf("index: %v: %w", err, ErrDamaged)
	}
	if crc32.Checksum(raw[:8*n], castagnoli) != binary.LittleEndian.Uint32(raw[8*n:]) {
		return nil, fmt.Errorf("index checksum mismatch: %w", ErrDamaged)
	}
	ends := make([]uint64, n)
	var prev uint64
	for i := range ends {
		ends[i] = binary.LittleEndian.Uint64(raw[8*i:])
		if ends[i] < prev || ends[i]-prev > maxRecord(l) {
			return nil, fmt.Errorf("index offsets: %w", ErrDamaged)
		}
		prev = ends[i]
	}
	c, err := cache.decoder()
	if err != nil {
		return nil, err
	}
	return &Reader{r: r, base: offset + int64(len(raw)), l: l, ends: ends, cache: cache, id: cache.newID(), codec: c}, nil
}

// maxRecord bounds a block record's size: zstd never grows data by more
// than a little, so anything bigger is a damaged index.
func maxRecord(l Layout) uint64 { return uint64(3*l.BlockEntries + 1024) }

// Size returns the bytes of the section: index and blocks.
func (r *Reader) Size() int64 { return r.base + int64(r.ends[len(r.ends)-1]) }

// ErrDropped is Entry's error for a side whose distances are not stored:
// ask Outcome, or search one ply.
var ErrDropped = errors.New("the side's distances are not stored")

// Dropped reports whether side's distances are not stored, only its
// outcomes.
func (r *Reader) Dropped(side int) bool { return r.l.Dropped[side] }

// Entry returns the value and distance to zeroing (0 without them) of
// entry idx, side to move side (ErrDropped where only outcomes are
// stored).
func (r *Reader) Entry(side, idx int) (val, dtz byte, err error) {
	if idx < 0 || idx >= r.l.Entries {
		return 0, 0, fmt.Errorf("entry %d out of range", idx)
	}
	if r.l.Dropped[side] {
		return 0, 0, ErrDropped
	}
	blk, err := r.Block(side, idx/r.l.BlockEntries)
	if err != nil {
		return 0, 0, err
	}
	val, dtz = blk.entry(idx % r.l.BlockEntries)
	return val, dtz, nil
}

// Cached is Entry without waiting: the entry when its block is decoded
// already, else false, the block then being read and decoded in the
// background (one at a time per cache; a request while one runs is
// dropped, and made again by a later probe). A search's tree probes this
// way: it never waits on the disk or a decode. A damaged block is never
// kept, so its entries stay unanswered here; Entry reports it.
func (r *Reader) Cached(side, idx int) (val, dtz byte, ok bool) {
	if idx < 0 || idx >= r.l.Entries || r.l.Dropped[side] {
		return 0, 0, false
	}
	e := r.cached(side, idx)
	if e == nil {
		return 0, 0, false
	}
	val, dtz = e.blk.entry(idx % r.l.BlockEntries)
	return val, dtz, true
}

// Outcome returns entry idx's outcome for the side to move: 1 a win, 0 a
// draw (or no position), −1 a loss. It is stored for both sides.
func (r *Reader) Outcome(side, idx int) (int, error) {
	if idx < 0 || idx >= r.l.Entries {
		return 0, fmt.Errorf("entry %d out of range", idx)
	}
	blk, err := r.Block(side, idx/r.l.BlockEntries)
	if err != nil {
		return 0, err
	}
	return blk.wdl(idx % r.l.BlockEntries), nil
}

// CachedOutcome is Outcome without waiting, as Cached is Entry.
func (r *Reader) CachedOutcome(side, idx int) (wdl int, ok bool) {
	if idx < 0 || idx >= r.l.Entries {
		return 0, false
	}
	e := r.cached(side, idx)
	if e == nil {
		return 0, false
	}
	return e.blk.wdl(idx % r.l.BlockEntries), true
}

// cached returns the cache entry of idx's block when it is decoded, else
// nil, the block then being read and decoded in the background (Cached).
func (r *Reader) cached(side, idx int) *entry {
	b := idx / r.l.BlockEntries
	k, e := r.held(side, b)
	if e == nil && r.cache.startWarming(k) {
		go func() {
			defer r.cache.doneWarming(k)
			if blk, err := r.readBlock(side, b); err == nil {
				r.cache.put(k, blk)
			}
		}()
	}
	return e
}

// Block returns block b of side to move side, from the cache or read and
// decoded.
func (r *Reader) Block(side, b int) (*Block, error) {
	k, e := r.held(side, b)
	if e == nil {
		blk, err := r.readBlock(side, b)
		if err != nil {
			return nil, err
		}
		e = r.cache.put(k, blk)
		r.last[side].Store(e)
	}
	return e.blk, nil
}

// held returns block b's key and, when it is decoded, its cache entry
// (the side's last block first), kept as the side's last.
func (r *Reader) held(side, b int) (key, *entry) {
	k := key{reader: r.id, block: uint32(side*r.l.blocks() + b)}
	if last := r.last[side].Load(); last != nil && last.k == k {
		return k, last
	}
	e := r.cache.get(k)
	if e != nil {
		r.last[side].Store(e)
	}
	return k, e
}

// Dense decodes every entry: by side to move, the values and (nil without
// them) the distances to zeroing; nil both for a side whose distances are
// dropped (Outcomes reads its). Entries that are no position read as
// draws.
func (r *Reader) Dense() (val, dtz [2][]byte, err error) {
	for side := range 2 {
		if r.l.Dropped[side] {
			continue
		}
		val[side] = make([]byte, 0, r.l.Entries)
		if r.l.HasDTZ {
			dtz[side] = make([]byte, 0, r.l.Entries)
		}
		for b := range r.l.blocks() {
			blk, err := r.readBlock(side, b)
			if err != nil {
				return val, dtz, err
			}
			val[side] = append(val[side], blk.Val...)
			if r.l.HasDTZ {
				dtz[side] = append(dtz[side], blk.DTZ...)
			}
		}
	}
	return val, dtz, nil
}

// Outcomes decodes the outcome of every entry of side to move side: 1 a
// win, 0 a draw (or no position), −1 a loss.
func (r *Reader) Outcomes(side int) ([]int8, error) {
	out := make([]int8, 0, r.l.Entries)
	for b := range r.l.blocks() {
		blk, err := r.readBlock(side, b)
		if err != nil {
			return nil, err
		}
		for i := range r.l.blockLen(b) {
			out = append(out, int8(blk.wdl(i)))
		}
	}
	return out, nil
}

// DropDistances returns the section again with one side's distances left
// out, chosen as Encode with Options.OneSide chooses (by the streams'
// compressed bytes, here at the level the file was written at: a
// recompression may pick the other side), without compressing anything
// again: the kept blocks are copied as they are, a
// dropped side's blocks keep their outcome frame (decoded once to check
// it), so they stay at the level they were compressed at. Every block's
// CRC is checked as it is read. A section with a side dropped already is
// ErrDropped; one where dropping would save under 1% comes back whole.
func (r *Reader) DropDistances() (*Packed, error) {
	if r.l.Dropped[0] || r.l.Dropped[1] {
		return nil, fmt.Errorf("a side's distances are dropped already: %w", ErrDropped)
	}
	recs := make([][]byte, len(r.ends))
	for j := range recs {
		rec, err := r.readRecord(j, nil)
		if err != nil {
			return nil, err
		}
		if err := checkRecord(rec); err != nil {
			return nil, fmt.Errorf("block %d of side %d: %w", j%r.l.blocks(), j/r.l.blocks(), err)
		}
		recs[j] = rec
	}
	p := &Packed{Layout: r.l, recs: recs}
	if err := p.dropDistances(r.codec, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// readBlock is Block without the cache: a whole-table read would only
// push out the blocks probes use.
func (r *Reader) readBlock(side, b int) (*Block, error) {
	rec, err := r.readRecord(side*r.l.blocks()+b, nil)
	if err != nil {
		return nil, err
	}
	blk, err := r.codec.decodeBlock(rec, r.l.blockLen(b), r.l.HasDTZ, r.l.Dropped[side])
	if err != nil {
		return nil, fmt.Errorf("block %d of side %d: %w", b, side, err)
	}
	return blk, nil
}

// IndexBytes returns the memory the reader holds: its block index.
func (r *Reader) IndexBytes() int64 { return int64(8 * len(r.ends)) }

// HasDTZ reports whether the section holds distances to zeroing.
func (r *Reader) HasDTZ() bool { return r.l.HasDTZ }

// Check reads every block and checks its CRC, without decoding: what a
// damaged file is found by before it is trusted for a generation.
func (r *Reader) Check() error {
	var rec []byte
	for j := range r.ends {
		var err error
		if rec, err = r.readRecord(j, rec); err != nil {
			return err
		}
		if err := checkRecord(rec); err != nil {
			return fmt.Errorf("block %d of side %d: %w", j%r.l.blocks(), j/r.l.blocks(), err)
		}
	}
	return nil
}

// readRecord reads record j (side·blocks + block) into buf, grown as
// needed.
func (r *Reader) readRecord(j int, buf []byte) ([]byte, error) {
	start := uint64(0)
	if j > 0 {
		start = r.ends[j-1]
	}
	n := int(r.ends[j] - start)
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := r.r.ReadAt(buf, r.base+int64(start)); err != nil {
		return nil, fmt.Errorf("block %d of side %d: %v: %w", j%r.l.blocks(), j/r.l.blocks(), err, ErrDamaged)
	}
	return buf, nil
}
