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
