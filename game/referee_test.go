package game_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/variants"
)

// scripted plays the moves it is given, one per turn, then errs; it keeps
// every turn it was shown.
type scripted struct {
	name    string
	moves   []string
	err     error
	delay   time.Duration
	newGame error
	turns   []game.Turn
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) NewGame(context.Context, *engine.Variant) error { return s.newGame }

func (s *scripted) Move(_ context.Context, t *game.Turn) (string, error) {
	s.turns = append(s.turns, *t)
	time.Sleep(s.delay)
	if len(s.moves) == 0 {
		if s.err != nil {
			return "", s.err
		}
		return "", errors.New("out of moves")
	}
	m := s.moves[0]
	s.moves = s.moves[1:]
	return m, nil
}

func TestRefereeMateAndPGN(t *testing.T) {
	white := &scripted{name: "W", moves: []string{"f2f3", "g2g4"}}
	black := &scripted{name: "B", moves: []string{"e7e5", "d8h4"}}
	ref := &game.Referee{Variant: variants.Chess(), Tags: map[string]string{"Event": "test"}}
	rec := ref.Play(context.Background(), white, black)
	require.Equal(t, "0-1", rec.Result)
	require.Equal(t, game.Termination{Kind: game.ByRule, Rule: engine.Checkmate}, rec.Termination)
	require.Equal(t, []string{"f3", "e5", "g4", "Qh4#"}, rec.SAN)
	// Each player saw the moves so far and a position of its own.
	require.Equal(t, []string{"f2f3", "e7e5"}, black.turns[1].Moves[:2])
	require.Equal(t, "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", black.turns[1].Position.FEN())
	require.Nil(t, white.turns[0].Clock, "no clock without a time control")
	var b bytes.Buffer
	require.NoError(t, rec.WritePGN(&b))
	for _, want := range []string{`[Event "test"]`, `[White "W"]`, `[Black "B"]`, `[Result "0-1"]`, `[Termination "checkmate"]`, "2. g4 Qh4# 0-1"} {
		require.Contains(t, b.String(), want)
	}
}

func TestRefereeInfractions(t *testing.T) {
	gone := fmt.Errorf("%w: exit status 1", game.ErrPlayerGone)
	for _, tc := range []struct {
		name   string
		white  *scripted
		kind   game.TerminationKind
		text   string
		result string
	}{
		{"illegal", &scripted{moves: []string{"e2e5"}}, game.IllegalMove, "illegal move e2e5", "0-1"},
		{"malformed", &scripted{moves: []string{"hello"}}, game.IllegalMove, "illegal move hello", "0-1"},
		{"crash", &scripted{err: gone}, game.PlayerCrash, "engine crash", "0-1"},
		{"hang", &scripted{err: errors.New("no bestmove in time")}, game.TimeForfeit, "time forfeit", "0-1"},
		{"unready", &scripted{newGame: errors.New("no readyok")}, game.PlayerCrash, "engine crash", "0-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := &game.Referee{Variant: variants.Chess()}
			rec := ref.Play(context.Background(), tc.white, &scripted{moves: []string{"e7e5"}})
			require.Equal(t, tc.kind, rec.Termination.Kind)
			require.Equal(t, engine.White, rec.Termination.Side)
			require.Equal(t, tc.text, rec.Termination.String())
			require.True(t, rec.Termination.Infraction())
			require.Equal(t, tc.result, rec.Result)
		})
	}
}

// TestRefereeClock: the clocks reach the players, and a player slower than
// its whole clock loses on time (the sleep only makes it slower).
func TestRefereeClock(t *testing.T) {
	tc := game.TimeControl{Moves: 40, Base: time.Minute, Increment: time.Second}
	white := &scripted{moves: []string{"e2e4"}}
	black := &scripted{moves: []string{"e7e5"}}
	ref := &game.Referee{Variant: variants.Chess(), TimeControls: [2]*game.TimeControl{&tc, &tc}, MaxPlies: 2}
	rec := ref.Play(context.Background(), white, black)
	require.Equal(t, game.MoveLimit, rec.Termination.Kind)
	require.Equal(t, "1/2-1/2", rec.Result)
	first := white.turns[0]
	require.Equal(t, &game.ClockState{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second, MovesToGo: 40}, first.Clock)
	require.False(t, first.Deadline.IsZero())
	require.Equal(t, 40, black.turns[0].Clock.MovesToGo, "Black has not moved yet")
	require.Equal(t, time.Minute, black.turns[0].Clock.BTime)
	require.LessOrEqual(t, black.turns[0].Clock.WTime, time.Minute+time.Second, "White's clock ran, then gained the increment")
	require.Equal(t, "40/60+1", rec.Tags["TimeControl"])

	short := game.TimeControl{Base: time.Millisecond}
	slow := &scripted{moves: []string{"e2e4"}, delay: 20 * time.Millisecond}
	ref = &game.Referee{Variant: variants.Chess(), TimeControls: [2]*game.TimeControl{&short, nil}}
	rec = ref.Play(context.Background(), slow, &scripted{})
	require.Equal(t, game.TimeForfeit, rec.Termination.Kind)
	require.Equal(t, "0-1", rec.Result)
}

func TestRefereeAdjudicationRandomPliesAndCancel(t *testing.T) {
	plies := 0
	ref := &game.Referee{Variant: variants.Chess(),
		Adjudicate: func(pos *engine.Position) (string, string, bool) {
			plies++
			return "1-0", "resigned", plies == 2
		}}
	rec := ref.Play(context.Background(), &scripted{moves: []string{"e2e4"}}, &scripted{moves: []string{"e7e5"}})
	require.Equal(t, game.Termination{Kind: game.Adjudicated, Detail: "resigned"}, rec.Termination)
	require.Equal(t, "resigned", rec.Termination.String())
	require.Equal(t, "1-0", rec.Result)
	require.False(t, rec.Termination.Infraction())

	// Random opening plies are the referee's: the players see them as moves.
	white := &scripted{}
	ref = &game.Referee{Variant: variants.Chess(), RandomPlies: 2, Rand: rand.New(rand.NewPCG(1, 2))}
	rec = ref.Play(context.Background(), white, &scripted{})
	require.Len(t, rec.Moves, 2)
	require.Len(t, white.turns[0].Moves, 2)
	require.Equal(t, game.TimeForfeit, rec.Termination.Kind)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec = (&game.Referee{Variant: variants.Chess()}).Play(ctx, &scripted{}, &scripted{})
	require.Equal(t, game.Unterminated, rec.Termination.Kind)
	require.Equal(t, "*", rec.Result)
	require.Equal(t, "unterminated", rec.Termination.String())
}

// TestRefereePGNClocks: with clocks, each move of the PGN carries the
// mover's clock after it and the time it took ([%clk], [%emt]), kept on
// the move's line; without clocks there are none.
func TestRefereePGNClocks(t *testing.T) {
	tc := game.TimeControl{Base: 90 * time.Minute, Increment: 30 * time.Second}
	white := &scripted{moves: []string{"f2f3", "g2g4"}}
	black := &scripted{moves: []string{"e7e5", "d8h4"}}
	ref := &game.Referee{Variant: variants.Chess(), TimeControls: [2]*game.TimeControl{&tc, &tc}}
	rec := ref.Play(context.Background(), white, black)
	require.Len(t, rec.Times, 4)
	clocks := [2]time.Duration{tc.Base, tc.Base}
	for i, mt := range rec.Times {
		// Each move's clock gained the increment, less what the move took.
		clocks[i%2] += tc.Increment - mt.Spent
		require.Equal(t, clocks[i%2], mt.Left)
		require.Less(t, mt.Spent, time.Second)
	}
	rec.Times[3] = game.MoveTime{Spent: 1234 * time.Millisecond, Left: time.Hour + 2*time.Minute + 3456*time.Millisecond}
	var b bytes.Buffer
	require.NoError(t, rec.WritePGN(&b))
	require.Contains(t, b.String(), "Qh4# {[%clk 1:02:03.456] [%emt 0:00:01.234]} 0-1")
	for _, line := range strings.Split(b.String(), "\n") {
		require.Equal(t, strings.Count(line, "{"), strings.Count(line, "}"), "a comment closes on its line: %q", line)
	}

	rec = (&game.Referee{Variant: variants.Chess()}).Play(context.Background(),
		&scripted{moves: []string{"f2f3", "g2g4"}}, &scripted{moves: []string{"e7e5", "d8h4"}})
	b.Reset()
	require.NoError(t, rec.WritePGN(&b))
	require.NotContains(t, b.String(), "{")
}
