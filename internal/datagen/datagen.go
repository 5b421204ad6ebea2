// Package datagen plays the games networks learn from: the engine against
// itself in any variant, a few random plies to open each game, every move
// a search limited by nodes (so a game is the same on any machine), and
// the positions worth learning from kept with the search's score and the
// game's result. Games go to a dataset file one block each as they end,
// so a run may be stopped at any moment and resumed by the same command:
// game i depends on the seed and i alone, and a resumed run plays the
// games the file lacks.
package datagen

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/dataset"
	"github.com/chimera-chess/chimera/search"
)

// Config is a data-generation run.
type Config struct {
	Variant *engine.Variant
	// Evaluation the searches use (nil: the documents' formula).
	Evaluation func(*engine.Variant) eval.Evaluator
	// Teacher, when set, labels the kept positions instead of the games'
	// searches (which still choose the moves); a position it finds a mate
	// in is dropped.
	Teacher *Teacher
	// Nodes each move's search may visit.
	Nodes uint64
	// RandomPlies open each game at random; MaxPlies ends it as a draw.
	RandomPlies, MaxPlies int
	// Adjudicate ends a game once the score has stood beyond this many
	// centipawns, for the same side, for adjudicatePlies plies in a row
	// (0: games are played out).
	Adjudicate int
	Seed       uint64
	// KeepAll keeps the tactical positions too (in check, or the best
	// move a capture or a promotion), marked so (dataset.Position's
	// Tactical), for a trainer to take or leave: what trains best is
	// measured, not assumed. By default only quiet positions are kept.
	KeepAll bool
	// Positions: the run ends once the file holds this many.
	Positions int64
	// Workers play games at once (default: every CPU).
	Workers int
	// HashMB sizes each worker's transposition table (default 16).
	HashMB int
	// Progress, when set, is told after each game the file's games and
	// positions (one call at a time).
	Progress func(games int, positions int64)
}

// adjudicatePlies is how long a score must stand beyond Config.Adjudicate
// to decide a game: long enough that a search's passing view of a
// tactic does not.
const adjudicatePlies = 6

// maxScore bounds a kept position's score, in centipawns: beyond it a
// position is won or lost whatever the number, and a mate's score would
// only be noise to a network.
const maxScore = 3000

// Validate reports what makes the configuration unusable.
func (c *Config) Validate() error {
	switch {
	case c.Variant == nil:
		return errors.New("no variant")
	case c.Nodes == 0:
		return errors.New("searches of zero nodes")
	case c.RandomPlies < 1:
		// Both sides are one deterministic player: without random plies
		// every game would be the same game.
		return errors.New("games need at least one random ply to differ")
	case c.MaxPlies <= c.RandomPlies:
		return errors.New("the longest game is no longer than its random opening")
	case c.Positions < 1:
		return errors.New("no positions asked for")
	case c.Teacher != nil && (len(c.Teacher.Command) == 0 || c.Teacher.Depth < 1):
		return errors.New("a teacher needs a command and a depth of at least 1")
	}
	return nil
}

// Run plays games until the file w holds Positions positions, or ctx
// ends: the games under way then are abandoned, the file keeps every game
// that ended. It returns the first error writing the file.
func Run(ctx context.Context, cfg Config, w *dataset.Writer) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var mu sync.Mutex
	next := uint64(0) // the lowest game index not yet handed out
	var firstErr error
	claim := func() (uint64, bool) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil || w.Positions() >= cfg.Positions || ctx.Err() != nil {
			return 0, false
		}
		for w.Has(next) {
			next++
		}
		next++
		return next - 1, true
	}
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			pl := newPlayer(&cfg)
			if cfg.Teacher != nil {
				t, err := startTeacher(ctx, cfg.Teacher, cfg.Variant)
				if err != nil {
					fail(err)
					return
				}
				defer t.close()
				pl.teacher = t
			}
			for {
				i, ok := claim()
				if !ok {
					return
				}
				g, err := pl.play(ctx, i)
				if ctx.Err() != nil {
					return // stopped mid-game: the game is not kept
				}
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				if err := w.Write(&g); err != nil && firstErr == nil {
					firstErr = err
				}
				if cfg.Progress != nil {
					cfg.Progress(w.Games(), w.Positions())
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return firstErr
}

// player plays games on one worker, its searcher reused from game to
// game.
type player struct {
	cfg     *Config
	s       *search.Searcher
	moves   []engine.Move
	teacher *teacher // nil: the searches label
	// unscored counts the positions in a row the teacher left unscored.
	unscored int
}

func newPlayer(cfg *Config) *player {
	hash := cfg.HashMB
	if hash <= 0 {
		hash = 16
	}
	return &player{cfg: cfg, s: search.New(search.Options{HashMB: hash, Evaluation: cfg.Evaluation}),
		moves: make([]engine.Move, 0, engine.MaxMoves)}
}

// play plays game index i (abandoned, with ctx's error, if ctx ends),
// and has the teacher label it if there is one and it did not play it.
func (pl *player) play(ctx context.Context, i uint64) (dataset.Game, error) {
	g, positions, err := pl.playGame(ctx, i)
	if err != nil || pl.teacher == nil || pl.teacher.spec.Plays || ctx.Err() != nil {
		return g, cmp.Or(err, ctx.Err())
	}
	return pl.relabel(ctx, g, positions)
}

// ply is what the player chose in a position: the move, the score for the
// side to move (for adjudication), and whether the position is kept with
// label as its score (and whether it is a tactical one).
type ply struct {
	move     engine.Move
	score    int
	kept     bool
	tactical bool
	label    int16
}

// playGame plays game index i. With a teacher that only labels, it also
// returns for each kept position the UCI position command that sets it
// up.
func (pl *player) playGame(ctx context.Context, i uint64) (dataset.Game, []string, error) {
	cfg := pl.cfg
	g := dataset.Game{Index: i}
	rng := rand.New(rand.NewPCG(cfg.Seed, i))
	p := cfg.Variant.StartPosition()
	var line strings.Builder // the UCI position command of p, for the teacher
	var positions []string
	if pl.teacher != nil {
		line.WriteString("position fen " + p.FEN() + " moves")
	}
	makeMove := func(m engine.Move) {
		if pl.teacher != nil {
			line.WriteString(" " + cfg.Variant.UCI(m))
		}
		p.Make(m)
	}
	for range cfg.RandomPlies {
		pl.moves = p.LegalMoves(pl.moves[:0])
		if len(pl.moves) == 0 || p.Result().Over() {
			return g, nil, nil // over at random: a game with no positions
		}
		makeMove(pl.moves[rng.IntN(len(pl.moves))])
	}
	pl.s.Clear()
	if pl.teacher != nil && pl.teacher.spec.Plays {
		// A fresh hash, so that the teacher plays game i alike every time.
		if err := pl.teacher.client.NewGame(ctx, cfg.Variant); err != nil {
			return g, nil, fmt.Errorf("teacher: %w", err)
		}
	}
	lead := adjudication{threshold: cfg.Adjudicate}
	for {
		if r := p.Result(); r.Over() {
			g.Result = whiteResult(r)
			return g, positions, nil
		}
		if p.Ply() >= cfg.MaxPlies {
			return g, positions, nil // a draw
		}
		var choice ply
		var err error
		if pl.teacher != nil && pl.teacher.spec.Plays {
			choice, err = pl.teacherPly(ctx, p, line.String())
		} else {
			choice = pl.searchPly(ctx, p)
		}
		if err != nil || ctx.Err() != nil || choice.move == engine.NoMove {
			return g, positions, err // stopped (or no move: cannot happen in a game not over)
		}
		if choice.kept {
			pos := dataset.PositionOf(p, choice.label)
			pos.Tactical = choice.tactical
			g.Positions = append(g.Positions, pos)
			if pl.teacher != nil && !pl.teacher.spec.Plays {
				positions = append(positions, line.String())
			}
		}
		if winner, decided := lead.after(p.SideToMove(), search.Score(choice.score)); decided {
			g.Result = 1
			if winner == engine.Black {
				g.Result = -1
			}
			return g, positions, nil
		}
		makeMove(choice.move)
	}
}

// searchPly chooses p's move by the player's own search, limited by nodes.
func (pl *player) searchPly(ctx context.Context, p *engine.Position) ply {
	res := pl.s.Search(ctx, p, search.Limits{Nodes: pl.cfg.Nodes}, nil)
	choice := ply{move: res.Best, score: int(res.Score), label: int16(res.Score)}
	choice.kept, choice.tactical = pl.keep(p, res.Best, !res.Score.IsMate(), int(res.Score))
	return choice
}

// teacherPly has the teacher choose p's move (position is p's UCI
// position command).
func (pl *player) teacherPly(ctx context.Context, p *engine.Position, position string) (ply, error) {
	best, s, err := pl.teacher.search(ctx, position)
	if err != nil {
		return ply{}, err
	}
	m, err := p.ParseUCI(best)
	if err != nil {
		return ply{}, fmt.Errorf("teacher: its move %q in %s: %w", best, p.FEN(), err)
	}
	choice := ply{move: m, score: s.centipawns}
	switch s.kind {
	case centipawns:
		choice.kept, choice.tactical = pl.keep(p, m, true, s.centipawns)
		choice.label = int16(s.centipawns)
	case mateScore:
		choice.score = -int(search.MateScore)
		if s.mating {
			choice.score = int(search.MateScore)
		}
	}
	return choice, nil
}

// relabel replaces each kept position's score by the teacher's, dropping
// the positions it finds a mate in.
func (pl *player) relabel(ctx context.Context, g dataset.Game, positions []string) (dataset.Game, error) {
	kept := g.Positions[:0]
	for k, pos := range g.Positions {
		score, ok, err := pl.teacher.label(ctx, positions[k])
		if err != nil {
			return g, err
		}
		if !ok {
			if pl.unscored++; pl.unscored > maxUnscored {
				return g, errNoTeacherScore
			}
			continue
		}
		pl.unscored = 0
		pos.Score = int16(max(min(score, maxScore-1), -maxScore+1))
		kept = append(kept, pos)
	}
	g.Positions = kept
	return g, nil
}

// keep reports whether the position p, whose search chose best and
// scored it score (centipawns unless a mate was found), is one to learn
// from, and whether it is tactical. A quiet position is: the side to move
// not in check, the best move quiet (a position with a capture or
// promotion pending is not what a static evaluation is usually asked
// about; the search settles it). With Config.KeepAll tactical positions
// are kept too. No position with a mate found is.
func (pl *player) keep(p *engine.Position, best engine.Move, centipawns bool, score int) (kept, tactical bool) {
	if !centipawns || score <= -maxScore || score >= maxScore {
		return false, false
	}
	tactical = p.InCheck() || p.IsCapture(best) || best.Promotion() != 0
	return !tactical || pl.cfg.KeepAll, tactical
}

// whiteResult is White's result of a game over: 1, 0 or -1.
func whiteResult(r engine.Result) int8 {
	switch {
	case r.Outcome == engine.Draw:
		return 0
	case (r.Outcome == engine.Win) == (r.Side == engine.White):
		return 1
	}
	return -1
}

// adjudication follows the scores of a game's searches to decide it once
// one side has led beyond the threshold long enough.
type adjudication struct {
	threshold int
	leader    engine.Colour
	plies     int
}

// after records the score (for side, to move) of the latest search and
// reports the winner once the game is decided.
func (a *adjudication) after(side engine.Colour, score search.Score) (engine.Colour, bool) {
	if a.threshold <= 0 {
		return 0, false
	}
	leader := side
	switch {
	case int(score) >= a.threshold:
	case int(score) <= -a.threshold:
		leader = side.Other()
	default:
		a.plies = 0
		return 0, false
	}
	if a.plies == 0 || leader != a.leader {
		a.leader, a.plies = leader, 0
	}
	a.plies++
	return a.leader, a.plies >= adjudicatePlies
}
