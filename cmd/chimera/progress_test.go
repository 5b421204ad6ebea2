package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestProgressOnlyOnATerminal: progress redrawn in place ("\r") is drawn
// only on a terminal; redirected, an event (a match's game) is a line of
// its own and mere progress is not written. selfplay and compare used to
// write hundreds of "\r" frames into a log; now a line a game and a line
// a tenth of the games.
func TestProgressOnlyOnATerminal(t *testing.T) {
	var log bytes.Buffer
	line := newLiveLine(&log)
	line.draw("games %d/%d", 1, 2)
	line.report("game %d/%d: 1-0", 1, 2)
	line.draw("games %d/%d", 2, 2)
	line.report("game %d/%d: 0-1", 2, 2)
	line.end()
	require.Equal(t, "game 1/2: 1-0\ngame 2/2: 0-1\n", log.String())

	for _, args := range [][]string{
		{"selfplay", "--variant", "chess", "--games", "2", "--depth", "1", "--no-tablebase", "--max-plies", "20"},
		{"compare", "--material", "KQvK", "--positions", "2", "--depth", "1", "--dir", t.TempDir()},
	} {
		code, _, errOut := runCommand(args...)
		require.Zero(t, code, errOut)
		require.NotContains(t, errOut, "\r", args[0])
	}
}

// TestProgressEstimatesFromTheStart: the time left is estimated from when
// the work began, not from the first report (datagen's first line used to
// say "ETA 0s" after its first game of millions); a later stage counts
// from the end of the one before.
func TestProgressEstimatesFromTheStart(t *testing.T) {
	var log bytes.Buffer
	bar := newProgressBar(&log)
	bar.start = bar.start.Add(-10 * time.Second) // the work began 10 s ago
	bar.show("games", 10, 100, "")
	require.Regexp(t, `^games  10%  ETA 1m3[01]s \n$`, log.String()) // a second more on a stalled machine

	log.Reset()
	bar.last = bar.last.Add(-20 * time.Second) // the first stage ended 20 s ago
	bar.show("epoch", 1, 5, "")
	require.Regexp(t, `^epoch  20%  ETA 1m2[01]s \n$`, log.String())
}
