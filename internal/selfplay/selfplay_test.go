package selfplay_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/internal/selfplay"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// TestSelfPlayEveryVariant: games of every built-in variant at a shallow
// depth end by one of the variant's rules, with no illegal move. Under
// -short one game of the first variant of each rule family (ruleFamily):
// 53 of the 91, every way a game ends and every kind of move still played,
// where the variants left out differ from the one played only in their
// pieces, board and start position. Both players search one ply there
// (b two in the full run): the same players, referee and records, at
// half the nodes.
func TestSelfPlayEveryVariant(t *testing.T) {
	games, depthB := 20, 2
	if testing.Short() {
		games, depthB = 1, 1
	}
	played := map[string]bool{}
	for _, name := range variants.Names() {
		if testing.Short() {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			f := ruleFamily(v)
			if played[f] {
				continue
			}
			played[f] = true
		}
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			sp := &selfplay.SelfPlay{Variant: v, Games: games, A: selfplay.Config{Name: "a", Depth: 1, HashMB: 1},
				B: selfplay.Config{Name: "b", Depth: depthB, HashMB: 1}, RandomPlies: 6, Seed: 3}
			st, recs, err := sp.Run(context.Background())
			require.NoError(t, err)
			require.Equal(t, games, st.Games)
			for _, rec := range recs {
				require.Contains(t, []string{"1-0", "0-1", "1/2-1/2"}, rec.Result)
				require.Equal(t, game.ByRule, rec.Termination.Kind, rec.Termination.String())
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

// ruleFamily sums up the rules that decide how a variant's games end
// and what kinds of moves they hold: the goals (checkmate, stalemate,
// extinction, bare kings, flags, check counting, counting rules, the
// move and repetition rules), hands and drops, royal and promotion rules,
// castling. Variants of one family differ in their pieces, board and
// start position alone.
func ruleFamily(v *engine.Variant) string {
	hands := v.Hands
	hands.DropRegion = nil // a pointer: its squares are the board's
	return fmt.Sprintf("%v|%v|%v %v %v %v %v|%v %v|%v %v %v %v %v %v %v %v %v %v %v", v.Goal, hands,
		v.FlyingGeneral, v.KingPass, v.Missile, v.NoChecks, v.RoyalRule, v.MoveRule, v.RepetitionRule,
		v.OptionalPromotion, v.SittuyinPromotion, v.MandatoryPiecePromotion, v.PieceDemotion, v.PiecePromotionOnCapture,
		v.KingStaysInCheck, v.ImmobilityIllegal, v.Chess960, v.CambodianMoves, len(v.Castling) > 0, len(v.PiecePromotion) > 0)
}

func TestPGN(t *testing.T) {
	v, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	sp := &selfplay.SelfPlay{Variant: v, Games: 1, A: selfplay.Config{Name: "a", Depth: 1}, B: selfplay.Config{Name: "b", Depth: 1},
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
	sp = &selfplay.SelfPlay{Variant: chess, Games: 1, A: selfplay.Config{Depth: 1}, B: selfplay.Config{Depth: 1}, MaxPlies: 3}
	_, recs, err = sp.Run(context.Background())
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, recs[0].WritePGN(&b))
	require.NotContains(t, b.String(), "[FEN")
	require.Contains(t, b.String(), `[Termination "move limit"]`)
	require.True(t, strings.HasSuffix(b.String(), "1/2-1/2\n\n"))
}

func TestSelfPlayOnTheClock(t *testing.T) {
	if testing.Short() {
		t.Skip("clock games; run without -short")
	}
	tc, err := game.ParseTimeControl("2+0.02")
	require.NoError(t, err)
	sp := &selfplay.SelfPlay{Variant: variants.Chess(), Games: 2, A: selfplay.Config{TC: &tc}, B: selfplay.Config{TC: &tc},
		RandomPlies: 2, MaxPlies: 60}
	st, _, err := sp.Run(context.Background())
	require.NoError(t, err)
	require.Zero(t, st.TimeForfeits)
}

// TestEvaluator: a player given an evaluator searches with it, and one
// given an evaluator and the evaluation options too is refused.
func TestEvaluator(t *testing.T) {
	v := variants.Chess()
	used := 0
	cfg := selfplay.Config{Name: "a", Depth: 1, HashMB: 1, Evaluator: func(v *engine.Variant) eval.Evaluator {
		used++
		return eval.NewDocuments(v)
	}}
	sp := &selfplay.SelfPlay{Variant: v, Games: 1, A: cfg, B: cfg, RandomPlies: 2, Seed: 1, MaxPlies: 4}
	_, _, err := sp.Run(context.Background())
	require.NoError(t, err)
	require.Positive(t, used, "the evaluator searched")
	cfg.EvalFile = "w.txt"
	_, err = selfplay.NewSearchPlayerChecked(cfg, search.Options{})
	require.ErrorContains(t, err, "give one way")
}

// TestInterruptedGameIsNotCounted: a game cut short by ctx has no result:
// the series returns the games finished and ctx's error, and neither
// counts the game under way (it was counted a draw, its record "*") nor
// gives it to OnGame.
func TestInterruptedGameIsNotCounted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var told []int
	sp := &selfplay.SelfPlay{Variant: variants.Chess(), Games: 5, A: selfplay.Config{Depth: 1}, B: selfplay.Config{Depth: 1},
		RandomPlies: 2, MaxPlies: 40,
		OnGame: func(g int, _ *game.Record, _ selfplay.Stats) { told = append(told, g) },
		// The interrupt comes in the second game, after its tenth ply.
		OnMove: func(g int, pos *engine.Position, _ engine.Move, _ string) {
			if g == 2 && pos.Ply() == 10 {
				cancel()
			}
		}}
	st, recs, err := sp.Run(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, st.Games)
	require.Equal(t, 1, st.AWins+st.Draws+st.BWins)
	require.Len(t, recs, 1)
	require.NotEqual(t, "*", recs[0].Result)
	require.Equal(t, []int{1}, told)
	require.Equal(t, len(recs[0].Moves), st.Plies, "the plies of the finished game alone")
}
