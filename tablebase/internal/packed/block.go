// Package packed stores a table's entries compressed, in blocks a probe
// reads and decodes one at a time, so a table is never read whole.
//
// A block holds a run of entries of one side to move in up to five
// streams, each a zstd frame: the outcome of every entry (win, draw or
// loss: one byte each); the distances to mate, in moves, of the won
// entries and, apart, of the lost ones; and in variants with a move rule
// the distances to zeroing of the won entries and of the lost ones (each
// 0 where it equals the distance to mate: zeroingCode).
// Entries that are no position (layout.NotPosition) are "don't care",
// stored as draws (no distance: a draw keeps the distance streams as the
// positions make them); a reader gets a draw back, so callers ask only
// about positions. Each split measured smaller than the streams before it
// (docs/tablebases.md), and the outcome stream can be read alone.
//
// Every block ends in a CRC-32C of its bytes: a damaged block is an
// error, never a wrong value.
package packed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sync"

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
// zeroing; entries that are no position read as draws. A block of a side
// whose distances are dropped holds only Out, the outcome symbols.
type Block struct {
	Val, DTZ []byte
	Out      []byte
}

// entry returns entry i's value and distance to zeroing (0 without
// them).
func (b *Block) entry(i int) (val, dtz byte) {
	if b.DTZ != nil {
		dtz = b.DTZ[i]
	}
	return b.Val[i], dtz
}

// wdl returns entry i's outcome for the side to move: 1 a win, 0 a
// draw, −1 a loss.
func (b *Block) wdl(i int) int {
	if b.Out != nil {
		return wdlOf(b.Out[i])
	}
	return wdlOf(outcomeOf(b.Val[i]))
}

// Bytes is the memory a decoded block takes.
func (b *Block) Bytes() int64 { return int64(cap(b.Val) + cap(b.DTZ) + cap(b.Out)) }

// encoder compresses blocks, decoder decompresses them; each is safe for
// concurrent use (zstd's EncodeAll and DecodeAll are). Readers need only
// a decoder: the encoder at its best compression holds far more memory.
type (
	encoder struct{ enc *zstd.Encoder }
	decoder struct {
		dec *zstd.Decoder
		// scratch holds *[streamCount][]byte, the streams of a block
		// being decoded: reused, since a block's streams are read once
		// into its entries (zeroing 320 KB a decode was an eighth of a
		// cold probe).
		scratch sync.Pool
	}
)

// newEncoder makes an encoder at zstd's best level when smallest, else at
// its "better" one: on chess tables 8–15% more bytes for half the time
// (Options.Smallest).
func newEncoder(smallest bool) (*encoder, error) {
	level := zstd.SpeedBetterCompression
	if smallest {
		level = zstd.SpeedBestCompression
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level),
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
	return &decoder{dec: dec}, err
}

// The streams of a block, in record order.
const (
	outcomeStream = iota
	winDTM
	lossDTM
	winDTZ
	lossDTZ
	streamCount
)

// streams splits entries into the block's streams (the last two empty
// without distances to zeroing).
func streams(val, dtz []byte, hasDTZ bool) (out [streamCount][]byte) {
	out[outcomeStream] = make([]byte, len(val))
	for i, v := range val {
		o := outcomeOf(v)
		out[outcomeStream][i] = o
		if o == draw {
			continue
		}
		dm, dz := lossDTM, lossDTZ
		if o == win {
			dm, dz = winDTM, winDTZ
		}
		out[dm] = append(out[dm], (v-1)>>1)
		if hasDTZ {
			out[dz] = append(out[dz], zeroingCode(dtz[i], v-1))
		}
	}
	return out
}

// outcomeOf is an entry value's outcome symbol; a non-position is don't
// care, a draw.
func outcomeOf(v byte) byte {
	switch {
	case v == 0 || v == notPosition:
		return draw
	case (v-1)%2 == 1: // odd plies to mate: the side to move mates
		return win
	}
	return loss
}

// wdlOf is an outcome symbol's result for the side to move.
func wdlOf(o byte) int {
	switch o {
	case win:
		return 1
	case loss:
		return -1
	}
	return 0
}

// zeroingCode stores a distance to zeroing: 0 where it equals the
// distance to mate in plies (where no capture or pawn move comes before
// the mate, as in all of KRvK: runs of zeros), else the distance plus
// one. That measured 7% smaller over the chess tables than the distances
// as they are; the difference to the distance to mate, 26% larger.
func zeroingCode(dtz, plies byte) byte {
	if dtz == plies {
		return 0
	}
	return dtz + 1 // at most layout.MaxDTZ+1: a byte
}

// zeroingOf reads zeroingCode back.
func zeroingOf(code, plies byte) byte {
	if code == 0 {
		return plies
	}
	return code - 1
}

// encodeBlock compresses entries into a block record, appended to dst:
// the lengths of all frames but the last (uvarints), the frames, the
// CRC-32C.
func (c *encoder) encodeBlock(dst, val, dtz []byte, hasDTZ bool) []byte {
	raw := streams(val, dtz, hasDTZ)
	n := frameCount(hasDTZ)
	var frames [streamCount][]byte
	for i := range n {
		frames[i] = c.enc.EncodeAll(raw[i], nil)
	}
	start := len(dst)
	for _, f := range frames[:n-1] {
		dst = binary.AppendUvarint(dst, uint64(len(f)))
	}
	for _, f := range frames[:n] {
		dst = append(dst, f...)
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

// outcomeFrame returns the first frame of a block record, the outcomes'.
func outcomeFrame(rec []byte, hasDTZ bool) ([]byte, error) {
	if err := checkRecord(rec); err != nil {
		return nil, err
	}
	body := rec[:len(rec)-4]
	l, k := binary.Uvarint(body)
	if k <= 0 {
		return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
	}
	for range frameCount(hasDTZ) - 2 {
		_, j := binary.Uvarint(body[k:])
		if j <= 0 {
			return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
		}
		k += j
	}
	if l > uint64(len(body)-k) {
		return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
	}
	return body[k : k+int(l)], nil
}

// frameCount is the number of frames of a block record with every
// stream.
func frameCount(hasDTZ bool) int {
	if hasDTZ {
		return streamCount
	}
	return winDTZ
}

// decodeBlock decodes a block record of n entries: every stream, or with
// outcomesOnly a record of the outcome frame alone (a side whose
// distances are dropped).
func (c *decoder) decodeBlock(rec []byte, n int, hasDTZ, outcomesOnly bool) (*Block, error) {
	if err := checkRecord(rec); err != nil {
		return nil, err
	}
	body := rec[:len(rec)-4]
	count := frameCount(hasDTZ)
	if outcomesOnly {
		count = 1
	}
	var lens [streamCount]uint64
	for i := range count - 1 {
		l, k := binary.Uvarint(body)
		if k <= 0 {
			return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
		}
		lens[i], body = l, body[k:]
	}
	scratch, _ := c.scratch.Get().(*[streamCount][]byte)
	if scratch == nil {
		scratch = new([streamCount][]byte)
	}
	defer c.scratch.Put(scratch)
	var out [streamCount][]byte
	for i := range count {
		f := body
		if i < count-1 {
			if lens[i] > uint64(len(body)) {
				return nil, fmt.Errorf("block lengths: %w", ErrDamaged)
			}
			f, body = body[:lens[i]], body[lens[i]:]
		}
		// A first decode sizes its stream from the frame's header.
		d, err := c.dec.DecodeAll(f, scratch[i][:0])
		if err != nil {
			return nil, fmt.Errorf("block stream %d: %v: %w", i, err, ErrDamaged)
		}
		scratch[i] = d[:0] // kept for the next decode, grown if it had to
		out[i] = d
	}
	if outcomesOnly {
		if len(out[outcomeStream]) != n {
			return nil, fmt.Errorf("block streams have the wrong length: %w", ErrDamaged)
		}
		blk := &Block{Out: append([]byte(nil), out[outcomeStream]...)}
		for _, o := range blk.Out {
			if o > loss {
				return nil, fmt.Errorf("block outcome %d: %w", o, ErrDamaged)
			}
		}
		return blk, nil
	}
	if len(out[outcomeStream]) != n ||
		(hasDTZ && (len(out[winDTZ]) != len(out[winDTM]) || len(out[lossDTZ]) != len(out[lossDTM]))) {
		return nil, fmt.Errorf("block streams have the wrong length: %w", ErrDamaged)
	}
	blk := &Block{Val: make([]byte, n)}
	if hasDTZ {
		blk.DTZ = make([]byte, n)
	}
	var next [streamCount]int // by distance stream: the next value
	for i, o := range out[outcomeStream] {
		dm, dz := winDTM, winDTZ
		switch o {
		case draw:
			continue
		case loss:
			dm, dz = lossDTM, lossDTZ
		case win:
		default:
			return nil, fmt.Errorf("block outcome %d: %w", o, ErrDamaged)
		}
		j := next[dm]
		if j == len(out[dm]) || out[dm][j] > (notPosition-3)/2 {
			return nil, fmt.Errorf("block streams disagree: %w", ErrDamaged)
		}
		next[dm]++
		blk.Val[i] = 2*out[dm][j] + 1 // a loss in even plies p: v = p+1
		if o == win {
			blk.Val[i]++ // a win in odd plies p = 2k+1: v = 2k+2
		}
		if hasDTZ {
			blk.DTZ[i] = zeroingOf(out[dz][j], blk.Val[i]-1)
		}
	}
	if next[winDTM] != len(out[winDTM]) || next[lossDTM] != len(out[lossDTM]) {
		return nil, fmt.Errorf("block streams disagree: %w", ErrDamaged)
	}
	return blk, nil
}
