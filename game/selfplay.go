package game

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// Player is one engine configuration: a fixed depth, a fixed time per
// move, or a clock. With none set it searches to depth 1.
type Player struct {
	Name     string
	Depth    int
	MoveTime time.Duration
	TC       *TimeControl
	HashMB   int
}

// limits returns the search limits for a move.
func (pl Player) limits(side engine.Colour, own, opp *Clock) search.Limits {
	l := search.Limits{Depth: pl.Depth, MoveTime: pl.MoveTime}
	if pl.TC != nil && own != nil {
		l.MovesToGo = own.MovesToGo()
		w, b := own, opp
		if side == engine.Black {
			w, b = opp, own
		}
		l.WTime, l.BTime, l.WInc, l.BInc = w.Left, b.Left, w.Increment(), b.Increment()
	}
	if l.Depth == 0 && l.MoveTime == 0 && pl.TC == nil {
		l.Depth = 1
	}
	return l
}

// SelfPlay is a series of games between two configurations of the engine
// (or one against itself). A plays White in the first game, and the colours
// alternate unless FixedColours is set.
type SelfPlay struct {
	Variant      *engine.Variant
	StartFEN     string // default: the variant's start position
	Games        int
	A, B         Player
	FixedColours bool
	// RandomPlies opening plies are played at random (seeded by Seed and
	// the game number) so that games differ.
	RandomPlies int
	Seed        uint64
	// MaxPlies ends a game as a draw ("move limit") after that many plies;
	// 0 means no limit beyond the variant's own rules.
	MaxPlies int
	// OnMove, when set, is called after every move (to draw the board).
	OnMove func(game int, pos *engine.Position, m engine.Move, san string)
	// OnGame, when set, is called after every game with the totals so far.
	OnGame func(game int, rec *Record, totals Stats)
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

// Run plays the series. It stops early, returning the games finished so
// far, when ctx is done.
func (sp *SelfPlay) Run(ctx context.Context) (Stats, []*Record, error) {
	start := sp.StartFEN
	if start == "" {
		start = sp.Variant.StartFEN
	}
	if _, err := sp.Variant.ParseFEN(start); err != nil {
		return Stats{}, nil, err
	}
	a := search.New(search.Options{HashMB: sp.A.HashMB})
	b := search.New(search.Options{HashMB: sp.B.HashMB})
	var stats Stats
	var records []*Record
	for g := 1; g <= sp.Games && ctx.Err() == nil; g++ {
		aWhite := sp.FixedColours || g%2 == 1
		white, black := sp.A, sp.B
		ws, bs := a, b
		if !aWhite {
			white, black, ws, bs = sp.B, sp.A, b, a
		}
		ws.Clear()
		bs.Clear()
		rec := sp.play(ctx, g, start, [2]Player{white, black}, [2]*search.Searcher{ws, bs}, &stats)
		rec.Tags["Round"] = fmt.Sprint(g)
		records = append(records, rec)
		stats.Games++
		stats.Plies += len(rec.Moves)
		switch {
		case rec.Result == "1/2-1/2" || rec.Result == "*":
			stats.Draws++
		case (rec.Result == "1-0") == aWhite:
			stats.AWins++
		default:
			stats.BWins++
		}
		if rec.Termination == "time forfeit" {
			stats.TimeForfeits++
		}
		if sp.OnGame != nil {
			sp.OnGame(g, rec, stats)
		}
	}
	return stats, records, nil
}

// play plays one game.
func (sp *SelfPlay) play(ctx context.Context, g int, start string, players [2]Player, searchers [2]*search.Searcher, stats *Stats) *Record {
	pos, _ := sp.Variant.ParseFEN(start) // checked by Run
	rec := &Record{Variant: sp.Variant, StartFEN: start, Date: time.Now(), Result: "*",
		Tags: map[string]string{"Event": "Chimera self-play", "Site": "chimera", "White": players[0].Name, "Black": players[1].Name}}
	if tc := players[0].TC; tc != nil {
		rec.Tags["TimeControl"] = tc.String()
	}
	var clocks [2]*Clock
	for c, pl := range players {
		if pl.TC != nil {
			clocks[c] = NewClock(*pl.TC)
		}
	}
	rng := rand.New(rand.NewPCG(sp.Seed, uint64(g)))
	for ply := 0; ; ply++ {
		if res := pos.Result(); res.Over() {
			rec.Result, rec.Termination = res.PGN(), res.Reason.String()
			return rec
		}
		if sp.MaxPlies > 0 && ply >= sp.MaxPlies {
			rec.Result, rec.Termination = "1/2-1/2", "move limit"
			return rec
		}
		if ctx.Err() != nil {
			rec.Termination = "unterminated"
			return rec
		}
		side := pos.SideToMove()
		legal := pos.LegalMoves(nil)
		var m engine.Move
		if ply < sp.RandomPlies {
			m = legal[rng.IntN(len(legal))]
		} else {
			pl := players[side]
			t0 := time.Now()
			r := searchers[side].Search(ctx, pos, pl.limits(side, clocks[side], clocks[side^1]), nil)
			spent := time.Since(t0)
			stats.Nodes += r.Nodes
			stats.SearchTime += spent
			m = r.Best
			if clocks[side] != nil && !clocks[side].Spend(spent) {
				rec.Result, rec.Termination = lossFor(side), "time forfeit"
				return rec
			}
			if !slices.Contains(legal, m) {
				rec.Result, rec.Termination = lossFor(side), "illegal move"
				return rec
			}
		}
		san := pos.SAN(m)
		pos.Make(m)
		rec.Moves = append(rec.Moves, m)
		rec.SAN = append(rec.SAN, san)
		if sp.OnMove != nil {
			sp.OnMove(g, pos, m, san)
		}
	}
}

// lossFor returns the PGN result of side losing.
func lossFor(side engine.Colour) string {
	if side == engine.White {
		return "0-1"
	}
	return "1-0"
}
