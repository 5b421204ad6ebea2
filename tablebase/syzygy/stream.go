package syzygy

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// valueStream is one part's entries as a file stores them, compressed in
// two steps. First, pairs of symbols that often follow each other were
// replaced by new symbols, over and over: a symbol is either a leaf (one
// entry's value) or a pair of earlier symbols, and expands to a run of
// entries. Then the symbols were written with a canonical prefix code
// into blocks of equal bytes, each holding whole symbols. A sparse index
// names, every 2^indexShift entries, the block and the entry within it;
// a table of block lengths (entries in each, minus one) lets a lookup
// walk from there to the block holding its entry, which it decodes from
// the block's start.
type valueStream struct {
	// constant: every entry is constValue and nothing else is stored.
	constant   bool
	constValue uint16
	// entries is how many entries the part has (its placements' count).
	entries uint64
	// blockShift is log2 of a block's bytes; indexShift log2 of the
	// entries between two sparse-index points.
	blockShift uint
	indexShift uint
	// listedBlocks are the block-length table's entries, storedBlocks the
	// blocks of data (the table may list a few more).
	listedBlocks uint64
	storedBlocks uint64
	// The prefix code: minLen is the shortest code; firstCode[k] is the
	// least code of length minLen+k, aligned to the top of 64 bits
	// (longer codes are the smaller numbers), and firstSymbol[k] the
	// symbol it stands for; codes of one length name consecutive symbols.
	minLen      int
	firstCode   []uint64
	firstSymbol []uint16
	symbols     []symbol
	// Where the part's sparse index, block lengths and blocks start in
	// the file (set by the layout once every header is read).
	indexAt, lengthsAt, dataAt int
}

// symbol is one symbol of a stream.
type symbol struct {
	// left and right are a pair's halves, earlier symbols.
	left, right uint16
	// value is a leaf's entry value.
	value uint16
	// span is the entries the symbol expands to, minus one (0 for a
	// leaf), saturated at maxSpan so that a damaged file cannot overflow
	// it.
	span uint32
}

const (
	// leafMark, as a symbol's right half, marks a leaf.
	leafMark = 0xfff
	// maxSpan bounds symbol spans; a block holds at most 65,536 entries,
	// so any span that matters is far below it.
	maxSpan = 1 << 31
	// maxCodeLen: the decoder keeps at least 32 unread bits in its
	// window, so no code may be longer.
	maxCodeLen = 32
	// constantFlag in a part's flags byte marks a constant part.
	constantFlag = 0x80
)

// streamHeader is a parsed part header: the stream and the flags byte
// (DTZ files keep their part's flags there), and where the next header
// starts.
type streamHeader struct {
	stream valueStream
	flags  byte
	next   int
}

// parseStreamHeader reads the header of a part of entries entries at
// data[at:]. wide: the leaves hold 12-bit values (DTZ) rather than 8-bit
// ones (WDL, which must be 0–4).
func parseStreamHeader(data []byte, at int, entries uint64, wide bool) (streamHeader, error) {
	h := streamHeader{stream: valueStream{entries: entries}}
	s := &h.stream
	if at+2 > len(data) {
		return h, errors.New("part header past the end")
	}
	h.flags = data[at]
	if h.flags&constantFlag != 0 {
		s.constant = true
		if !wide {
			// A WDL part names its one value; a DTZ part's is always 0.
			s.constValue = uint16(data[at+1])
			if s.constValue > 4 {
				return h, fmt.Errorf("constant WDL value %d", s.constValue)
			}
		}
		h.next = at + 2
		return h, nil
	}
	if at+12 > len(data) {
		return h, errors.New("part header past the end")
	}
	s.blockShift = uint(data[at+1])
	s.indexShift = uint(data[at+2])
	s.storedBlocks = uint64(binary.LittleEndian.Uint32(data[at+4:]))
	s.listedBlocks = s.storedBlocks + uint64(data[at+3])
	maxLen, minLen := int(data[at+8]), int(data[at+9])
	switch {
	case s.blockShift < 3 || s.blockShift > 31:
		return h, fmt.Errorf("block of 2^%d bytes", s.blockShift)
	case s.indexShift < 1 || s.indexShift > 62:
		return h, fmt.Errorf("sparse index every 2^%d entries", s.indexShift)
	case minLen < 1 || minLen > maxLen || maxLen > maxCodeLen:
		return h, fmt.Errorf("code lengths %d to %d", minLen, maxLen)
	}
	s.minLen = minLen
	lengths := maxLen - minLen + 1
	countAt := at + 10 + 2*lengths
	if countAt+2 > len(data) {
		return h, errors.New("code table past the end")
	}
	numSymbols := int(binary.LittleEndian.Uint16(data[countAt:]))
	symbolsAt := countAt + 2
	h.next = symbolsAt + 3*numSymbols + numSymbols&1 // padded to even
	if numSymbols == 0 || numSymbols > leafMark+1 {
		return h, fmt.Errorf("%d symbols", numSymbols)
	}
	if h.next > len(data) {
		return h, errors.New("symbol table past the end")
	}
	s.firstSymbol = make([]uint16, lengths)
	for k := range lengths {
		s.firstSymbol[k] = binary.LittleEndian.Uint16(data[at+10+2*k:])
	}
	if err := s.buildCode(); err != nil {
		return h, err
	}
	if err := s.readSymbols(data[symbolsAt:symbolsAt+3*numSymbols], wide); err != nil {
		return h, err
	}
	return h, nil
}

// buildCode works out each code length's least code from the symbol
// counts the first symbols imply: the longest codes start at zero; each
// shorter length starts where the longer one's codes end, halved.
func (s *valueStream) buildCode() error {
	lengths := len(s.firstSymbol)
	s.firstCode = make([]uint64, lengths)
	var least uint64 // the least code of the length at hand, unaligned
	for k := lengths - 2; k >= 0; k-- {
		// Codes of length minLen+k+1 number firstSymbol[k] −
		// firstSymbol[k+1] symbols (shorter codes name later symbols).
		next := int64(least) + int64(s.firstSymbol[k]) - int64(s.firstSymbol[k+1])
		if next < 0 {
			return fmt.Errorf("code of length %d has a negative start", s.minLen+k)
		}
		least = uint64(next) / 2
		length := uint(s.minLen + k)
		if least>>length != 0 {
			return fmt.Errorf("codes of length %d overflow", length)
		}
		s.firstCode[k] = least << (64 - length)
	}
	return nil
}

// readSymbols reads the symbol table (three bytes a symbol: two 12-bit
// numbers, the left half and the right half or leafMark with the value
// in the left's place) and works out every symbol's span, refusing a
// half that names no symbol or a pair that contains itself.
func (s *valueStream) readSymbols(table []byte, wide bool) error {
	n := len(table) / 3
	s.symbols = make([]symbol, n)
	for i := range s.symbols {
		b := table[3*i : 3*i+3]
		left := uint16(b[0]) | uint16(b[1]&0x0f)<<8
		right := uint16(b[1]>>4) | uint16(b[2])<<4
		sym := &s.symbols[i]
		sym.left, sym.right = left, right
		if right == leafMark {
			sym.value = left
			if !wide {
				sym.value = uint16(b[0])
				if sym.value > 4 {
					return fmt.Errorf("WDL symbol %d has value %d", i, sym.value)
				}
			}
			continue
		}
		if int(left) >= n || int(right) >= n {
			return fmt.Errorf("symbol %d pairs %d and %d of %d", i, left, right, n)
		}
	}
	// Spans by a depth-first walk; state 1 marks a symbol being expanded,
	// so meeting it again is a cycle.
	state := make([]uint8, n)
	var expand func(i uint16) error
	expand = func(i uint16) error {
		switch state[i] {
		case 1:
			return fmt.Errorf("symbol %d contains itself", i)
		case 2:
			return nil
		}
		sym := &s.symbols[i]
		if sym.right == leafMark {
			state[i] = 2
			return nil
		}
		state[i] = 1
		if err := expand(sym.left); err != nil {
			return err
		}
		if err := expand(sym.right); err != nil {
			return err
		}
		sym.span = uint32(min(uint64(s.symbols[sym.left].span)+uint64(s.symbols[sym.right].span)+1, maxSpan))
		state[i] = 2
		return nil
	}
	for i := range n {
		if err := expand(uint16(i)); err != nil {
			return err
		}
	}
	return nil
}

// indexBytes, lengthBytes and dataBytes are the sizes of the part's
// sparse index, block lengths and blocks: what the layout places after
// the headers. Damaged counts may make them huge; the layout compares
// them with the file's size before adding them.
func (s *valueStream) indexBytes() uint64 {
	if s.constant {
		return 0
	}
	points := s.entries>>s.indexShift + boolUint(s.entries&(1<<s.indexShift-1) != 0)
	return 6 * points
}

func (s *valueStream) lengthBytes() uint64 {
	if s.constant {
		return 0
	}
	return 2 * s.listedBlocks
}

func (s *valueStream) dataBytes() uint64 {
	if s.constant {
		return 0
	}
	return s.storedBlocks << s.blockShift
}

func boolUint(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// errDecode says a part's data led a lookup outside its tables: the file
// is damaged.
var errDecode = errors.New("compressed data leads outside the part")

// value returns entry idx of the part; data is the whole file, which the
// layout checked holds the part's index, lengths and blocks (reads that
// run on past a block are checked here).
func (s *valueStream) value(data []byte, idx uint64) (uint16, error) {
	if s.constant {
		return s.constValue, nil
	}
	if idx >= s.entries {
		return 0, fmt.Errorf("entry %d of %d", idx, s.entries)
	}
	block, entry, err := s.findBlock(data, idx)
	if err != nil {
		return 0, err
	}
	return s.decode(data, s.dataAt+int(block<<s.blockShift), entry)
}

// findBlock returns the block holding entry idx and the entry's place in
// it, walking from the sparse index's point.
func (s *valueStream) findBlock(data []byte, idx uint64) (block uint64, entry int64, err error) {
	point := s.indexAt + 6*int(idx>>s.indexShift)
	block = uint64(binary.LittleEndian.Uint32(data[point:]))
	// The point is the middle of its span of entries: idx's distance
	// from it, plus the point's own place in its block.
	half := int64(1) << (s.indexShift - 1)
	entry = int64(idx&(1<<s.indexShift-1)) - half + int64(binary.LittleEndian.Uint16(data[point+4:]))
	length := func(b uint64) int64 { return int64(binary.LittleEndian.Uint16(data[s.lengthsAt+2*int(b):])) }
	for entry < 0 {
		if block == 0 || block > s.listedBlocks {
			return 0, 0, errDecode
		}
		block--
		entry += length(block) + 1
	}
	for {
		if block >= s.listedBlocks {
			return 0, 0, errDecode
		}
		n := length(block)
		if entry <= n {
			break
		}
		entry -= n + 1
		block++
	}
	if block >= s.storedBlocks {
		return 0, 0, errDecode
	}
	return block, entry, nil
}

// decode reads a block's symbols from its start at data[at:] up to the
// one whose expansion holds the entry'th entry (at most 65,535 on: the
// block-length table's bound), then descends the symbol's pairs to the
// leaf.
func (s *valueStream) decode(data []byte, at int, entry int64) (uint16, error) {
	if at+8 > len(data) {
		return 0, errDecode
	}
	window := binary.BigEndian.Uint64(data[at:])
	at += 8
	consumed := uint(0) // bits shifted out of the window since the last refill
	// Locals: this loop is most of a probe's time.
	codes, firsts, symbols := s.firstCode, s.firstSymbol, s.symbols
	var sym uint64
	for {
		k := 0
		for window < codes[k] {
			k++ // ends: the longest codes start at zero
		}
		length := uint(s.minLen + k)
		sym = uint64(firsts[k]) + (window-codes[k])>>(64-length)
		if sym >= uint64(len(symbols)) {
			return 0, errDecode
		}
		span := int64(symbols[sym].span)
		if entry <= span {
			break
		}
		entry -= span + 1
		window <<= length
		consumed += length
		if consumed >= 32 {
			consumed -= 32
			if at+4 > len(data) {
				return 0, errDecode
			}
			window |= uint64(binary.BigEndian.Uint32(data[at:])) << consumed
			at += 4
		}
	}
	for s.symbols[sym].span != 0 {
		pair := &s.symbols[sym]
		leftSpan := int64(s.symbols[pair.left].span)
		if entry <= leftSpan {
			sym = uint64(pair.left)
		} else {
			entry -= leftSpan + 1
			sym = uint64(pair.right)
		}
	}
	return s.symbols[sym].value, nil
}
