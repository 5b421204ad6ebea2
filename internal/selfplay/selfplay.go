// Package selfplay plays the engine against itself, in-process: a series
// of refereed games between two configurations (depth, time per move or a
// clock), with the colours alternating, and the totals of the series.
package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
)

// SelfPlay is a series of games between two configurations of the engine
// (or one against itself). A plays White in the first game, and the colours
// alternate unless FixedColours is set.
type SelfPlay struct {
	Variant      *engine.Variant
	StartFEN     string // default: the variant's start position
	Games        int
	A, B         Config
	FixedColours bool
	// RandomPlies opening plies are played at random (seeded by Seed and
	// the game number) so that games differ.
	RandomPlies int
	Seed        uint64
	// FirstGame is the number of the games before this series: its games
	// are numbered from FirstGame+1 (for the random plies' seed and the
	// colours), so a long series can be played in parts that give the
	// same games.
	FirstGame int
	// MaxPlies ends a game as a draw ("move limit") after that many plies;
	// 0 means no limit beyond the variant's own rules.
	MaxPlies int
	// OnMove, when set, is called after every move (to draw the board).
	OnMove func(game int, pos *engine.Position, m engine.Move, san string)
	// OnGame, when set, is called after every game with the totals so far.
	OnGame func(game int, rec *game.Record, totals Stats)
}

// Stats are the totals of a self-play series, from A's point of view.
type Stats struct {
	Games, AWins, Draws, BWins int
	Plies                      int
	Nodes                      uint64
	SearchTime                 time.Duration
	TimeForfeits               int
}

// NPS returns the search speed over the series.
func (s Stats) NPS() uint64 {
	if s.SearchTime <= 0 {
		return 0
	}
	return uint64(float64(s.Nodes) / s.SearchTime.Seconds())
}

// AverageLength returns the average game length in moves (plies / 2).
func (s Stats) AverageLength() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Plies) / float64(s.Games) / 2
}

// Run plays the series. When ctx is done before the series is, it stops,
// returning the totals and records of the games finished and ctx's error:
// a game cut short has no result, so it is neither counted (not as a
// draw) nor returned, nor given to OnGame.
func (sp *SelfPlay) Run(ctx context.Context) (Stats, []*game.Record, error) {
	start := sp.StartFEN
	if start == "" {
		start = sp.Variant.StartFEN
	}
	if _, err := sp.Variant.ParseFEN(start); err != nil {
		return Stats{}, nil, err
	}
	if sp.A.TablebaseDir != "" && sp.A.TablebaseDir == sp.B.TablebaseDir && sp.A.Store == nil {
		store := tablebase.NewStore(sp.A.TablebaseDir)
		sp.A.Store, sp.B.Store = store, store
	}
	a, err := NewSearchPlayerChecked(sp.A, search.Options{})
	if err != nil {
		return Stats{}, nil, err
	}
	defer a.Close()
	b, err := NewSearchPlayerChecked(sp.B, search.Options{})
	if err != nil {
		return Stats{}, nil, err
	}
	defer b.Close()
	var stats Stats
	var records []*game.Record
	for g := sp.FirstGame + 1; g <= sp.FirstGame+sp.Games && ctx.Err() == nil; g++ {
		aWhite := sp.FixedColours || g%2 == 1
		white, black := a, b
		if !aWhite {
			white, black = b, a
		}
		ref := &game.Referee{Variant: sp.Variant, StartFEN: start, MaxPlies: sp.MaxPlies,
			TimeControls: [2]*game.TimeControl{white.cfg.TC, black.cfg.TC},
			RandomPlies:  sp.RandomPlies, Rand: rand.New(rand.NewPCG(sp.Seed, uint64(g))),
			Tags: map[string]string{"Event": "Chimera self-play", "Site": "chimera", "Round": fmt.Sprint(g)}}
		if sp.OnMove != nil {
			ref.OnMove = func(pos *engine.Position, m engine.Move, san string) { sp.OnMove(g, pos, m, san) }
		}
		rec := ref.Play(ctx, white, black)
		if rec.Termination.Kind == game.Unterminated {
			break // only a done ctx leaves a game unterminated
		}
		records = append(records, rec)
		stats.Games++
		stats.Plies += len(rec.Moves)
		aSide := engine.White
		if !aWhite {
			aSide = engine.Black
		}
		switch rec.OutcomeFor(aSide) {
		case engine.Win:
			stats.AWins++
		case engine.Draw:
			stats.Draws++
		default:
			stats.BWins++
		}
		if rec.Termination.Kind == game.TimeForfeit {
			stats.TimeForfeits++
		}
		stats.Nodes, stats.SearchTime = a.Nodes+b.Nodes, a.SearchTime+b.SearchTime
		if sp.OnGame != nil {
			sp.OnGame(g, rec, stats)
		}
	}
	if stats.Games < sp.Games {
		return stats, records, ctx.Err() // the series was cut short
	}
	return stats, records, nil
}
