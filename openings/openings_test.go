package openings_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/openings"
	"github.com/chimera-chess/chimera/variants"
)

// TestGenerate: a book holds the positions asked for, distinct, each the
// given plies from the start, streamed as found; the same seed gives the
// same book and another seed another. Under -short three positions, not
// six: each book's searches were most of the test's time.
func TestGenerate(t *testing.T) {
	v, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	count := 6
	if testing.Short() {
		count = 3
	}
	cfg := openings.Config{Variant: v, Count: count, Plies: 6, Balance: 60, Depth: 3, Seed: 7}
	var streamed []string
	book, err := openings.Generate(context.Background(), cfg, func(fen string) { streamed = append(streamed, fen) })
	require.NoError(t, err)
	require.Len(t, book, count)
	require.Equal(t, book, streamed)
	seen := map[string]bool{}
	for _, fen := range book {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		require.Equal(t, 4, p.FullmoveNumber(), "six plies from the start: move 4, White to move")
		require.False(t, seen[fen], "positions are distinct")
		seen[fen] = true
	}
	again, err := openings.Generate(context.Background(), cfg, nil)
	require.NoError(t, err)
	require.Equal(t, book, again, "the same seed gives the same book")
	cfg.Seed = 8
	other, err := openings.Generate(context.Background(), cfg, nil)
	require.NoError(t, err)
	require.NotEqual(t, book, other)
}

func TestGenerateGivesUp(t *testing.T) {
	// With one random move there are twenty positions only: a 21st is
	// never found, and the generator says so instead of looping.
	cfg := openings.Config{Variant: variants.Chess(), Count: 21, Plies: 1, Balance: 10000, Depth: 1, Seed: 1}
	book, err := openings.Generate(context.Background(), cfg, nil)
	require.ErrorContains(t, err, "only 20 balanced positions found")
	require.Len(t, book, 20)
}

// TestGenerateNeedsAPly: without a random move every line is the start
// position, so Plies 0 is refused at once, saying why (it searched
// 200 lines a position asked for before saying "only 1 balanced
// positions found").
func TestGenerateNeedsAPly(t *testing.T) {
	cfg := openings.Config{Variant: variants.Chess(), Count: 2, Plies: 0, Balance: 10000, Depth: 1, Seed: 1}
	book, err := openings.Generate(context.Background(), cfg, nil)
	require.EqualError(t, err, "0 plies: a book needs at least one random move from the start")
	require.Empty(t, book)
}

// TestChess960Openings: a Chess960 book starts from many start arrays.
func TestChess960Openings(t *testing.T) {
	v, err := variants.Lookup("chess960")
	require.NoError(t, err)
	fens, err := openings.Generate(context.Background(), openings.Config{Variant: v, Count: 6, Plies: 2, Balance: 300, Depth: 1, Seed: 3}, nil)
	require.NoError(t, err)
	arrays := map[string]bool{}
	for _, fen := range fens {
		_, err := v.ParseFEN(fen)
		require.NoError(t, err)
		// Kings and rooks stay home in two plies: their files name the
		// array's family.
		rank1 := strings.Fields(strings.Split(fen, "/")[7])[0]
		arrays[strings.Map(func(r rune) rune {
			if r == 'K' || r == 'R' || (r >= '1' && r <= '8') {
				return r
			}
			return '.'
		}, rank1)] = true
	}
	require.Greater(t, len(arrays), 1, "more than one start array: %v", fens)
}
