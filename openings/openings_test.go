package openings_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/openings"
	"github.com/chimera-chess/chimera/variants"
)

func TestGenerate(t *testing.T) {
	v, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	cfg := openings.Config{Variant: v, Count: 6, Plies: 6, Balance: 60, Depth: 3, Seed: 7}
	var streamed []string
	book, err := openings.Generate(context.Background(), cfg, func(fen string) { streamed = append(streamed, fen) })
	require.NoError(t, err)
	require.Len(t, book, 6)
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
	// With no random moves there is one position only: a second is never
	// found, and the generator says so instead of looping.
	cfg := openings.Config{Variant: variants.Chess(), Count: 2, Plies: 0, Balance: 10000, Depth: 1, Seed: 1}
	book, err := openings.Generate(context.Background(), cfg, nil)
	require.ErrorContains(t, err, "only 1 balanced positions found")
	require.Equal(t, []string{variants.ChessFEN}, book)
}
