package game

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/chimera-chess/chimera/engine"
)

// Player is one side of a refereed game: a searcher, an engine process
// spoken to over a protocol, a tablebase's perfect defence.
type Player interface {
	// Name is the player's name for the record.
	Name() string
	// NewGame prepares the player for a new game of v. An error loses the
	// game as a crash.
	NewGame(ctx context.Context, v *engine.Variant) error
	// Move returns the player's move in UCI notation. An error wrapping
	// ErrPlayerGone loses as a crash; any other error, or an answer after
	// the turn's deadline, loses on time. The referee checks the move.
	Move(ctx context.Context, t *Turn) (string, error)
}

// ErrPlayerGone is what a Player's Move wraps when the player can no
// longer play (its process ended).
var ErrPlayerGone = errors.New("player gone")

// Turn is what a player is told when it is to move.
type Turn struct {
	Variant  *engine.Variant
	StartFEN string
	// Moves are the moves since StartFEN in UCI notation.
	Moves []string
	// Position is the current position: the player's own copy.
	Position *engine.Position
	// Clock is nil when the side to move plays without a clock.
	Clock *ClockState
	// Deadline is when the referee stops waiting and counts a silent
	// player as lost on time; zero without a clock.
	Deadline time.Time
}

// ClockState is both sides' clocks as UCI's go command gives them; a side
// without a clock shows zero.
type ClockState struct {
	WTime, BTime, WInc, BInc time.Duration
	// MovesToGo is the side to move's moves until its next time control;
	// 0 when its base time is for the whole game.
	MovesToGo int
}

// Referee plays one game between two players by the variant's rules.
type Referee struct {
	Variant *engine.Variant
	// StartFEN is the start position (default: the variant's).
	StartFEN string
	// TimeControls are White's and Black's; nil plays that side without a
	// clock.
	TimeControls [2]*TimeControl
	// Margin is the grace beyond a player's clock before it is counted
	// as hung (default one second).
	Margin time.Duration
	// MaxPlies ends the game as a draw (MoveLimit) after that many plies;
	// 0 means no limit beyond the variant's own rules.
	MaxPlies int
	// RandomPlies opening plies are chosen by the referee at random with
	// Rand, so that games differ.
	RandomPlies int
	Rand        *rand.Rand
	// IgnoreMoveRule plays on past the variant's n-move rule (to measure
	// how a player converts a won ending).
	IgnoreMoveRule bool
	// Adjudicate, when set, is asked after every move whether to end the
	// game: the PGN result and the reason.
	Adjudicate func(pos *engine.Position) (result, reason string, over bool)
	// OnMove, when set, is called after every move with the new position.
	OnMove func(pos *engine.Position, m engine.Move, san string)
	// Tags are extra PGN tags for the record (Event, Round...).
	Tags map[string]string
}

// Play referees one game, White first, and returns its record. A cancelled
// ctx ends the game unterminated.
func (r *Referee) Play(ctx context.Context, white, black Player) *Record {
	v := r.Variant
	start := r.StartFEN
	if start == "" {
		start = v.StartFEN
	}
	rec := &Record{Variant: v, StartFEN: start, Date: time.Now(), Result: "*",
		Tags: map[string]string{"White": white.Name(), "Black": black.Name()}}
	for k, val := range r.Tags {
		rec.Tags[k] = val
	}
	if tc := r.TimeControls[engine.White]; tc != nil {
		rec.Tags["TimeControl"] = tc.String()
	}
	end := func(result string, t Termination) *Record {
		rec.Result, rec.Termination = result, t
		return rec
	}
	pos, err := v.ParseFEN(start)
	if err != nil {
		return end("*", Termination{Kind: Adjudicated, Detail: "bad start position: " + err.Error()})
	}
	players := [2]Player{white, black}
	for side, p := range players {
		if err := p.NewGame(ctx, v); err != nil {
			return end(lossFor(engine.Colour(side)), Termination{Kind: PlayerCrash, Side: engine.Colour(side), Detail: err.Error()})
		}
	}
	var clocks [2]*Clock
	for side, tc := range r.TimeControls {
		if tc != nil {
			clocks[side] = NewClock(*tc)
		}
	}
	margin := r.Margin
	if margin == 0 {
		margin = time.Second
	}
	var moves []string
	for ply := 0; ; ply++ {
		if res := pos.Result(); res.Over() && !(r.IgnoreMoveRule && res.Reason == engine.MoveRuleDraw) {
			return end(res.PGN(), Termination{Kind: ByRule, Rule: res.Reason})
		}
		if r.MaxPlies > 0 && ply >= r.MaxPlies {
			return end("1/2-1/2", Termination{Kind: MoveLimit})
		}
		if ctx.Err() != nil {
			return end("*", Termination{Kind: Unterminated})
		}
		side := pos.SideToMove()
		var m engine.Move
		var spent time.Duration
		if ply < r.RandomPlies && r.Rand != nil {
			legal := pos.LegalMoves(nil)
			m = legal[r.Rand.IntN(len(legal))]
		} else {
			var broke *Termination
			if m, spent, broke = r.ask(ctx, players[side], &Turn{Variant: v, StartFEN: start, Moves: moves}, pos, clocks, margin); broke != nil {
				result := lossFor(side)
				if broke.Kind == Unterminated {
					result = "*"
				}
				return end(result, *broke)
			}
		}
		san := pos.SAN(m)
		pos.Make(m)
		rec.Moves = append(rec.Moves, m)
		rec.SAN = append(rec.SAN, san)
		if c := clocks[side]; c != nil {
			rec.Times = append(rec.Times, MoveTime{Spent: spent, Left: c.Left})
		}
		moves = append(moves, v.UCI(m)) // our canonical form for the other player
		if r.OnMove != nil {
			r.OnMove(pos, m, san)
		}
		if r.Adjudicate != nil {
			if result, reason, over := r.Adjudicate(pos); over {
				return end(result, Termination{Kind: Adjudicated, Detail: reason})
			}
		}
	}
}

// ask asks the player to move in pos and checks the answer: the move and
// the time it took, or how the player lost (or Unterminated when ctx ended
// first).
func (r *Referee) ask(ctx context.Context, p Player, turn *Turn, pos *engine.Position, clocks [2]*Clock, margin time.Duration) (engine.Move, time.Duration, *Termination) {
	side := pos.SideToMove()
	turn.Position = pos.Clone()
	clock := clocks[side]
	if clock != nil {
		turn.Clock = clockState(clocks, side)
		turn.Deadline = time.Now().Add(clock.Left + margin)
	}
	start := time.Now()
	text, err := p.Move(ctx, turn)
	spent := time.Since(start)
	switch {
	case ctx.Err() != nil:
		return engine.NoMove, spent, &Termination{Kind: Unterminated}
	case errors.Is(err, ErrPlayerGone):
		return engine.NoMove, spent, &Termination{Kind: PlayerCrash, Side: side, Detail: err.Error()}
	case err != nil:
		return engine.NoMove, spent, &Termination{Kind: TimeForfeit, Side: side, Detail: err.Error()}
	case clock != nil && !clock.Spend(spent):
		return engine.NoMove, spent, &Termination{Kind: TimeForfeit, Side: side}
	}
	m, err := pos.ParseUCI(text)
	if err != nil {
		return engine.NoMove, spent, &Termination{Kind: IllegalMove, Side: side, Detail: text}
	}
	return m, spent, nil
}

// clockState reads the clocks for the side to move.
func clockState(clocks [2]*Clock, side engine.Colour) *ClockState {
	var cs ClockState
	if c := clocks[engine.White]; c != nil {
		cs.WTime, cs.WInc = c.Left, c.Increment()
	}
	if c := clocks[engine.Black]; c != nil {
		cs.BTime, cs.BInc = c.Left, c.Increment()
	}
	cs.MovesToGo = clocks[side].MovesToGo()
	return &cs
}
