package packed

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// The packed section: the index, then the blocks of White to move, then
// Black's. The index is each block's end offset (uint64, from the first
// block's start; White's blocks, then Black's) and a CRC-32C of the
// index; a block starts where the one before ends. A side whose
// distances are dropped (Layout.Dropped) has blocks of its outcomes only.

// minOneSideSaving is the share of a table's bytes dropping a side's
// distances must save to be done: below it (KBvK, KNvK: a few bytes) the
// probes' one-ply search would cost more than the bytes are worth.
const minOneSideSaving = 0.01

// Packed is a table's entries compressed and checked, ready to be
// written: its Layout says which side's distances were dropped.
type Packed struct {
	Layout Layout
	recs   [][]byte // by side·blocks + block
}

// Options say how Encode packs a table's entries.
type Options struct {
	// Threads is how many blocks are compressed at once (at least one).
	Threads int
	// OneSide keeps only the outcomes of the side to move whose distance
	// streams take more bytes (unless that saves under 1%): its distances
	// are then what one ply of search over the other side's finds.
	OneSide bool
	// Smallest compresses at zstd's best level, as a set is shipped:
	// measured on the chess tables of up to five pieces, 8–15% fewer
	// bytes than the default, which a generation writes (its files are
	// read whole by the next ones, and repacked to ship), for twice the
	// time.
	Smallest bool
}

// Write compresses the entries of both sides (dtz ignored without
// distances to zeroing) into w, every side's distances kept: Encode,
// then WriteTo.
func Write(w io.Writer, l Layout, val, dtz [2][]byte, threads int) error {
	p, err := Encode(l, val, dtz, Options{Threads: threads})
	if err != nil {
		return err
	}
	_, err = p.WriteTo(w)
	return err
}

// Encode compresses the entries of both sides (dtz ignored without
// distances to zeroing), and checks every block by decoding it again: a
// block that would not read back as written is an error, never a file.
// l.Dropped is ignored; the result's Layout says which side's distances
// Options.OneSide dropped.
func Encode(l Layout, val, dtz [2][]byte, o Options) (*Packed, error) {
	l.Dropped = [2]bool{}
	enc, err := newEncoder(o.Smallest)
	if err != nil {
		return nil, err
	}
	dec, err := newDecoder()
	if err != nil {
		return nil, err
	}
	n := l.blocks()
	recs := make([][]byte, 2*n)
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(o.Threads, 1) {
		wg.Go(func() {
			for job := range next {
				side, b := job/n, job%n
				lo, hi := b*l.BlockEntries, b*l.BlockEntries+l.blockLen(b)
				var z []byte
				if l.HasDTZ {
					z = dtz[side][lo:hi]
				}
				rec := enc.encodeBlock(nil, val[side][lo:hi], z, l.HasDTZ)
				if err := check(dec, rec, val[side][lo:hi], z, l.HasDTZ); err != nil {
					mu.Lock()
					firstErr = cmp.Or(firstErr, fmt.Errorf("block %d of side %d: %w", b, side, err))
					mu.Unlock()
				}
				recs[job] = rec
			}
		})
	}
	for job := range recs {
		next <- job
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	p := &Packed{Layout: l, recs: recs}
	if o.OneSide {
		if err := p.dropDistances(dec, &val); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// dropDistances keeps only the outcomes of the side whose distance
// streams are larger, when that saves enough, and checks the outcome
// blocks it makes against the entries (val; nil when the records were
// read from a file: then each outcome block is decoded to check it).
func (p *Packed) dropDistances(dec *decoder, val *[2][]byte) error {
	n := p.Layout.blocks()
	var total int
	var distances [2]int
	for j, rec := range p.recs {
		total += len(rec)
		frame, err := outcomeFrame(rec, p.Layout.HasDTZ)
		if err != nil {
			return err
		}
		distances[j/n] += len(rec) - len(frame) - 4
	}
	side := 0
	if distances[1] > distances[0] {
		side = 1
	}
	if float64(distances[side]) < minOneSideSaving*float64(total) {
		return nil
	}
	for b := range n {
		j := side*n + b
		frame, _ := outcomeFrame(p.recs[j], p.Layout.HasDTZ)
		rec := append([]byte(nil), frame...)
		rec = binary.LittleEndian.AppendUint32(rec, crc32.Checksum(rec, castagnoli))
		lo, n := b*p.Layout.BlockEntries, p.Layout.blockLen(b)
		var err error
		if val != nil {
			err = checkOutcomes(dec, rec, val[side][lo:lo+n])
		} else {
			_, err = dec.decodeBlock(rec, n, false, true)
		}
		if err != nil {
			return fmt.Errorf("block %d of side %d: %w", b, side, err)
		}
		p.recs[j] = rec
	}
	p.Layout.Dropped[side] = true
	return nil
}

// WriteTo writes the section: the index, then the blocks.
func (p *Packed) WriteTo(w io.Writer) (int64, error) {
	index := make([]byte, 0, 8*len(p.recs)+4)
	var end uint64
	for _, rec := range p.recs {
		end += uint64(len(rec))
		index = binary.LittleEndian.AppendUint64(index, end)
	}
	index = binary.LittleEndian.AppendUint32(index, crc32.Checksum(index, castagnoli))
	written, err := w.Write(index)
	if err != nil {
		return int64(written), err
	}
	total := int64(written)
	for _, rec := range p.recs {
		k, err := w.Write(rec)
		total += int64(k)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// check decodes a block record and compares it with the entries it was
// made from, positions only.
func check(c *decoder, rec, val, dtz []byte, hasDTZ bool) error {
	blk, err := c.decodeBlock(rec, len(val), hasDTZ, false)
	if err != nil {
		return err
	}
	for i, v := range val {
		if v == notPosition {
			continue
		}
		if blk.Val[i] != v || (hasDTZ && blk.DTZ[i] != dtz[i]) {
			return fmt.Errorf("entry %d reads back as %d/%d, not %d", i, blk.Val[i], zeroAt(blk.DTZ, i), v)
		}
	}
	return nil
}

// checkOutcomes decodes an outcome block record and compares it with the
// entries it was made from, positions only.
func checkOutcomes(c *decoder, rec, val []byte) error {
	blk, err := c.decodeBlock(rec, len(val), false, true)
	if err != nil {
		return err
	}
	for i, v := range val {
		if v != notPosition && blk.Out[i] != outcomeOf(v) {
			return fmt.Errorf("entry %d's outcome reads back as %d, not that of %d", i, blk.Out[i], v)
		}
	}
	return nil
}

func zeroAt(dtz []byte, i int) byte {
	if dtz == nil {
		return 0
	}
	return dtz[i]
}
