//go:build race

package syzygy_test

// raceEnabled: the race detector is on (tests shrink their work).
const raceEnabled = true
