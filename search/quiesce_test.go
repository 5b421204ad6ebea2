package search_test

import (
	"context"
	"testing"

	"github.com/chimera-chess/chimera/search"
	"github.com/stretchr/testify/require"
)

// TestQuiesceLine: the quiescence search alone returns the captures that
// resolve a position and the score standing pat at their end, and an
// empty line where standing pat is best at once.
func TestQuiesceLine(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		line      []string
		atLeast   int // the score for the side to move, in centipawns
	}{
		{"a hanging queen is taken", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", []string{"d1d5"}, 400},
		// Rxd5 exd5 loses the exchange: nothing is taken, the line is empty.
		{"a defended pawn is left", "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", nil, 0},
		{"the exchange goes on to its end", "4k3/8/4p3/3q4/8/8/3R4/3RK3 w - - 0 1", []string{"d2d5", "e6d5", "d1d5"}, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, "chess", tc.fen)
			before := p.FEN()
			s := search.New(options())
			score, line := s.Quiesce(context.Background(), p)
			var got []string
			for _, m := range line {
				got = append(got, p.Variant().UCI(m))
			}
			require.Equal(t, tc.line, got)
			require.GreaterOrEqual(t, int(score), tc.atLeast)
			require.Equal(t, before, p.FEN(), "the position is not modified")
			// The line is legal, and its end has nothing left to take
			// that the search would rather take.
			q := p.Clone()
			for _, m := range line {
				require.Contains(t, q.LegalMoves(nil), m)
				q.Make(m)
			}
			_, rest := s.Quiesce(context.Background(), q)
			require.Empty(t, rest)
		})
	}
}
