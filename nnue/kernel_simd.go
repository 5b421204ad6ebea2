//go:build goexperiment.simd && amd64

package nnue

import "simd/archsimd"

// The kernels with AVX2 (GOEXPERIMENT=simd): eight units at a time, the
// int16 weights sign-extended to int32, the rest one at a time. They give
// exactly what the plain build's give (TestKernelsMatchScalar).

// avx2 reports whether this processor has AVX2: without it the loops
// below do all the work one unit at a time.
var avx2 = archsimd.X86.AVX2()

// addRow adds the weights w to the units a (as many as a holds).
func addRow(a []int32, w []int16) {
	w = w[:len(a)]
	j := 0
	if avx2 {
		for ; j+8 <= len(a); j += 8 {
			x := archsimd.LoadInt32x8Slice(a[j : j+8])
			y := archsimd.LoadInt16x8Slice(w[j : j+8]).ExtendToInt32()
			x.Add(y).StoreSlice(a[j : j+8])
		}
	}
	for ; j < len(a); j++ {
		a[j] += int32(w[j])
	}
}

// subRow takes the weights w from the units a.
func subRow(a []int32, w []int16) {
	w = w[:len(a)]
	j := 0
	if avx2 {
		for ; j+8 <= len(a); j += 8 {
			x := archsimd.LoadInt32x8Slice(a[j : j+8])
			y := archsimd.LoadInt16x8Slice(w[j : j+8]).ExtendToInt32()
			x.Sub(y).StoreSlice(a[j : j+8])
		}
	}
	for ; j < len(a); j++ {
		a[j] -= int32(w[j])
	}
}

// dot returns Σ clip(a[j], 0, QA)·w[j]: the clipped units weighed by
// the output's weights.
func dot(a []int32, w []int16) int32 {
	w = w[:len(a)]
	var sum int32
	j := 0
	if avx2 {
		lo, hi := archsimd.BroadcastInt32x8(0), archsimd.BroadcastInt32x8(QA)
		acc := archsimd.BroadcastInt32x8(0)
		for ; j+8 <= len(a); j += 8 {
			x := archsimd.LoadInt32x8Slice(a[j : j+8]).Max(lo).Min(hi)
			y := archsimd.LoadInt16x8Slice(w[j : j+8]).ExtendToInt32()
			acc = acc.Add(x.Mul(y))
		}
		var lanes [8]int32
		acc.StoreSlice(lanes[:])
		for _, x := range lanes {
			sum += x
		}
	}
	for ; j < len(a); j++ {
		sum += min(max(a[j], 0), QA) * int32(w[j])
	}
	return sum
}

// squaredDot returns Σ clip(a[j], 0, QA)²·w[j]: the SCReLU units weighed
// by the output's weights (scaled by QA² rather than QA). A lane's term
// is at most QA²·maxOutputWeight (8.3M), so the int32 lanes are emptied
// into the int64 sum every flushEvery steps, long before they overflow.
func squaredDot(a []int32, w []int16) int64 {
	const flushEvery = 64
	w = w[:len(a)]
	var sum int64
	j := 0
	if avx2 {
		lo, hi := archsimd.BroadcastInt32x8(0), archsimd.BroadcastInt32x8(QA)
		var lanes [8]int32
		for j+8 <= len(a) {
			acc := archsimd.BroadcastInt32x8(0)
			for k := 0; k < flushEvery && j+8 <= len(a); k, j = k+1, j+8 {
				c := archsimd.LoadInt32x8Slice(a[j : j+8]).Max(lo).Min(hi)
				y := archsimd.LoadInt16x8Slice(w[j : j+8]).ExtendToInt32()
				acc = acc.Add(c.Mul(y).Mul(c))
			}
			acc.StoreSlice(lanes[:])
			for _, x := range lanes {
				sum += int64(x)
			}
		}
	}
	for ; j < len(a); j++ {
		c := min(max(a[j], 0), QA)
		sum += int64(c*int32(w[j])) * int64(c)
	}
	return sum
}
