package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
)

// Config describes a match between two engines.
type Config struct {
	Variant *engine.Variant
	Engines [2]EngineSpec
	Games   int
	TC      game.TimeControl
	// Openings are start positions (FEN); each is played twice, once with
	// each engine as White. Empty: the variant's start position.
	Openings []string
	// Concurrency games run at once, each with its own engine processes.
	Concurrency int
	// Margin is the grace beyond the clock before an engine that has not
	// answered is treated as hung (default 1 s).
	Margin time.Duration
	// PGN, when set, receives every game.
	PGN io.Writer
	// OnGame, when set, is called after every game with the standing.
	OnGame func(rec *game.Record, standing Standing)
}

// Standing is the score from the first engine's point of view, with the
// count of games lost to rule infractions.
type Standing struct {
	Games, Wins, Draws, Losses          int
	IllegalMoves, TimeForfeits, Crashes int
}

// Score returns the first engine's points.
func (s Standing) Score() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Elo returns the first engine's Elo difference and the half-width of its
// 95% confidence interval, from the per-game score distribution. Scores of
// 0% or 100% give ±Inf.
func (s Standing) Elo() (diff, margin float64) {
	n := float64(s.Games)
	if n == 0 {
		return 0, math.Inf(1)
	}
	p := s.Score() / n
	variance := (float64(s.Wins)*(1-p)*(1-p) + float64(s.Draws)*(0.5-p)*(0.5-p) + float64(s.Losses)*p*p) / n
	se := math.Sqrt(variance / n)
	elo := func(x float64) float64 {
		if x <= 0 {
			return math.Inf(-1)
		}
		if x >= 1 {
			return math.Inf(1)
		}
		return -400 * math.Log10(1/x-1)
	}
	if p <= 0 || p >= 1 {
		return elo(p), math.Inf(1)
	}
	lo, hi := elo(p-1.96*se), elo(p+1.96*se)
	return math.Round(elo(p)) + 0, (hi - lo) / 2 // + 0 turns -0 into 0
}

// job is one game to play.
type job struct {
	round     int
	fen       string
	firstIsWh bool
}

// Run plays the match and returns the standing. Engine crashes, hangs and
// illegal moves lose the game and are counted; an engine that cannot be
// (re)started ends the match with an error.
func Run(ctx context.Context, cfg Config) (Standing, error) {
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.Margin == 0 {
		cfg.Margin = time.Second
	}
	openings := cfg.Openings
	if len(openings) == 0 {
		openings = []string{cfg.Variant.StartFEN}
	}
	for _, fen := range openings {
		if _, err := cfg.Variant.ParseFEN(fen); err != nil {
			return Standing{}, fmt.Errorf("match: opening: %w", err)
		}
	}
	// The workers cancel the match when an engine cannot be started.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		for i := 0; i < cfg.Games; i++ {
			select {
			case jobs <- job{round: i + 1, fen: openings[(i/2)%len(openings)], firstIsWh: i%2 == 0}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var (
		mu       sync.Mutex
		standing Standing
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var clients [2]*Client // by engine index
			defer func() {
				for _, c := range clients {
					if c != nil {
						c.Quit()
					}
				}
			}()
			for j := range jobs {
				if err := ensure(ctx, &clients, cfg); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					return
				}
				rec, outcome := playGame(ctx, cfg, j, &clients)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				standing.add(outcome, rec)
				if cfg.PGN != nil {
					rec.WritePGN(cfg.PGN)
				}
				if cfg.OnGame != nil {
					cfg.OnGame(rec, standing)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return standing, firstErr
}

// ensure starts (or restarts, after a crash or hang) both engines.
func ensure(ctx context.Context, clients *[2]*Client, cfg Config) error {
	for i := range clients {
		if clients[i] != nil && clients[i].Alive() {
			continue
		}
		c, err := Start(ctx, cfg.Engines[i])
		if err != nil {
			return fmt.Errorf("match: %w", err)
		}
		clients[i] = c
	}
	return nil
}

// outcome is a game's result for the first engine: +1, 0, −1, and how
// the loser lost when it broke a rule.
type outcome struct {
	points  int
	illegal bool
	forfeit bool
	crash   bool
}

func (s *Standing) add(o outcome, rec *game.Record) {
	s.Games++
	switch o.points {
	case 1:
		s.Wins++
	case 0:
		s.Draws++
	default:
		s.Losses++
	}
	switch {
	case o.illegal:
		s.IllegalMoves++
	case o.forfeit:
		s.TimeForfeits++
	case o.crash:
		s.Crashes++
	}
}

// playGame referees one game.
func playGame(ctx context.Context, cfg Config, j job, clients *[2]*Client) (*game.Record, outcome) {
	v := cfg.Variant
	pos, _ := v.ParseFEN(j.fen) // checked by Run
	white, black := 0, 1
	if !j.firstIsWh {
		white, black = 1, 0
	}
	byColour := [2]*Client{clients[white], clients[black]}
	rec := &game.Record{Variant: v, StartFEN: j.fen, Date: time.Now(), Result: "*",
		Tags: map[string]string{"Event": "Chimera match", "Site": "chimera", "Round": fmt.Sprint(j.round),
			"White": byColour[0].Name(), "Black": byColour[1].Name(), "TimeControl": cfg.TC.String()}}
	finish := func(result, termination string) (*game.Record, outcome) {
		rec.Result, rec.Termination = result, termination
		o := outcome{}
		switch result {
		case "1-0":
			o.points = 1
		case "0-1":
			o.points = -1
		}
		if white == 1 {
			o.points = -o.points
		}
		o.illegal = strings.HasPrefix(termination, "illegal move")
		o.forfeit = termination == "time forfeit"
		o.crash = termination == "engine crash"
		return rec, o
	}
	for _, c := range byColour {
		if err := c.NewGame(ctx, v.Name); err != nil {
			// An engine that cannot take part loses; an unready one crashed.
			side := engine.White
			if c == byColour[1] {
				side = engine.Black
			}
			c.Kill()
			return finish(lossFor(side), "engine crash")
		}
	}
	clocks := [2]*game.Clock{game.NewClock(cfg.TC), game.NewClock(cfg.TC)}
	var moves []string
	for {
		if res := pos.Result(); res.Over() {
			return finish(res.PGN(), res.Reason.String())
		}
		side := pos.SideToMove()
		c, clock := byColour[side], clocks[side]
		position := "position fen " + j.fen
		if len(moves) > 0 {
			position += " moves " + strings.Join(moves, " ")
		}
		goArgs := fmt.Sprintf("wtime %d btime %d winc %d binc %d", clocks[0].Left.Milliseconds(), clocks[1].Left.Milliseconds(),
			cfg.TC.Increment.Milliseconds(), cfg.TC.Increment.Milliseconds())
		if mtg := clock.MovesToGo(); mtg > 0 {
			goArgs += fmt.Sprintf(" movestogo %d", mtg)
		}
		start := time.Now()
		text, _, err := c.Go(ctx, position, goArgs, start.Add(clock.Left+cfg.Margin))
		spent := time.Since(start)
		switch {
		case ctx.Err() != nil:
			return finish("*", "unterminated")
		case errors.Is(err, ErrEngineGone):
			return finish(lossFor(side), "engine crash")
		case err != nil:
			c.Kill() // hung: it may still be thinking
			return finish(lossFor(side), "time forfeit")
		}
		if !clock.Spend(spent) {
			return finish(lossFor(side), "time forfeit")
		}
		m, err := pos.ParseUCI(text)
		if err != nil {
			c.Kill() // its idea of the position is wrong: start afresh
			return finish(lossFor(side), "illegal move "+text)
		}
		rec.SAN = append(rec.SAN, pos.SAN(m))
		rec.Moves = append(rec.Moves, m)
		pos.Make(m)
		moves = append(moves, v.UCI(m)) // our canonical form for the other engine
	}
}

func lossFor(side engine.Colour) string {
	if side == engine.White {
		return "0-1"
	}
	return "1-0"
}
