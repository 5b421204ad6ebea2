package game

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
)

// CompareSetting is one way of searching in a comparison: a fixed depth or
// a fixed time per move.
type CompareSetting struct {
	Depth    int
	MoveTime time.Duration
}

// String names the setting: "depth 4", "movetime 100ms".
func (c CompareSetting) String() string {
	if c.MoveTime > 0 {
		return fmt.Sprintf("movetime %dms", c.MoveTime.Milliseconds())
	}
	return fmt.Sprintf("depth %d", c.Depth)
}

// CompareRow is the outcome of one setting over all positions.
type CompareRow struct {
	Setting CompareSetting
	Games   int
	// Mated counts games the search won; MatedIn50 those it won before
	// fifty moves without a capture or pawn move.
	Mated, MatedIn50 int
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
	Settings []CompareSetting
	// Positions is how many random won positions (the strong side to
	// move) are played, with Seed choosing them.
	Positions int
	Seed      uint64
	// MaxMoves ends a game not won by then (default 150).
	MaxMoves int
	// Progress, when set, is told each finished game.
	Progress func(done, total int)
}

// RandomWins returns n random positions of the table won for the side to
// move, with the strong side (White) to move.
func RandomWins(t *tablebase.Table, n int, seed uint64) []*engine.Position {
	v := t.Variant
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*engine.Position
	letters := []byte(t.Material.Strong + t.Material.Weak)
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		fen := randomFEN(v, letters, len(t.Material.Strong), rng)
		p, err := v.ParseFEN(fen)
		if err != nil {
			continue
		}
		if r, err := t.Probe(p); err == nil && r.WDL > 0 {
			out = append(out, p)
		}
	}
	return out
}

// randomFEN places the pieces (the first `white` of them White) on
// distinct random squares, White to move.
func randomFEN(v *engine.Variant, letters []byte, white int, rng *rand.Rand) string {
	board := make([]byte, v.Width*v.Height)
	for i, l := range letters {
		for {
			s := rng.IntN(len(board))
			if board[s] == 0 {
				if i >= white {
					l += 'a' - 'A'
				}
				board[s] = l
				break
			}
		}
	}
	fen := ""
	for r := v.Height - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < v.Width; f++ {
			c := board[r*v.Width+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fen += fmt.Sprint(empty)
				empty = 0
			}
			fen += string(c)
		}
		if empty > 0 {
			fen += fmt.Sprint(empty)
		}
		if r > 0 {
			fen += "/"
		}
	}
	return fen + " w - - 0 1"
}

// Run plays every setting on the same positions (two games at a time) and
// returns one row per setting.
func (c *Comparison) Run(ctx context.Context) ([]CompareRow, error) {
	if c.MaxMoves == 0 {
		c.MaxMoves = 150
	}
	starts := RandomWins(c.Table, c.Positions, c.Seed)
	if len(starts) == 0 {
		return nil, fmt.Errorf("compare: no won positions found for %s", c.Table.Material)
	}
	rows := make([]CompareRow, len(c.Settings))
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
				// Blind to the fifty-move rule: the comparison measures mating
				// skill, and a search that sees the draw coming stops trying.
				s := search.New(search.Options{HashMB: 16, IgnoreMoveRule: true})
				for start := range jobs {
					g := c.play(ctx, s, setting, start.Clone())
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
			return rows, err
		}
	}
	return rows, nil
}

// comparedGame is the record of one game of a comparison.
type comparedGame struct {
	mated, in50               bool
	moves, optimal            int
	searchMoves, best, thrown int
}

func (r *CompareRow) add(g comparedGame) {
	r.Games++
	r.Moves += g.searchMoves
	r.OptimalMoves += g.best
	r.Blunders += g.thrown
	if g.mated {
		r.Mated++
		r.MovesUsed += g.moves
		r.MovesOptimal += g.optimal
		if g.in50 {
			r.MatedIn50++
		}
	}
}

// play lets the search attack and the tablebase defend from p.
func (c *Comparison) play(ctx context.Context, s *search.Searcher, setting CompareSetting, p *engine.Position) comparedGame {
	s.Clear()
	var g comparedGame
	start, _ := c.Table.Probe(p)
	g.optimal = (start.DTM + 1) / 2
	in50 := true
	limits := search.Limits{Depth: setting.Depth, MoveTime: setting.MoveTime}
	for moves := 0; moves < c.MaxMoves && ctx.Err() == nil; moves++ {
		// The attacker's move.
		table, ok := c.Store.Children(p)
		if !ok {
			return g
		}
		r, err := table.Probe(p)
		if err != nil || r.WDL <= 0 {
			return g // the win is gone
		}
		_, best, err := table.Moves(p, c.Store.Children)
		if err != nil {
			return g
		}
		m := s.Search(ctx, p, limits, nil).Best
		if m == engine.NoMove {
			return g
		}
		g.searchMoves++
		for _, b := range best {
			if b == m {
				g.best++
				break
			}
		}
		p.Make(m)
		g.moves++
		if p.HalfmoveClock() >= 100 {
			in50 = false
		}
		if res := p.Result(); res.Reason == engine.Checkmate {
			g.mated, g.in50 = true, in50
			return g
		}
		if child, ok := c.Store.Children(p); !ok {
			g.thrown++
			return g
		} else if cr, err := child.Probe(p); err != nil || cr.WDL >= 0 {
			g.thrown++
			return g
		}
		if p.RepetitionCount() >= 3 {
			return g
		}
		// The defender's longest resistance.
		table, _ = c.Store.Children(p)
		_, defence, err := table.Moves(p, c.Store.Children)
		if err != nil || len(defence) == 0 {
			return g
		}
		p.Make(defence[0])
		if p.HalfmoveClock() >= 100 {
			in50 = false
		}
	}
	return g
}
