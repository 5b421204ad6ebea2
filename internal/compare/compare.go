// Package compare measures search against perfect play: from random won
// positions of a tablebase, the search (without tablebases) plays the
// winning side against the table's longest resistance, and the games are
// summed up per search setting.
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
	"github.com/chimera-chess/chimera/tablebase"
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
	// search took and the tablebase's distance from the start position.
	MovesUsed, MovesOptimal int
	// Moves, OptimalMoves and Blunders count the search's moves, those that
	// kept the shortest mate, and those that let the win go.
	Moves, OptimalMoves, Blunders int
}

// Comparison plays the search (without tablebases) from won positions of a
// table against the tablebase's best defence.
type Comparison struct {
	Table    *tablebase.Table
	Store    *tablebase.Store // for the smaller tables captures lead to
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
// cut short has no result to count), and ctx's error.
func (c *Comparison) Run(ctx context.Context) ([]Row, error) {
	if c.MaxMoves == 0 {
		c.MaxMoves = 150
	}
	// Wins within the rule only: a cursed win is no test of conversion.
	starts := tablebase.RandomWinsInTime(c.Table, c.Positions, c.Seed)
	if len(starts) == 0 {
		return nil, fmt.Errorf("compare: no won positions found for %s", c.Table.Material)
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
	rows := make([]Row, len(c.Settings))
	total, done := len(starts)*len(c.Settings), 0
	var mu sync.Mutex
	for i, setting := range c.Settings {
		rows[i].Setting = setting
		jobs := make(chan *engine.Position)
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				attacker, _ := player(setting) // checked above
				defer attacker.Close()
				for start := range jobs {
					g, finished := c.play(ctx, attacker, start)
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
		for _, p := range starts {
			if ctx.Err() != nil {
				break
			}
			jobs <- p
		}
		close(jobs)
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return rows[:i+1], err
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

// play lets the search attack (White, to move) and the tablebase defend
// from start, with the tablebase as judge: a move that lets the win go
// ends the game at once. finished is false for a game ctx cut short.
func (c *Comparison) play(ctx context.Context, attacker *selfplay.SearchPlayer, start *engine.Position) (g comparedGame, finished bool) {
	first, _ := c.Table.Probe(start)
	g.optimal = (first.DTM + 1) / 2
	g.in50 = true
	scored := &scoredPlayer{Player: attacker, store: c.Store, game: &g}
	ref := &game.Referee{Variant: start.Variant(), StartFEN: start.FEN(), MaxPlies: 2 * c.MaxMoves, IgnoreMoveRule: true,
		Adjudicate: func(pos *engine.Position) (string, string, bool) {
			if pos.HalfmoveClock() >= 100 {
				g.in50 = false
			}
			if pos.SideToMove() == engine.White {
				if !g.ruleDrawn && !c.inTime(pos) {
					g.ruleDrawn = true
				}
				return "", "", false // the defender's move cannot change the result
			}
			if pos.RepetitionCount() >= 3 {
				return "1/2-1/2", "repetition", true
			}
			if pos.Result().Reason == engine.Checkmate {
				return "", "", false // the referee ends it
			}
			table, err := c.Store.Find(pos, tablebase.Build)
			if err != nil {
				g.thrown++
				return "*", "win thrown (no table)", true
			}
			if r, err := table.Probe(pos); err != nil || r.WDL >= 0 {
				g.thrown++
				return "1/2-1/2", "win thrown", true
			}
			return "", "", false
		}}
	rec := ref.Play(ctx, scored, &Defender{Store: c.Store})
	if rec.Termination.Kind == game.Unterminated {
		return g, false
	}
	g.moves = (len(rec.Moves) + 1) / 2
	g.mated = rec.Termination.Kind == game.ByRule && rec.Termination.Rule == engine.Checkmate && rec.Result == "1-0"
	if !g.mated {
		g.in50 = false
	}
	return g, true
}

// inTime reports whether the search, to move, still wins within the move
// rule against perfect defence: the position's distance to zeroing fits
// its clock (true where no table says otherwise).
func (c *Comparison) inTime(pos *engine.Position) bool {
	table, err := c.Store.Find(pos, tablebase.Build)
	if err != nil {
		return true
	}
	d, err := table.ProbeDTZ(pos)
	return err != nil || d <= 0 || table.InTime(pos, d)
}

// scoredPlayer passes the search's moves on and counts, for each, whether
// it kept the shortest mate.
type scoredPlayer struct {
	game.Player
	store *tablebase.Store
	game  *comparedGame
}

// Move asks the search and scores its answer against the table's best
// moves.
func (s *scoredPlayer) Move(ctx context.Context, t *game.Turn) (string, error) {
	var best []engine.Move
	if table, err := s.store.Find(t.Position, tablebase.Build); err == nil {
		_, best, _ = table.Moves(t.Position, s.store.Finder(tablebase.Build))
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
