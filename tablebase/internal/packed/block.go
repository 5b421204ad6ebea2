// Package packed stores a table's entries compressed, in blocks a probe
// reads and decodes one at a time, so a table is never read whole.
//
// A block holds a run of entries of one side to move, in three streams,
// each a zstd frame: the outcome of every entry (win, draw or loss: one
// byte each), then the distance to mate of every decided entry in moves,
// then, in variants with a move rule, its distance to zeroing. Entries
// that are no position (layout.NotPosition) are "don't care": each is
// stored as a copy of the entry before it, which costs next to nothing
// to compress; a reader gets that copy back, so callers ask only about
// positions. Splitting the outcome from the distances measured smaller
// than compressing the entries as they are (docs/tablebases.md), and it
// lets the outcome stream be read alone.
//
// Every block ends in a CRC-32C of its bytes: a damaged block is an
// error, never a wrong value.
package packed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/klauspost/compress/zstd"

	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Outcome symbols of the first stream.
const (
	draw = 0
	win  = 1
	loss = 2
)

// notPosition marks the entries that are no position: don't care.
const notPosition = layout.NotPosition

// ErrDamaged marks a block (or a file's index) whose bytes do not decode
// to what was written.
var ErrDamaged = errors.New("damaged")

// castagnoli is the CRC-32C table: hardware-assisted where the CPU has it.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Block is one block's entries, decoded: by entry from the block's
// first, the value and (nil without a move rule) the distance to
// zeroing. Entries that are no position hold a copy of an earlier
// entry's.
type Block struct {
	Val, DTZ []byte
}

// Bytes is the memory a decoded block takes.
func (b *Block) Bytes() int64 { return int64(cap(b.Val) + cap(b.DTZ)) }

// encoder compresses blocks, decoder decompresses them; each is safe for
// concurrent use (zstd's EncodeAll and DecodeAll are). Readers need only
// a decoder: the encoder at its best compression holds far more memory.
type (
	encoder struct{ enc *zstd.Encoder }
	decoder struct{ dec *zstd.Decoder }
)

func newEncoder() (*encoder, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
		zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithZeroFrames(true))
	return &encoder{enc}, err
}

func newDecoder() (*decoder, error) {
	// As many decodes at once as there are processors; a stream never
	// holds more than a block's entries, so a frame that claims more is
	// refused before it is allocated. (WithDecodeAllCapLimit measured
	// tens of times slower under the fuzzer and adds nothing here: the
	// lengths are checked after decoding.)
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<24))
	return &decoder{dec}, err
}

// streams splits entries into the three streams. hasDTZ says whether dtz
// is to be stored.
func streams(val, dtz []byte, hasDTZ bool) (outcome, dtm, zero []byte) {
	outcome = make([]byte, len(val))
	prev, prevDTZ := byte(0), byte(0)
	for i, v := range val {
		d := byte(0)
		if hasDTZ {
			d = dtz[i]
		}
		if v == notPosition {
			v, d = prev, prevDTZ // don't care: whatever compresses best
		}
		prev, prevDTZ = v, d
		switch {
		case v == 0:
			outcome[i] = draw
			continue
		case (v-1)%2 == 1: // odd plies to mate: the side to move mates
			outcome[i] = win
		default:
			outcome[i] = loss
		}
		dtm = append(dtm, (v-1)>>1)
		if hasDTZ {
			zero = append(zero, d)
		}
	}
	return outcome, dtm, zero
}

// encodeBlock compresses entries into a block record, appended to dst.
func (c *encoder) encodeBlock(dst, val, dtz []byte, hasDTZ bool) []byte {
	outcome, dtm, zero := streams(val, dtz, hasDTZ)
	start := len(dst)
	a := c.enc.EncodeAll(outcome, nil)
	b := c.enc.EncodeAll(dtm, nil)
	dst = binary.AppendUvarint(dst, uint64(len(a)))
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	dst = append(dst, a...)
	dst = append(dst, b...)
	if hasDTZ {
		dst = c.enc.EncodeAll(zero, dst)
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// checkRecord checks a block record's CRC.
func checkRecord(rec []byte) error {
	if len(rec) < 4 {
		return fmt.Errorf("short block: %w", ErrDamaged)
	}
	body, sum := rec[:len(rec)-4], binary.LittleEndian.Uint32(rec[len(rec)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return fmt.Errorf("block checksum mismatch: %w", ErrDamaged)
	}
	return nil
}

// decodeBlock decodes a block record of n entries.
func (c *decoder) decodeBlock(rec []byte, n int, hasDTZ bool) (*Block, error) {
	if err := checkRecord(rec); err != nil {
		return nil, err
	}
	body := rec[:len(rec)-4]
	la, k := binary.Uvarint(body)
	if k <= 0 {
		return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
	}
	body = body[k:]
	lb, k := binary.Uvarint(body)
	if k <= 0 || la > uint64(len(body)-k) || lb > uint64(len(body)-k)-la {
		return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
	}
	body = body[k:]
	frames := [][]byte{body[:la], body[la : la+lb], body[la+lb:]}
	var out [3][]byte
	for i, f := range frames {
		if i == 2 && !hasDTZ {
			if len(f) != 0 {
				return nil, fmt.Errorf("block has trailing data: %w", ErrDamaged)
			}
			break
		}
		d, err := c.dec.DecodeAll(f, make([]byte, 0, n))
		if err != nil {
			return nil, fmt.Errorf("block stream %d: %v: %w", i, err, ErrDamaged)
		}
		out[i] = d
	}
	outcome, dtm, zero := out[0], out[1], out[2]
	if len(outcome) != n || (hasDTZ && len(zero) != len(dtm)) {
		return nil, fmt.Errorf("block streams have the wrong length: %w", ErrDamaged)
	}
	blk := &Block{Val: make([]byte, n)}
	if hasDTZ {
		blk.DTZ = make([]byte, n)
	}
	next := 0
	for i, o := range outcome {
		if o == draw {
			continue
		}
		if o > loss || next == len(dtm) || dtm[next] > (notPosition-3)/2 {
			return nil, fmt.Errorf("block streams disagree: %w", ErrDamaged)
		}
		blk.Val[i] = 2*dtm[next] + 1 // loss in even plies: v = plies+1
		if o == win {
			blk.Val[i]++
		}
		if hasDTZ {
			blk.DTZ[i] = zero[next]
		}
		next++
	}
	if next != len(dtm) {
		return nil, fmt.Errorf("block streams disagree: %w", ErrDamaged)
	}
	return blk, nil
}
