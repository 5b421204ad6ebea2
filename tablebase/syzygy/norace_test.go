//go:build !race

package syzygy_test

// raceEnabled: the race detector is off.
const raceEnabled = false
