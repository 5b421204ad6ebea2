package nnue_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/variants"
)

// randomNetwork returns a network of random weights for v.
func randomNetwork(v *engine.Variant, hidden, buckets int, squared bool) *nnue.Network {
	rng := rand.New(rand.NewPCG(1, 2))
	l := nnue.NewLayout(v)
	n := &nnue.Network{Variant: v.Name, Fingerprint: v.Fingerprint(), Inputs: l.Inputs(), Hidden: hidden,
		Buckets: buckets, Squared: squared, Scale: 400, About: "random, for tests",
		W1: make([]int16, l.Inputs()*hidden), B1: make([]int16, hidden), W2: make([]int16, buckets*2*hidden), B2: make([]int32, buckets)}
	for i := range n.B2 {
		n.B2[i] = int32(99 * i)
	}
	for i := range n.W1 {
		n.W1[i] = int16(rng.IntN(101) - 50)
	}
	for i := range n.B1 {
		n.B1[i] = int16(rng.IntN(200))
	}
	for i := range n.W2 {
		n.W2[i] = int16(rng.IntN(129) - 64)
	}
	return n
}

// TestNetworkFile writes a network and reads back the same one; a damaged
// byte anywhere or a cut file is refused, and a network of one variant
// does not evaluate another.
func TestNetworkFile(t *testing.T) {
	v, err := variants.Builtin().Lookup("crazyhouse")
	require.NoError(t, err)
	n := randomNetwork(v, 16, 3, true)
	var buf bytes.Buffer
	require.NoError(t, n.Write(&buf))
	got, err := nnue.Read(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Equal(t, n, got)
	require.NoError(t, got.Check(v))
	p := v.StartPosition()
	require.Equal(t, n.Evaluate(nnue.NewLayout(v), p), got.Evaluate(nnue.NewLayout(v), p))

	data := buf.Bytes()
	for _, at := range []int{0, 9, 12, 30, len(data) / 2, len(data) - 1} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x04
		_, err := nnue.Read(bytes.NewReader(bad))
		require.Error(t, err, "byte %d damaged", at)
	}
	_, err = nnue.Read(bytes.NewReader(data[:len(data)-10]))
	require.Error(t, err)
	require.ErrorIs(t, got.Check(variants.Chess()), nnue.ErrForeign)
}

// FuzzReadNetwork: arbitrary bytes are a network or an error, never a
// panic.
func FuzzReadNetwork(f *testing.F) {
	var buf bytes.Buffer
	if err := randomNetwork(variants.Chess(), 4, 2, true).Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("CHIMNNUE\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := nnue.Read(bytes.NewReader(data))
		if err == nil {
			require.Len(t, n.W1, n.Inputs*n.Hidden)
			require.Len(t, n.W2, n.Buckets*2*n.Hidden)
			require.Len(t, n.B2, n.Buckets)
		}
	})
}

// TestVersionOneFileReads: a file of format version 1 (no bucket count,
// no activation byte, one output bias) reads as a one-bucket CReLU
// network, scoring what the same network written as version 2 scores.
func TestVersionOneFileReads(t *testing.T) {
	v := variants.Chess()
	n := randomNetwork(v, 16, 1, false)
	var buf bytes.Buffer
	require.NoError(t, n.Write(&buf))
	v2 := buf.Bytes()
	// The version 2 header after the magic: version, variant name,
	// fingerprint, inputs and hidden (uvarints), then the bucket count
	// (one byte here) and the activation byte that version 1 lacks.
	at := len(nnue.FileMagic) + 2 + 1 + len(v.Name) + 8
	at += uvarintLen(uint64(n.Inputs)) + uvarintLen(uint64(n.Hidden))
	v1 := append([]byte(nil), v2[:at]...)
	v1 = append(v1, v2[at+2:len(v2)-4]...)
	binary.LittleEndian.PutUint16(v1[len(nnue.FileMagic):], 1)
	v1 = binary.LittleEndian.AppendUint32(v1, crc32.Checksum(v1, crc32.MakeTable(crc32.Castagnoli)))
	got, err := nnue.Read(bytes.NewReader(v1))
	require.NoError(t, err)
	require.Equal(t, n, got)
	p := v.StartPosition()
	require.Equal(t, n.Evaluate(nnue.NewLayout(v), p), got.Evaluate(nnue.NewLayout(v), p))
}

func uvarintLen(x uint64) int { return len(binary.AppendUvarint(nil, x)) }
