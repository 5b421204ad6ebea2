package match_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/match"
	"github.com/chimera-chess/chimera/variants"
)

func TestReadOpeningsEPD(t *testing.T) {
	book := `# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4"; c0 "king's pawn";

rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
`
	got, err := match.ReadOpenings(strings.NewReader(book), variants.Chess())
	require.NoError(t, err)
	require.Equal(t, []string{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}, got.Openings)
	require.Zero(t, got.Finished)
}

func TestReadOpeningsPGN(t *testing.T) {
	book := `[Event "one"]
[Result "*"]

1. e4 e5 {open game} 2. Nf3 (2. f4 exf4) Nc6 $1 *

[Event "two"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 1/2-1/2
1.d4 {[%clk 0:00:09.870] [%emt 0:00:00.230]} d5 {[%clk 0:00:09.901] [%emt 0:00:00.199]}
`
	got, err := match.ReadOpenings(strings.NewReader(book), variants.Chess())
	require.NoError(t, err)
	require.Equal(t, []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"8/3k4/8/8/4P3/8/8/4K3 w - - 1 2",
		"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",
	}, got.Openings)
}

func TestReadOpeningsErrors(t *testing.T) {
	for book, want := range map[string]string{
		"":                              "no positions",
		"# only a comment\n":            "no positions",
		"not a fen\n":                   "line 1",
		"1. e4 e4\n":                    `"e4" is not legal`,
		"[FEN \"8/8/8/8/8/8/8/8 w\"]\n": "game 1",
	} {
		_, err := match.ReadOpenings(strings.NewReader(book), variants.Chess())
		require.ErrorContains(t, err, want, "%q", book)
	}
}

func FuzzReadOpenings(f *testing.F) {
	f.Add("1. e4 e5 2. Nf3 *\n")
	f.Add("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e4 (1. e3 {x}) Kd7\n")
	f.Add("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n")
	f.Fuzz(func(t *testing.T, book string) {
		got, err := match.ReadOpenings(strings.NewReader(book), variants.Chess())
		if err != nil {
			return
		}
		require.NotEmpty(t, got.Openings, "a book read has a position to play")
		for _, fen := range got.Openings {
			p, err := variants.Chess().ParseFEN(fen)
			require.NoError(t, err, "an opening read is a legal position")
			require.False(t, p.Result().Over(), "an opening read has a move to play")
		}
	})
}

// TestReadOpeningsSkipsFinishedGames: a book's positions whose game is
// already over (a PGN of games ended by mate or stalemate, as a
// finished.pgn is) are left out and counted; a book of nothing else is
// refused, in PGN or EPD. They used to be played as games of no move,
// scored "0-1 (checkmate)".
func TestReadOpeningsSkipsFinishedGames(t *testing.T) {
	const mated = "1. f3 e5 2. g4 Qh4# 0-1\n\n"
	const stalemate = "[FEN \"7k/5Q2/8/6K1/8/8/8/8 w - - 0 1\"]\n\n1. Kg6 1/2-1/2\n\n"
	got, err := match.ReadOpenings(strings.NewReader(mated+"1. e4 e5 *\n\n"+stalemate), variants.Chess())
	require.NoError(t, err)
	require.Equal(t, []string{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}, got.Openings)
	require.Equal(t, 2, got.Finished)

	for book, want := range map[string]string{
		mated + stalemate: "no position to play: the games of all 2 are already over",
		"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n": "no position to play: the games of all 1 are already over",
	} {
		_, err := match.ReadOpenings(strings.NewReader(book), variants.Chess())
		require.ErrorContains(t, err, want, "%q", book)
	}
}
