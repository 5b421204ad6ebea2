package match

import (
	"context"
	"fmt"
	"io"
	"math"
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
	// Openings are start positions (FEN), used in turn. Empty: the
	// variant's start position.
	Openings []string
	// Repeat plays each opening twice, once with each engine as White: a
	// game pair, which cancels most of an opening's bias.
	Repeat bool
	// SPRT, when set, ends the match as soon as the test decides.
	SPRT *SPRT
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
	// Samples counts what an SPRT weighs: game pairs by their score
	// (pentanomial) when the match repeats openings, else games.
	Samples Frequencies
	// Decision is the SPRT's verdict ("H0", "H1"), once reached.
	Decision string
}

// Score returns the first engine's points.
func (s Standing) Score() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Elo returns the first engine's Elo difference and the half-width of its
// 95% confidence interval, from the per-game score distribution. The
// spread is estimated with two pseudo-games won and two lost added (as
// Agresti and Coull do for proportions), so a few games all alike (three
// draws) give a wide interval, not ±0; with many games they change
// nothing. Scores of 0% or 100% give ±Inf.
func (s Standing) Elo() (diff, margin float64) {
	n := float64(s.Games)
	if n == 0 {
		return 0, math.Inf(1)
	}
	p := s.Score() / n
	const pseudo = 2
	w, d, l := float64(s.Wins)+pseudo, float64(s.Draws), float64(s.Losses)+pseudo
	m := w + d + l
	q := (w + d/2) / m
	variance := (w*(1-q)*(1-q) + d*(0.5-q)*(0.5-q) + l*q*q) / m
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
	pair      int // jobs of one pair share it (the round when unpaired)
	fen       string
	firstIsWh bool
}

// jobFor returns the i-th game (from 0) of the match.
func jobFor(i int, openings []string, repeat bool) job {
	if repeat {
		return job{round: i + 1, pair: i / 2, fen: openings[(i/2)%len(openings)], firstIsWh: i%2 == 0}
	}
	return job{round: i + 1, pair: i, fen: openings[i%len(openings)], firstIsWh: i%2 == 0}
}

// Run plays the match and returns the standing. Engine crashes, hangs and
// illegal moves lose the game and are counted; an engine that cannot be
// (re)started ends the match with an error. When ctx is done before the
// match is, Run returns the standing of the games finished and ctx's
// error: a game cut short has no result, so it is neither counted (not
// as a draw), nor written to PGN, nor given to OnGame.
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
	for i, fen := range openings {
		p, err := cfg.Variant.ParseFEN(fen)
		if err != nil {
			return Standing{}, fmt.Errorf("match: opening %d: %w", i+1, err)
		}
		// Its games would have no move, their result the opening's.
		if res := p.Result(); res.Over() {
			return Standing{}, fmt.Errorf("match: opening %d (%s): the game is already over (%s)", i+1, fen, res.Reason)
		}
	}
	// The workers cancel the match when an engine cannot be started; a
	// decided SPRT only stops new games (those under way finish and count).
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	feeding, stopFeeding := context.WithCancel(ctx)
	defer stopFeeding()
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		for i := 0; i < cfg.Games; i++ {
			select {
			case jobs <- jobFor(i, openings, cfg.Repeat):
			case <-feeding.Done():
				return
			}
		}
	}()
	var (
		mu       sync.Mutex
		standing Standing
		pending  = map[int]float64{} // first game's score of unfinished pairs
		started  int                 // games a worker took up
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var clients [2]Engine // by engine index
			defer func() {
				for _, c := range clients {
					if c != nil {
						c.Quit()
					}
				}
			}()
			for j := range jobs {
				mu.Lock()
				started++
				mu.Unlock()
				if err := ensure(ctx, &clients, cfg); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					return
				}
				rec := playGame(ctx, cfg, j, &clients)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				score := standing.add(rec, j.firstIsWh)
				standing.addSample(j, score, cfg.Repeat, pending)
				if cfg.SPRT != nil && standing.Decision == "" {
					if standing.Decision = cfg.SPRT.Decide(standing.Samples); standing.Decision != "" {
						stopFeeding()
					}
				}
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
	// Cut short: a game begun is not in the standing, or games were left
	// to play that no decision called off.
	if firstErr == nil && parent.Err() != nil && (standing.Games < started || standing.Decision == "" && standing.Games < cfg.Games) {
		return standing, parent.Err()
	}
	return standing, firstErr
}

// ensure starts (or restarts, after a crash or hang) both engines.
func ensure(ctx context.Context, clients *[2]Engine, cfg Config) error {
	for i := range clients {
		if clients[i] != nil && clients[i].Alive() {
			continue
		}
		c, err := Start(ctx, cfg.Engines[i])
		if err != nil {
			return fmt.Errorf("match: %w", err)
		}
		if err := c.Offers(cfg.Variant.Name); err != nil {
			c.Kill()
			return fmt.Errorf("match: %w", err) // before any game, not a loss
		}
		clients[i] = c
	}
	return nil
}

// add counts one game: rec's result from the first engine's point of view
// (it played White when firstIsWhite) and any infraction by the loser. It
// returns the first engine's points.
func (s *Standing) add(rec *game.Record, firstIsWhite bool) (score float64) {
	s.Games++
	first := engine.White
	if !firstIsWhite {
		first = engine.Black
	}
	switch rec.OutcomeFor(first) {
	case engine.Win:
		s.Wins++
		score = 1
	case engine.Draw:
		s.Draws++
		score = 0.5
	default:
		s.Losses++
	}
	s.countInfraction(rec)
	return score
}

// addSample files a game's score as an SPRT sample: alone, or with the
// other game of its pair once both are in.
func (s *Standing) addSample(j job, score float64, paired bool, pending map[int]float64) {
	if !paired {
		s.Samples[int(score*4)]++
		return
	}
	first, ok := pending[j.pair]
	if !ok {
		pending[j.pair] = score
		return
	}
	delete(pending, j.pair)
	s.Samples[int((first+score)*2)]++
}

// countInfraction counts a game lost to a rule infraction.
func (s *Standing) countInfraction(rec *game.Record) {
	switch rec.Termination.Kind {
	case game.IllegalMove:
		s.IllegalMoves++
	case game.TimeForfeit:
		s.TimeForfeits++
	case game.PlayerCrash:
		s.Crashes++
	}
}

// playGame referees one game between the two engines.
func playGame(ctx context.Context, cfg Config, j job, clients *[2]Engine) *game.Record {
	white, black := clients[0], clients[1]
	if !j.firstIsWh {
		white, black = black, white
	}
	ref := &game.Referee{Variant: cfg.Variant, StartFEN: j.fen, TimeControls: [2]*game.TimeControl{&cfg.TC, &cfg.TC},
		Margin: cfg.Margin, Tags: map[string]string{"Event": "Chimera match", "Site": "chimera", "Round": fmt.Sprint(j.round)}}
	rec := ref.Play(ctx, white, black)
	if rec.Termination.Kind == game.IllegalMove {
		// Its idea of the position is wrong: start it afresh.
		[2]Engine{white, black}[rec.Termination.Side].Kill()
	}
	return rec
}
