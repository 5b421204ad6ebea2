package game_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

func TestParseTimeControl(t *testing.T) {
	for s, want := range map[string]game.TimeControl{
		"40/60+0.5": {Moves: 40, Base: 60 * time.Second, Increment: 500 * time.Millisecond},
		"60+0.5":    {Base: 60 * time.Second, Increment: 500 * time.Millisecond},
		"1+0.01":    {Base: time.Second, Increment: 10 * time.Millisecond},
		"10":        {Base: 10 * time.Second},
	} {
		tc, err := game.ParseTimeControl(s)
		require.NoError(t, err, s)
		require.Equal(t, want, tc, s)
		require.Equal(t, s, tc.String())
	}
	for _, bad := range []string{"", "x", "40/", "0/60", "60+x", "-5", "60+-1", "/60"} {
		_, err := game.ParseTimeControl(bad)
		require.Error(t, err, bad)
	}
}

func TestClock(t *testing.T) {
	c := game.NewClock(game.TimeControl{Moves: 2, Base: time.Second, Increment: 100 * time.Millisecond})
	require.Equal(t, 2, c.MovesToGo())
	require.True(t, c.Spend(300*time.Millisecond))
	require.Equal(t, 800*time.Millisecond, c.Left)
	require.Equal(t, 1, c.MovesToGo())
	require.True(t, c.Spend(300*time.Millisecond))
	require.Equal(t, 1600*time.Millisecond, c.Left, "a new control adds the base time")
	require.False(t, c.Spend(2*time.Second), "the flag falls")
}

// TestSelfPlayEveryVariant: games of every built-in variant at a shallow
// depth end by one of the variant's rules, with no illegal move.
func TestSelfPlayEveryVariant(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 2
	}
	for _, name := range variants.Names() {
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			sp := &game.SelfPlay{Variant: v, Games: games, A: game.Player{Name: "a", Depth: 1, HashMB: 1},
				B: game.Player{Name: "b", Depth: 2, HashMB: 1}, RandomPlies: 6, Seed: 3}
			st, recs, err := sp.Run(context.Background())
			require.NoError(t, err)
			require.Equal(t, games, st.Games)
			for _, rec := range recs {
				require.Contains(t, []string{"1-0", "0-1", "1/2-1/2"}, rec.Result)
				require.NotContains(t, []string{"illegal move", "time forfeit", "move limit", "unterminated", ""}, rec.Termination)
				// The record replays to the same end.
				pos := v.StartPosition()
				for _, m := range rec.Moves {
					pos.Make(m)
				}
				require.True(t, pos.Result().Over())
				require.Equal(t, rec.Result, pos.Result().PGN())
			}
		})
	}
}

func TestPGN(t *testing.T) {
	v, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	sp := &game.SelfPlay{Variant: v, Games: 1, A: game.Player{Name: "a", Depth: 1}, B: game.Player{Name: "b", Depth: 1},
		StartFEN: "k9/10/2C7/10/10/10/10/1R7K w - - 0 1"}
	_, recs, err := sp.Run(context.Background())
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, recs[0].WritePGN(&b))
	pgn := b.String()
	for _, want := range []string{`[Variant "capablanca"]`, `[FEN "k9/10/2C7/10/10/10/10/1R7K w - - 0 1"]`, `[SetUp "1"]`,
		`[Result "1-0"]`, `[Termination "checkmate"]`, "1. ", "# 1-0"} {
		require.Contains(t, pgn, want)
	}
	// From the standard start position there is no FEN tag.
	chess := variants.Chess()
	sp = &game.SelfPlay{Variant: chess, Games: 1, A: game.Player{Depth: 1}, B: game.Player{Depth: 1}, MaxPlies: 3}
	_, recs, err = sp.Run(context.Background())
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, recs[0].WritePGN(&b))
	require.NotContains(t, b.String(), "[FEN")
	require.Contains(t, b.String(), `[Termination "move limit"]`)
	require.True(t, strings.HasSuffix(b.String(), "1/2-1/2\n\n"))
}

func TestSelfPlayOnTheClock(t *testing.T) {
	tc, err := game.ParseTimeControl("2+0.02")
	require.NoError(t, err)
	sp := &game.SelfPlay{Variant: variants.Chess(), Games: 2, A: game.Player{TC: &tc}, B: game.Player{TC: &tc},
		RandomPlies: 2, MaxPlies: 60}
	st, _, err := sp.Run(context.Background())
	require.NoError(t, err)
	require.Zero(t, st.TimeForfeits)
}

// TestComparison: plain search converts KQvK at depth 4 but wanders at
// depth 1, and the rows add up.
func TestComparison(t *testing.T) {
	v := variants.Chess()
	store := tablebase.NewStore(t.TempDir())
	m, err := tablebase.ParseMaterial(v, "KQvK")
	require.NoError(t, err)
	tb, err := store.Table(v, m)
	require.NoError(t, err)
	c := &game.Comparison{Table: tb, Store: store, Positions: 10, Seed: 3, MaxMoves: 80,
		Settings: []game.CompareSetting{{Depth: 1}, {Depth: 4}}}
	rows, err := c.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, rows, 2)
	for _, r := range rows {
		require.Equal(t, 10, r.Games)
		require.LessOrEqual(t, r.MatedIn50, r.Mated)
		require.LessOrEqual(t, r.OptimalMoves, r.Moves)
		require.GreaterOrEqual(t, r.MovesUsed, r.MovesOptimal, "nobody beats the tablebase")
	}
	require.GreaterOrEqual(t, rows[1].Mated, 8, "depth 4 mates with a queen")
	require.Greater(t, rows[1].Mated, rows[0].Mated)
	for _, p := range game.RandomWins(tb, 5, 9) {
		r, err := tb.Probe(p)
		require.NoError(t, err)
		require.Equal(t, 1, r.WDL)
	}
}
