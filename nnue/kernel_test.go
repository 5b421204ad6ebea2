package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKernelsMatchScalar: the kernels (AVX2 ones under GOEXPERIMENT=simd,
// plain Go otherwise) give exactly what one unit at a time gives, for
// lengths with and without a tail, and units beyond the clip's range;
// the SCReLU output's over more units than an int32 lane could sum.
func TestKernelsMatchScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 8, 9, 16, 31, 64, 256, 1024, 2048} {
		for range 20 {
			a := make([]int32, n)
			w := make([]int16, n+5) // rows are longer slices of a larger array
			for j := range a {
				a[j] = rng.Int32N(4000) - 1000
			}
			for j := range w {
				w[j] = int16(rng.IntN(65536) - 32768)
			}
			want, got := append([]int32(nil), a...), append([]int32(nil), a...)
			for j := range want {
				want[j] += int32(w[j])
			}
			addRow(got, w)
			require.Equal(t, want, got, "addRow, %d units", n)
			for j := range want {
				want[j] -= 2 * int32(w[j])
			}
			subRow(got, w)
			subRow(got, w)
			require.Equal(t, want, got, "subRow, %d units", n)
			var sum int32
			for j, x := range a {
				sum += min(max(x, 0), QA) * int32(w[j])
			}
			require.Equal(t, sum, dot(a, w), "dot, %d units", n)
			var squared int64
			for j, x := range a {
				c := int64(min(max(x, 0), QA))
				ow := int64(w[j] % (maxOutputWeight + 1)) // an SCReLU network's output weights are bounded
				squared += c * c * ow
				w[j] = int16(ow)
			}
			require.Equal(t, squared, squaredDot(a, w), "squaredDot, %d units", n)
		}
	}
}

// BenchmarkKernels times one input's update of 256 units and the output
// of two views' 256 units.
func BenchmarkKernels(b *testing.B) {
	a := make([]int32, 256)
	w := make([]int16, 512)
	for j := range w {
		w[j] = int16(j%200 - 100)
	}
	b.Run("addRow", func(b *testing.B) {
		for b.Loop() {
			addRow(a, w)
		}
	})
	b.Run("output", func(b *testing.B) {
		var s int32
		for b.Loop() {
			s += dot(a, w[:256]) + dot(a, w[256:])
		}
		_ = s
	})
	b.Run("squared", func(b *testing.B) {
		var s int64
		for b.Loop() {
			s += squaredDot(a, w[:256]) + squaredDot(a, w[256:])
		}
		_ = s
	})
}
