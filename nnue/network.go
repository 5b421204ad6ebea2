package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/chimera-chess/chimera/engine"
)

// Quantisation: the hidden units are sums scaled by QA and clipped to
// [0, QA] (and, for SCReLU, squared and divided by QA again); the output
// weights are scaled by QB; the output, divided by QA·QB, is the logit,
// and the logit times Scale is centipawns.
const (
	QA = 255
	QB = 64
)

// MaxHidden bounds a network's hidden units a view.
const MaxHidden = 1024

// MaxBuckets bounds a network's output buckets.
const MaxBuckets = 16

// maxOutputWeight bounds an SCReLU network's quantised output weights
// (the trainer keeps them within 1.98·QB): the dot kernels' int32 lanes
// sum a few hundred squared units times such a weight without overflow.
const maxOutputWeight = 2 * QB

// Version is the network file format this package writes. Version 1
// files (one output, CReLU) are read too.
const Version = 2

// FileMagic starts every network file.
const FileMagic = "CHIMNNUE"

// castagnoli is the CRC-32C table of the files' checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrForeign is returned for a network made for another variant or
// definition than the one it is asked to evaluate.
var ErrForeign = errors.New("the network was made for another variant")

// Network is a quantised network for one variant: one hidden layer of
// Hidden units a view, computed from the layout's inputs with shared
// weights, both views (the side to move's first) to one output of
// Buckets, chosen by the number of pieces on the board
// (Layout.Bucket).
type Network struct {
	// Variant and Fingerprint name the definition it was trained for
	// (engine.Variant.Fingerprint).
	Variant     string
	Fingerprint uint64
	Inputs      int
	Hidden      int
	Buckets     int
	// Squared says the units are squared after the clip (SCReLU).
	Squared bool
	// Scale is centipawns per unit of the output's logit (the K the
	// labels were fitted with).
	Scale float32
	// About says how the network was made: commands, data, losses.
	About string

	W1 []int16 // W1[i*Hidden+j]: input i into unit j
	B1 []int16
	// W2[b*2*Hidden:] are bucket b's output weights: the side to move's
	// units', then the other's; B2[b] is its bias.
	W2 []int16
	B2 []int32
}

// Check reports, as an ErrForeign error naming the difference, whether
// the network evaluates variant v as defined now.
func (n *Network) Check(v *engine.Variant) error {
	switch {
	case n.Variant != v.Name:
		return fmt.Errorf("%w: it is %s's, not %s's", ErrForeign, n.Variant, v.Name)
	case n.Fingerprint != v.Fingerprint():
		return fmt.Errorf("%w: %s as defined when it was trained (fingerprint %016x), not as defined now (%016x)",
			ErrForeign, n.Variant, n.Fingerprint, v.Fingerprint())
	case n.Inputs != NewLayout(v).Inputs():
		return fmt.Errorf("%w: it has %d inputs where %s's layout has %d", ErrForeign, n.Inputs, v.Name, NewLayout(v).Inputs())
	}
	return nil
}

// Evaluate returns the network's score of p for its side to move, in
// centipawns, computing both views' units afresh. l must be the
// variant's layout and the network checked against it (Check).
func (n *Network) Evaluate(l *Layout, p *engine.Position) int {
	// int32 sums: a drop game's many inputs could take an int16 sum of
	// large weights out of range.
	var acc [2][MaxHidden]int32
	us := p.SideToMove()
	v := p.Variant()
	for k, view := range [2]engine.Colour{us, us.Other()} {
		a := acc[k][:n.Hidden]
		for j, b := range n.B1 {
			a[j] = int32(b)
		}
		for c := range 2 {
			for _, s := range p.Pieces(engine.Colour(c)) {
				n.addInput(a, l.Board(view, p.At(s), s))
			}
		}
		if l.hands {
			for c := range 2 {
				for t := 1; t <= len(v.Pieces); t++ {
					pc := engine.MakePiece(t, engine.Colour(c))
					for i := range min(p.InHand(engine.Colour(c), t), MaxHandCount) {
						n.addInput(a, l.Hand(view, pc, i))
					}
				}
			}
		}
	}
	return n.output(acc[0][:n.Hidden], acc[1][:n.Hidden], l.Bucket(p.PieceCount(), n.Buckets))
}

// output returns the score, in centipawns, of the units of the side to
// move's view (own) and the other's, by the output bucket b.
func (n *Network) output(own, other []int32, b int) int {
	w := n.W2[b*2*n.Hidden : (b+1)*2*n.Hidden]
	var out int64
	if n.Squared {
		out = int64(n.B2[b]) + (squaredDot(own, w[:n.Hidden])+squaredDot(other, w[n.Hidden:]))/QA
	} else {
		out = int64(n.B2[b]) + int64(dot(own, w[:n.Hidden])) + int64(dot(other, w[n.Hidden:]))
	}
	return int(math.Round(float64(out) * float64(n.Scale) / (QA * QB)))
}

// addInput adds input i's weights to the units a.
func (n *Network) addInput(a []int32, i int) { addRow(a, n.W1[i*n.Hidden:(i+1)*n.Hidden]) }

// subInput takes input i's weights from the units a.
func (n *Network) subInput(a []int32, i int) { subRow(a, n.W1[i*n.Hidden:(i+1)*n.Hidden]) }

// Write writes the network in its file format: a header, the weights,
// and a checksum of all that comes before it.
func (n *Network) Write(w io.Writer) error {
	var b []byte
	b = append(b, FileMagic...)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = appendString(b, n.Variant)
	b = binary.LittleEndian.AppendUint64(b, n.Fingerprint)
	b = binary.AppendUvarint(b, uint64(n.Inputs))
	b = binary.AppendUvarint(b, uint64(n.Hidden))
	b = binary.AppendUvarint(b, uint64(n.Buckets))
	b = append(b, activationCode(n.Squared))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(n.Scale))
	b = appendString(b, n.About)
	for _, ws := range [][]int16{n.W1, n.B1, n.W2} {
		for _, x := range ws {
			b = binary.LittleEndian.AppendUint16(b, uint16(x))
		}
	}
	for _, x := range n.B2 {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	_, err := w.Write(b)
	return err
}

// activationCode is the file's byte for the units' activation.
func activationCode(squared bool) byte {
	if squared {
		return 1
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// maxFile bounds a network file: a longer one is not a network of ours.
const maxFile = 256 << 20

// Read reads a network file, refusing a damaged or foreign one with an
// error saying why.
func Read(r io.Reader) (*Network, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFile {
		return nil, errors.New("too large for a network file")
	}
	if len(data) < len(FileMagic)+2 || string(data[:len(FileMagic)]) != FileMagic {
		return nil, errors.New("not a Chimera network file")
	}
	version := binary.LittleEndian.Uint16(data[len(FileMagic):])
	if version != 1 && version != Version {
		return nil, fmt.Errorf("a network of format version %d; this program reads versions 1 to %d", version, Version)
	}
	if len(data) < len(FileMagic)+6 ||
		crc32.Checksum(data[:len(data)-4], castagnoli) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errors.New("the network file is damaged (its checksum fails)")
	}
	rd := bytes.NewReader(data[len(FileMagic)+2 : len(data)-4])
	n := &Network{}
	if n.Variant, err = readString(rd); err != nil {
		return nil, err
	}
	var fp [8]byte
	if _, err := io.ReadFull(rd, fp[:]); err != nil {
		return nil, errors.New("the network's header is cut short")
	}
	n.Fingerprint = binary.LittleEndian.Uint64(fp[:])
	inputs, err1 := binary.ReadUvarint(rd)
	hidden, err2 := binary.ReadUvarint(rd)
	if err1 != nil || err2 != nil || inputs < 1 || inputs > 1<<20 || hidden < 1 || hidden > MaxHidden {
		return nil, errors.New("the network's shape is damaged")
	}
	n.Inputs, n.Hidden, n.Buckets = int(inputs), int(hidden), 1
	if version >= 2 {
		buckets, err := binary.ReadUvarint(rd)
		if err != nil || buckets < 1 || buckets > MaxBuckets {
			return nil, errors.New("the network's shape is damaged")
		}
		n.Buckets = int(buckets)
		activation, err := rd.ReadByte()
		if err != nil || activation > 1 {
			return nil, errors.New("the network's activation is damaged")
		}
		n.Squared = activation == 1
	}
	var scale [4]byte
	if _, err := io.ReadFull(rd, scale[:]); err != nil {
		return nil, errors.New("the network's header is cut short")
	}
	n.Scale = math.Float32frombits(binary.LittleEndian.Uint32(scale[:]))
	if !(n.Scale > 0 && n.Scale < 1e6) {
		return nil, errors.New("the network's scale is damaged")
	}
	if n.About, err = readString(rd); err != nil {
		return nil, err
	}
	need := 2*(n.Inputs*n.Hidden+n.Hidden+n.Buckets*2*n.Hidden) + 4*n.Buckets
	if rd.Len() != need {
		return nil, fmt.Errorf("the network's weights take %d bytes where its shape needs %d", rd.Len(), need)
	}
	n.W1, n.B1, n.W2 = make([]int16, n.Inputs*n.Hidden), make([]int16, n.Hidden), make([]int16, n.Buckets*2*n.Hidden)
	n.B2 = make([]int32, n.Buckets)
	for _, ws := range []any{n.W1, n.B1, n.W2, n.B2} {
		if err := binary.Read(rd, binary.LittleEndian, ws); err != nil {
			return nil, err
		}
	}
	if n.Squared {
		for _, w := range n.W2 {
			if w > maxOutputWeight || w < -maxOutputWeight {
				return nil, fmt.Errorf("an output weight of %d is beyond an SCReLU network's bound of %d", w, maxOutputWeight)
			}
		}
	}
	return n, nil
}

func readString(r *bytes.Reader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(r.Len()) {
		return "", errors.New("the network's header is damaged")
	}
	buf := make([]byte, n)
	_, _ = io.ReadFull(r, buf)
	return string(buf), nil
}
