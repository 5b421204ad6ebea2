package explorer_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/explorer"
)

// TestCategories: one position per category, lichess's rules from the
// distance to zeroing and the FEN's half-move clock. KBNvK's 7K/8/4N3/k7
// is won in 57 plies to zeroing (the mate): a win with the clock at 0, a
// cursed win with 50 on it; the position after White's best move is lost
// for Black, or saved by the clock (blessed). Under -short the same from
// KRvK's longest win, 31 plies with 80 on the clock: its table builds in
// a fiftieth of KBNvK's time.
func TestCategories(t *testing.T) {
	table, fen, dtz, clock := "KBNvK", "7K/8/4N3/k7/8/8/8/1B6 w - - %d 1", 57, 50
	if testing.Short() {
		table, fen, dtz, clock = "KRvK", "8/8/8/4k3/8/8/1R6/K7 w - - %d 1", 31, 80
	}
	srv, _ := newServer(t, table, "KNvK", "KQvK")
	win := probe(t, srv, "chess", fmt.Sprintf(fen, 0))
	require.Equal(t, "win", win.Category)
	require.Equal(t, dtz, *win.DTZ)
	require.Equal(t, dtz, *win.PreciseDTZ)
	require.Equal(t, dtz, *win.DTM)

	cursed := probe(t, srv, "chess", fmt.Sprintf(fen, clock))
	require.Equal(t, "cursed-win", cursed.Category, "%d + %d plies pass the hundred", dtz, clock)
	require.Equal(t, dtz, *cursed.DTZ, "the distance is the table's; the clock makes the category")
	best := cursed.Moves[0]
	require.Equal(t, "blessed-loss", best.Category, "the move leaves Black a loss the clock saves")
	require.Equal(t, -(dtz - 1), *best.DTZ)

	lost := probe(t, srv, "chess", win.Moves[0].FEN)
	require.Equal(t, "loss", lost.Category)
	require.Equal(t, -(dtz - 1), *lost.DTZ)
	blessed := probe(t, srv, "chess", best.FEN)
	require.Equal(t, "blessed-loss", blessed.Category, "%s: %d plies with %d on the clock", best.FEN, dtz-1, clock+1)

	// With the clock past the hundredth ply, lichess calls every win cursed.
	late := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KQ6 w - - 101 80")
	require.Equal(t, "cursed-win", late.Category)

	draw := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KN6 w - - 0 1")
	require.Equal(t, "draw", draw.Category)
	require.Equal(t, 0, *draw.DTZ)

	unknown := probe(t, srv, "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	require.Equal(t, "unknown", unknown.Category)
	require.Nil(t, unknown.DTZ)
	require.Nil(t, unknown.PreciseDTZ)
}

// TestRootFromMoves: a position no table holds (castling rights) is known
// from its moves, as lichess infers it; in variants without tables two
// pieces are not a draw unless the rules say so.
func TestRootFromMoves(t *testing.T) {
	srv, _ := newServer(t, "KRvK")
	castling := probe(t, srv, "chess", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
	require.Nil(t, castling.Table, "no table holds castling rights")
	require.Equal(t, "win", castling.Category, "its moves lead into KRvK's wins")

	hill := probe(t, srv, "kingofthehill", "8/8/8/8/8/3K4/8/7k w - - 0 1")
	require.Equal(t, "win", hill.Category, "Kd4 reaches the hill")
	require.Equal(t, "Kd4", hill.Moves[0].SAN)
	require.True(t, hill.Moves[0].VariantLoss)

	anti := probe(t, srv, "antichess", "8/8/8/4k3/8/8/8/1R6 w - - 0 1")
	require.NotEqual(t, "draw", anti.Category, "two pieces are no draw in antichess")
	for _, m := range anti.Moves {
		if !m.VariantWin && !m.VariantLoss && !m.Stalemate {
			require.Equal(t, "unknown", m.Category, m.SAN)
		}
	}
}

// TestLenientFEN: castling rights and an en-passant square that do not fit
// the position are ignored, as lichess ignores them, not refused.
func TestLenientFEN(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	a := probe(t, srv, "chess", "8/8/8/4k3/8/8/8/KQ6 w KQkq e6 0 1")
	require.Equal(t, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", a.FEN)
	require.Equal(t, "win", a.Category)
	var e map[string]any
	require.Equal(t, http.StatusBadRequest, get(t, srv, "/chess?fen="+url.QueryEscape("8/8/8/4k3/8/8/8/KQ6 w - - 0 1 extra"), &e))
}

// TestMainline: the distance-to-zeroing line of KQvK runs to the mate,
// the distances alternating in sign and shrinking by one a ply, the last
// move leaving -1 (mated); a drawn position has none; a position no table
// holds is a 404.
func TestMainline(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	var line explorer.Mainline
	require.Equal(t, http.StatusOK, get(t, srv, "/standard/mainline?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1", &line))
	require.Positive(t, line.DTZ)
	require.Equal(t, line.DTZ, *line.PreciseDTZ)
	require.Len(t, line.Mainline, line.DTZ)
	for i, st := range line.Mainline {
		want := -(line.DTZ - i - 1)
		if i%2 == 1 {
			want = line.DTZ - i - 1
		}
		if i == len(line.Mainline)-1 {
			want = -1
		}
		require.Equal(t, want, st.DTZ, "step %d %s", i, st.SAN)
	}
	require.Equal(t, "w", *line.Winner)
	require.Contains(t, line.Mainline[len(line.Mainline)-1].SAN, "#")

	var drawn explorer.Mainline
	require.Equal(t, http.StatusOK, get(t, srv, "/chess/mainline?fen=8/8/8/4k3/8/8/8/KN6_w_-_-_0_1", &drawn))
	require.Empty(t, drawn.Mainline)
	require.Nil(t, drawn.Winner)

	var e map[string]any
	require.Equal(t, http.StatusNotFound, get(t, srv, "/chess/mainline?fen="+url.QueryEscape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), &e))
}
