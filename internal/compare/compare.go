// Package compare measures search against perfect play: from random won
// positions of an ending, the search (without tablebases) plays the
// winning side against perfect defence, which also judges its every move,
// and the games are summed up per search setting. Perfect play is a
// Perfect: Chimera's own tables (OwnTables) or Syzygy's (SyzygyTables).
package compare

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/internal/selfplay"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// Setting is one way of searching in a comparison: a fixed depth or a
// fixed time per move.
type Setting struct {
	Depth    int
	MoveTime time.Duration
}

// String names the setting: "depth 4", "movetime 100ms".
func (c Setting) String() string {
	if c.MoveTime > 0 {
		return fmt.Sprintf("movetime %dms", c.MoveTime.Milliseconds())
	}
	return fmt.Sprintf("depth %d", c.Depth)
}

// Row is the outcome of one setting over all positions.
type Row struct {
	Setting Setting
	Games   int
	// Mated counts games the search won; MatedIn50 those it won within
	// the fifty-move rule (the variant's n-move rule): never that many
	// moves without a capture or pawn move. RuleDrawn counts the games in
	// which the search's play let the rule take the win: a position,
	// the search to move, whose distance to zeroing no longer fits the
	// clock (perfect defence then draws by the rule).
	Mated, MatedIn50, RuleDrawn int
	// MovesUsed and MovesOptimal sum, over the mated games, the moves the
	// search took and perfect play's from the start (Perfect.Optimum).
	MovesUsed, MovesOptimal int
	// Moves, OptimalMoves and Blunders count the search's moves, those
	// among perfect play's best (Perfect.Best: for Chimera's tables those
	// that keep the shortest mate), and those that let the win go.
	Moves, OptimalMoves, Blunders int
}

// Comparison plays the search (without tablebases) from won positions of
// an ending against perfect defence.
type Comparison struct {
	// Perfect chooses the positions, defends them and judges the search.
	Perfect  Perfect
	Settings []Setting
	// Positions is how many random won positions (the strong side to
	// move) are played, with Seed choosing them.
	Positions int
	Seed      uint64
	// MaxMoves ends a game not won by then (default 150).
	MaxMoves int
	// Evaluation and EvalFile choose the search's evaluation (the session
	// options; default: the documents' formula, the reference), read with
	// the variants of Catalogue (default: the built-ins).
	Evaluation, EvalFile string
	Catalogue            *variants.Catalogue
	// Progress, when set, is told each finished game.
	Progress func(done, total int)
}

// Run plays every setting on the same positions (two games at a time) and
// returns one row per setting. When ctx is done first it returns the rows
// of the settings begun, each counting its finished games only (a game
// cut short has no result to count), and ctx's error. When perfect play
// fails (a table that cannot be read) it stops so too, with that error.
func (c *Comparison) Run(ctx context.Context) ([]Row, error) {
	if c.MaxMoves == 0 {
		c.MaxMoves = 150
	}
	// Wins within the rule only: a cursed win is no test of conversion.
	starts, err := c.Perfect.Starts(c.Positions, c.Seed)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	optimal := make([]int, len(starts))
	for i, p := range starts {
		if optimal[i], err = c.Perfect.Optimum(p); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
	}
	player := func(setting Setting) (*selfplay.SearchPlayer, error) {
		// Blind to the fifty-move rule: the comparison measures mating
		// skill, and a search that sees the draw coming stops trying.
		return selfplay.NewSearchPlayerChecked(selfplay.Config{Name: "search " + setting.String(),
			Depth: setting.Depth, MoveTime: setting.MoveTime, Evaluation: c.Evaluation, EvalFile: c.EvalFile, Catalogue: c.Catalogue},
			search.Options{HashMB: 16, IgnoreMoveRule: true})
	}
	check, err := player(Setting{Depth: 1}) // a bad weights file is said before any game
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	check.Close()
	ctx, stop := context.WithCancelCause(ctx) // perfect play's failure stops every game
	defer stop(nil)
	rows := make([]Row, len(c.Settings))
	total, done := len(starts)*len(c.Settings), 0
	var mu sync.Mutex
	for i, setting := range c.Settings {
		rows[i].Setting = setting
		jobs := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				attacker, _ := player(setting) // checked above
				defer attacker.Close()
				for j := range jobs {
					g, finished, err := c.play(ctx, attacker, starts[j], optimal[j])
					if err != nil {
						stop(fmt.Errorf("compare: %w", err))
						continue
					}
					if !finished {
						continue // ctx is done: the rest are not played either
					}
					mu.Lock()
					rows[i].add(g)
					done++
					if c.Progress != nil {
						c.Progress(done, total)
					}
					mu.Unlock()
				}
			}()
		}
		for j := range starts {
			if ctx.Err() != nil {
				break
			}
			jobs <- j
		}
		close(jobs)
		wg.Wait()
		if ctx.Err() != nil {
			return rows[:i+1], context.Cause(ctx)
		}
	}
	return rows, nil
}

// comparedGame is the record of one game of a comparison.
type comparedGame struct {
	mated, in50, ruleDrawn    bool
	moves, optimal            int
	searchMoves, best, thrown int
}

func (r *Row) add(g comparedGame) {
	r.Games++
	r.Moves += g.searchMoves
	r.OptimalMoves += g.best
	r.Blunders += g.thrown
	if g.ruleDrawn {
		r.RuleDrawn++
	}
	if g.mated {
		r.Mated++
		r.MovesUsed += g.moves
		r.MovesOptimal += g.optimal
		if g.in50 {
			r.MatedIn50++
		}
	}
}

// play lets the search attack (White, to move) and perfect play defend
// from start, with perfect play as judge: a move that lets the win go
// ends the game at once. optimal is perfect play's moves from start.
// finished is false for a game ctx cut short; an error is perfect play's
// failure, which leaves the game without a result.
func (c *Comparison) play(ctx context.Context, attacker *selfplay.SearchPlayer, start *engine.Position, optimal int) (g comparedGame, finished bool, err error) {
	g.optimal = optimal
	g.in50 = true
	scored := &scoredPlayer{Player: attacker, perfect: c.Perfect, game: &g}
	ref := &game.Referee{Variant: start.Variant(), StartFEN: start.FEN(), MaxPlies: 2 * c.MaxMoves, IgnoreMoveRule: true,
		Adjudicate: func(pos *engine.Position) (string, string, bool) {
			if pos.HalfmoveClock() >= 100 {
				g.in50 = false
			}
			if pos.SideToMove() == engine.White {
				if !g.ruleDrawn {
					if g.ruleDrawn, err = c.Perfect.RuleDrawn(pos); err != nil {
						return "*", "perfect play failed", true
					}
				}
				return "", "", false // the defender's move cannot change the result
			}
			if pos.RepetitionCount() >= 3 {
				return "1/2-1/2", "repetition", true
			}
			if pos.Result().Reason == engine.Checkmate {
				return "", "", false // the referee ends it
			}
			lost, e := c.Perfect.Lost(pos)
			if e != nil {
				err = e
				return "*", "perfect play failed", true
			}
			if !lost {
				g.thrown++
				return "1/2-1/2", "win thrown", true
			}
			return "", "", false
		}}
	rec := ref.Play(ctx, scored, &Defender{Perfect: c.Perfect})
	switch {
	case err != nil:
		return g, false, err
	case scored.err != nil:
		return g, false, scored.err
	case rec.Termination.Kind == game.PlayerCrash && rec.Termination.Side == engine.Black:
		return g, false, fmt.Errorf("perfect defence: %s", rec.Termination.Detail)
	case rec.Termination.Kind == game.Unterminated:
		return g, false, nil
	}
	g.moves = (len(rec.Moves) + 1) / 2
	g.mated = rec.Termination.Kind == game.ByRule && rec.Termination.Rule == engine.Checkmate && rec.Result == "1-0"
	if !g.mated {
		g.in50 = false
	}
	return g, true, nil
}

// scoredPlayer passes the search's moves on and counts, for each, whether
// it was among perfect play's best.
type scoredPlayer struct {
	game.Player
	perfect Perfect
	game    *comparedGame
	err     error // perfect play's failure, which ends the game
}

// Move scores the search's answer against perfect play's best moves.
func (s *scoredPlayer) Move(ctx context.Context, t *game.Turn) (string, error) {
	best, err := s.perfect.Best(t.Position)
	if err != nil {
		s.err = err
		return "", fmt.Errorf("%w: %v", game.ErrPlayerGone, err)
	}
	text, err := s.Player.Move(ctx, t)
	if err != nil {
		return text, err
	}
	s.game.searchMoves++
	if m, err := t.Position.ParseUCI(text); err == nil && slices.Contains(best, m) {
		s.game.best++
	}
	return text, nil
}
