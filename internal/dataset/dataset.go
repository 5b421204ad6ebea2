// Package dataset reads and writes the positions networks learn from: one
// file per data-generation run, a header naming the variant the positions
// belong to and how they were made, then one block per game, each with a
// checksum. A run killed at any moment leaves at most its last block
// damaged; Append cuts it off and the run continues where it stood.
//
// The format (version 2; version 1 had no tactical flag), little-endian
// throughout:
//
//	header    "CHIMDATA", version uint16, the variant's name (a uvarint
//	          length, then its bytes), its fingerprint uint64, the
//	          board's width and height (uvarints), the command that
//	          made the data (a length and bytes)
//	block     "GAME", the game's index uint64, White's result int8 (1,
//	          0, -1), positions uint32, payload bytes uint32, the
//	          payload's CRC-32C uint32, then the payload: the positions
//	position  score int16 (centipawns, the side to move's view), ply
//	          uint16, flags uint8 (1: Black to move; 2: tactical, the
//	          side to move in check or its best move a capture or a
//	          promotion, kept only by datagen --keep all), the occupied
//	          squares as a bitmap of width×height bits (square index
//	          rank×width+file, least significant bit first), one byte
//	          per occupied square in that order (the piece: type<<1 |
//	          colour, engine.Piece's code), then the pieces in hand: a
//	          count uint8 and that many (piece uint8, number uint8)
//	          pairs
package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"

	"github.com/chimera-chess/chimera/engine"
)

// Version is the format version this package writes; it reads every
// version up to it. Version 2 added the tactical flag: a program that
// reads version 1 alone refuses a newer file by its header rather than
// take its first tactical position for damage and cut the file there.
const Version = 2

// fileMagic starts every file; blockMagic every block.
const (
	fileMagic  = "CHIMDATA"
	blockMagic = "GAME"
)

// blockHeaderSize is a block's bytes before its payload: the magic, the
// index, the result, the positions, the payload length and its checksum.
const blockHeaderSize = 4 + 8 + 1 + 4 + 4 + 4

// maxPayload bounds a block's payload: a longer length field is damage,
// not a game (a 16×16 position is at most about 600 bytes, a game a few
// thousand positions).
const maxPayload = 64 << 20

// castagnoli is the CRC-32C table the blocks' checksums use.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrForeign is returned for a file made for another variant, definition
// or board than the one asked for.
var ErrForeign = errors.New("dataset: the file was made for another variant")

// ErrCutShort marks a file whose last block ends early: a run killed
// mid-write (or one still writing). Its games before it are whole; the
// next run cuts the block off. Other damage is in the middle of a file.
var ErrCutShort = errors.New("the last block is cut short")

// ErrBusy marks a file another run is writing to.
var ErrBusy = errors.New("another run is writing to it")

// Header says what a file holds: the variant (its name and fingerprint,
// engine.Variant.Fingerprint, so that data made before a definition
// changed is not mixed with data made after) and how it was made.
type Header struct {
	Variant       string
	Fingerprint   uint64
	Width, Height int
	// Command is the command line that made the data.
	Command string
}

// HeaderFor returns the header of data of variant v made by command.
func HeaderFor(v *engine.Variant, command string) Header {
	return Header{Variant: v.Name, Fingerprint: v.Fingerprint(), Width: v.Width, Height: v.Height, Command: command}
}

// Matches reports, as an ErrForeign error naming the difference, whether
// data with header h may be mixed with data of header want (the command
// may differ).
func (h Header) Matches(want Header) error {
	switch {
	case h.Variant != want.Variant:
		return fmt.Errorf("%w: it holds %s positions, not %s", ErrForeign, h.Variant, want.Variant)
	case h.Width != want.Width || h.Height != want.Height:
		return fmt.Errorf("%w: its board is %d×%d, not %d×%d", ErrForeign, h.Width, h.Height, want.Width, want.Height)
	case h.Fingerprint != want.Fingerprint:
		return fmt.Errorf("%w: %s as defined when it was made (fingerprint %016x), not as defined now (%016x)",
			ErrForeign, h.Variant, h.Fingerprint, want.Fingerprint)
	}
	return nil
}

// Position is one position and its label.
type Position struct {
	// Score is the label: a search's score in centipawns for the side to
	// move.
	Score int16
	Ply   uint16
	Black bool // Black is to move
	// Tactical marks a position whose side to move is in check or whose
	// best move captures or promotes: one a static evaluation is not
	// usually asked about, kept only when a run keeps every position.
	// The best move is the one that chose the game's move: datagen's own
	// search, or the teacher's where it plays.
	Tactical bool
	// Board holds every piece on the board, in square order (rank by
	// rank from the first, files in order).
	Board []Placed
	// Hand holds the pieces in hand, one entry a piece code held.
	Hand []Held
}

// Placed is a piece on a square.
type Placed struct {
	Square engine.Square
	Piece  engine.Piece
}

// Held is a number of pieces of one code in hand.
type Held struct {
	Piece engine.Piece
	Count uint8
}

// Game is the positions a game kept, with its result.
type Game struct {
	// Index numbers the game in its run (its seed): a resumed run plays
	// the indices it lacks.
	Index uint64
	// Result is White's: 1 a win, 0 a draw, -1 a loss.
	Result    int8
	Positions []Position
}

// A position's flags.
const (
	flagBlack    = 1
	flagTactical = 2
)

// PositionOf returns p's pieces and side to move, labelled with score
// (for the side to move).
func PositionOf(p *engine.Position, score int16) Position {
	v := p.Variant()
	out := Position{Score: score, Ply: uint16(min(p.Ply(), 65535)), Black: p.SideToMove() == engine.Black}
	for r := range v.Height {
		for f := range v.Width {
			s := engine.SquareAt(f, r)
			if pc := p.At(s); pc != engine.NoPiece {
				out.Board = append(out.Board, Placed{s, pc})
			}
		}
	}
	for _, c := range []engine.Colour{engine.White, engine.Black} {
		for t := 1; t <= len(v.Pieces); t++ {
			if n := p.InHand(c, t); n > 0 {
				out.Hand = append(out.Hand, Held{engine.MakePiece(t, c), uint8(min(n, 255))})
			}
		}
	}
	return out
}

// appendPosition encodes pos on a width×height board.
func appendPosition(buf []byte, pos *Position, width, height int) []byte {
	buf = binary.LittleEndian.AppendUint16(buf, uint16(pos.Score))
	buf = binary.LittleEndian.AppendUint16(buf, pos.Ply)
	var flags byte
	if pos.Black {
		flags |= flagBlack
	}
	if pos.Tactical {
		flags |= flagTactical
	}
	buf = append(buf, flags)
	start := len(buf)
	buf = append(buf, make([]byte, (width*height+7)/8)...)
	for _, pl := range pos.Board {
		i := pl.Square.Rank()*width + pl.Square.File()
		buf[start+i/8] |= 1 << (i % 8)
	}
	for _, pl := range pos.Board {
		buf = append(buf, byte(pl.Piece))
	}
	buf = append(buf, byte(len(pos.Hand)))
	for _, h := range pos.Hand {
		buf = append(buf, byte(h.Piece), h.Count)
	}
	return buf
}

// decodePosition reads one record from buf, returning the bytes after it.
// Board and Hand reuse pos's slices.
func decodePosition(buf []byte, pos *Position, width, height int) ([]byte, error) {
	mapBytes := (width*height + 7) / 8
	if len(buf) < 5+mapBytes+1 {
		return nil, errors.New("a position is cut short")
	}
	pos.Score = int16(binary.LittleEndian.Uint16(buf))
	pos.Ply = binary.LittleEndian.Uint16(buf[2:])
	if buf[4]&^(flagBlack|flagTactical) != 0 {
		return nil, fmt.Errorf("unknown position flags %#x", buf[4])
	}
	pos.Black = buf[4]&flagBlack != 0
	pos.Tactical = buf[4]&flagTactical != 0
	occupied := buf[5 : 5+mapBytes]
	buf = buf[5+mapBytes:]
	pos.Board = pos.Board[:0]
	n := 0
	for _, b := range occupied {
		n += bits.OnesCount8(b)
	}
	if len(buf) < n+1 {
		return nil, errors.New("a position's pieces are cut short")
	}
	k := 0
	for i, b := range occupied {
		for ; b != 0; b &= b - 1 {
			sq := i*8 + bits.TrailingZeros8(b)
			if sq >= width*height {
				return nil, errors.New("a piece off the board")
			}
			pc := engine.Piece(buf[k])
			if pc.Type() == 0 {
				return nil, errors.New("an empty square marked occupied")
			}
			pos.Board = append(pos.Board, Placed{engine.SquareAt(sq%width, sq/width), pc})
			k++
		}
	}
	buf = buf[n:]
	held := int(buf[0])
	buf = buf[1:]
	if len(buf) < 2*held {
		return nil, errors.New("a position's hand is cut short")
	}
	pos.Hand = pos.Hand[:0]
	for i := range held {
		pos.Hand = append(pos.Hand, Held{engine.Piece(buf[2*i]), buf[2*i+1]})
	}
	return buf[2*held:], nil
}

// appendHeader encodes h.
func appendHeader(buf []byte, h Header) []byte {
	buf = append(buf, fileMagic...)
	buf = binary.LittleEndian.AppendUint16(buf, Version)
	buf = appendString(buf, h.Variant)
	buf = binary.LittleEndian.AppendUint64(buf, h.Fingerprint)
	buf = binary.AppendUvarint(buf, uint64(h.Width))
	buf = binary.AppendUvarint(buf, uint64(h.Height))
	return appendString(buf, h.Command)
}

func appendString(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}

// encodeBlock returns g's block for a width×height board.
func encodeBlock(g *Game, width, height int) []byte {
	var payload []byte
	for i := range g.Positions {
		payload = appendPosition(payload, &g.Positions[i], width, height)
	}
	buf := make([]byte, 0, blockHeaderSize+len(payload))
	buf = append(buf, blockMagic...)
	buf = binary.LittleEndian.AppendUint64(buf, g.Index)
	buf = append(buf, byte(g.Result))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(g.Positions)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(payload)))
	buf = binary.LittleEndian.AppendUint32(buf, crc32.Checksum(payload, castagnoli))
	return append(buf, payload...)
}
