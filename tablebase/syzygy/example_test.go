package syzygy_test

import (
	"errors"
	"fmt"

	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
)

// Probing a position of KBNvK, Black to move: lost, a zeroing move
// forced within 53 plies; and a position of five pieces, whose table is
// not among the test data.
func Example() {
	tb, err := syzygy.Open("testdata/regular")
	if err != nil {
		panic(err)
	}
	defer tb.Close()
	pos, err := variants.Chess().ParseFEN("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")
	if err != nil {
		panic(err)
	}
	wdl, err := tb.ProbeWDL(pos)
	if err != nil {
		panic(err)
	}
	dtz, err := tb.ProbeDTZ(pos)
	if err != nil {
		panic(err)
	}
	fmt.Println(wdl, dtz, tb.MaxPieces())

	five, err := variants.Chess().ParseFEN("8/8/3k4/8/6r1/8/1QQ5/1K6 w - - 0 1")
	if err != nil {
		panic(err)
	}
	_, err = tb.ProbeWDL(five)
	fmt.Println(errors.Is(err, syzygy.ErrMissing), err)
	// Output:
	// loss -53 4
	// true syzygy: table missing: KQQvKR.rtbw
}
