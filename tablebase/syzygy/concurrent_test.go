package syzygy_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestConcurrentProbes: goroutines probing one Tables at once, each with
// positions of its own, from the first probe (so that they race to open
// the files) get python-chess's answers. Run it with -race.
func TestConcurrentProbes(t *testing.T) {
	cases := readOracle(t)
	step := 8
	if testing.Short() || raceEnabled {
		step = 32 // the race detector slows probing tenfold
	}
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	const goroutines = 6
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			// Each goroutine walks the cases from its own start, so that
			// they ask for different files at first.
			for i := 0; i < len(cases); i += step {
				c := cases[(i+g*len(cases)/goroutines)%len(cases)]
				pos, err := variants.Chess().ParseFEN(c.fen)
				if err != nil {
					errs <- err
					return
				}
				wdl, err := tb.ProbeWDL(pos)
				if err != nil {
					errs <- err
					return
				}
				dtz, err := tb.ProbeDTZ(pos)
				if err != nil {
					errs <- err
					return
				}
				if wdl != c.wdl || dtz != c.dtz {
					errs <- fmt.Errorf("oracle.txt:%d %s: WDL %d DTZ %d, python-chess %d %d", c.line, c.fen, wdl, dtz, c.wdl, c.dtz)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
