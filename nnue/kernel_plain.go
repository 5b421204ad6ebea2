//go:build !(goexperiment.simd && amd64)

package nnue

// addRow adds the weights w to the units a (as many as a holds).
func addRow(a []int32, w []int16) {
	w = w[:len(a)]
	for j, x := range w {
		a[j] += int32(x)
	}
}

// subRow takes the weights w from the units a.
func subRow(a []int32, w []int16) {
	w = w[:len(a)]
	for j, x := range w {
		a[j] -= int32(x)
	}
}

// dot returns Σ clip(a[j], 0, QA)·w[j]: the clipped units weighed by
// the output's weights.
func dot(a []int32, w []int16) int32 {
	w = w[:len(a)]
	var sum int32
	for j, x := range a {
		sum += min(max(x, 0), QA) * int32(w[j])
	}
	return sum
}

// squaredDot returns Σ clip(a[j], 0, QA)²·w[j]: the SCReLU units weighed
// by the output's weights (scaled by QA² rather than QA).
func squaredDot(a []int32, w []int16) int64 {
	w = w[:len(a)]
	var sum int64
	for j, x := range a {
		c := min(max(x, 0), QA)
		sum += int64(c*int32(w[j])) * int64(c)
	}
	return sum
}
