package syzygy

import (
	"encoding/binary"
	"errors"
)

// This file is the raw lookup: a position's entry in one parsed table,
// without any search. What the tables leave out (captures, en passant,
// the side a DTZ file does not store) is the probing's.

// errNotPlaced: a position the table's numbering has no place for (kings
// touching). The rules core never makes one.
var errNotPlaced = errors.New("placement outside the table's numbering")

// orientation is how a position lies in a table: swapped when the
// table's White is the position's Black; side is the side to move in
// the table's colours (0 White).
type orientation struct {
	swapped bool
	side    int
}

// orient works out b's orientation in l. A table of like sides stores
// White to move only, so Black to move is read with the colours swapped.
func (l *layout) orient(b *board) orientation {
	var o orientation
	if l.material.symmetric() {
		o.swapped = b.blackToMove
	} else {
		o.swapped = b.material != l.material
	}
	o.side = boolInt(b.blackToMove != o.swapped)
	return o
}

// locate returns the part b's placement is in (side is the part's side
// index) and the squares of its pieces in the part's order. Swapped
// colours in a pawn table mirror the ranks too, so that the table's
// White pawns still move up; without pawns the numbering's symmetries
// take care of it.
func (l *layout) locate(b *board, o orientation, side int) (*part, [maxTablePieces]uint8, error) {
	var sq [maxTablePieces]uint8
	var mirror, swap uint8
	if o.swapped {
		swap = 8 // a code's colour bit
		if l.files == 4 {
			mirror = rankMirror
		}
	}
	n := 0
	gather := func(c pieceCode, limit int) error {
		code := c ^ pieceCode(swap)
		if n+int(b.count[code]) > limit {
			return errNotPlaced
		}
		for _, s := range b.squares[code][:b.count[code]] {
			sq[n] = s ^ mirror
			n++
		}
		return nil
	}
	p := &l.parts[0][side]
	if l.files == 4 {
		lead := l.parts[0][0].order
		if err := gather(lead.pieces[0], lead.lead); err != nil || n != lead.lead {
			return nil, sq, errNotPlaced
		}
		p = &l.parts[leadingPawnFirst(sq[:n])][side]
	}
	for n < p.order.count {
		before := n
		if err := gather(p.order.pieces[n], p.order.count); err != nil || n == before {
			return nil, sq, errNotPlaced
		}
	}
	return p, sq, nil
}

// wdl returns b's entry in a WDL table; data is the table's file.
func (l *layout) wdl(data []byte, b *board) (WDL, error) {
	o := l.orient(b)
	side := 0
	if l.sides == 2 {
		side = o.side
	}
	p, sq, err := l.locate(b, o, side)
	if err != nil {
		return 0, err
	}
	idx, ok := p.order.index(sq)
	if !ok {
		return 0, errNotPlaced
	}
	v, err := p.values.value(data, idx)
	if err != nil {
		return 0, err
	}
	return WDL(int(v) - 2), nil
}

// dtz returns b's entry in a DTZ table, in plies as far as the file
// keeps them: stored is false when the table keeps the other side to
// move (a DTZ file stores one). wdl is the position's value, which picks
// the value map and whether the file stored moves (then doubled here) or
// plies. A draw has no distance.
func (l *layout) dtz(data []byte, b *board, wdl WDL) (dtz int, stored bool, err error) {
	if wdl == Draw {
		return 0, true, nil
	}
	o := l.orient(b)
	p, sq, err := l.locate(b, o, 0)
	if err != nil {
		return 0, false, err
	}
	storedSide := int(p.flags & dtzBlackStored)
	// A pawnless table of like sides answers for either side; a pawn
	// table's parts each say which side they keep.
	if storedSide != o.side && (l.files == 4 || !l.material.symmetric()) {
		return 0, false, nil
	}
	idx, ok := p.order.index(sq)
	if !ok {
		return 0, false, errNotPlaced
	}
	raw, err := p.values.value(data, idx)
	if err != nil {
		return 0, false, err
	}
	v := int(raw)
	if p.flags&dtzMapped != 0 {
		if v, err = p.maps[mapClassOf(wdl)].lookup(data, v); err != nil {
			return 0, false, err
		}
	}
	exact := (wdl == Win && p.flags&dtzWinExact != 0) || (wdl == Loss && p.flags&dtzLossExact != 0)
	if !exact {
		v *= 2 // kept in moves: back to plies, maybe one off (see ProbeDTZ)
	}
	return v, true, nil
}

// mapClassOf returns the value map for an outcome other than a draw.
func mapClassOf(wdl WDL) int {
	switch wdl {
	case Win:
		return mapWin
	case Loss:
		return mapLoss
	case CursedWin:
		return mapCursedWin
	default:
		return mapBlessedLoss
	}
}

// lookup returns the map's i'th value.
func (m valueMap) lookup(data []byte, i int) (int, error) {
	if i >= m.length {
		return 0, errDecode
	}
	if m.wide {
		return int(binary.LittleEndian.Uint16(data[m.at+2*i:])), nil
	}
	return int(data[m.at+i]), nil
}
