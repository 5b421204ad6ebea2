package datagen

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/dataset"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// smallRun is a quick configuration: few nodes a move, short games.
func smallRun(t *testing.T, name string, positions int64) Config {
	v, err := variants.Builtin().Lookup(name)
	require.NoError(t, err)
	return Config{Variant: v, Nodes: 300, RandomPlies: 6, MaxPlies: 80, Adjudicate: 1500, Seed: 7, Positions: positions, Workers: 2, HashMB: 1}
}

// gamesIn reads the file's games by index.
func gamesIn(t *testing.T, path string) map[uint64]dataset.Game {
	r, err := dataset.Open(path)
	require.NoError(t, err)
	defer r.Close()
	out := map[uint64]dataset.Game{}
	for {
		var g dataset.Game
		if r.Next(&g) == io.EOF {
			break
		}
		require.NotContains(t, out, g.Index, "game %d written twice", g.Index)
		out[g.Index] = g
	}
	require.NoError(t, r.Damaged())
	return out
}

// TestStoppedRunResumesToTheSameGames: a run stopped after a few games and
// resumed by the same configuration (another number of workers) writes
// the same games, each once, as a run that was never stopped: game i
// depends on the seed and i alone. Under -short each move searches 100
// nodes, not 300: the searches are most of the test's time, and the
// games, six of each variant, stay as many and as long.
func TestStoppedRunResumesToTheSameGames(t *testing.T) {
	for _, name := range []string{"chess", "crazyhouse"} {
		cfg := smallRun(t, name, 200)
		if testing.Short() {
			cfg.Nodes = 100
		}
		h := dataset.HeaderFor(cfg.Variant, "test")
		dir := t.TempDir()

		whole := filepath.Join(dir, "whole.data")
		w, err := dataset.Append(whole, h)
		require.NoError(t, err)
		require.NoError(t, Run(context.Background(), cfg, w))
		require.GreaterOrEqual(t, w.Positions(), cfg.Positions)
		require.NoError(t, w.Close())

		resumed := filepath.Join(dir, "resumed.data")
		ctx, cancel := context.WithCancel(context.Background())
		stopped := cfg
		stopped.Progress = func(games int, _ int64) {
			if games >= 2 {
				cancel()
			}
		}
		w, err = dataset.Append(resumed, h)
		require.NoError(t, err)
		require.NoError(t, Run(ctx, stopped, w))
		require.Less(t, w.Positions(), cfg.Positions, "%s: the run was not stopped early", name)
		require.NoError(t, w.Close())
		again := cfg
		again.Workers = 1
		w, err = dataset.Append(resumed, h)
		require.NoError(t, err)
		require.NoError(t, Run(context.Background(), again, w))
		require.NoError(t, w.Close())

		want, got := gamesIn(t, whole), gamesIn(t, resumed)
		for i, g := range got {
			if ref, ok := want[i]; ok {
				require.Equal(t, ref, g, "%s: game %d differs after resuming", name, i)
			}
		}
		require.NotEmpty(t, got)
	}
}

// TestKeepAllAddsTheTacticalPositions: --keep all plays the same games
// and keeps the same quiet positions, plus tactical ones marked so.
func TestKeepAllAddsTheTacticalPositions(t *testing.T) {
	cfg := smallRun(t, "chess", 150)
	cfg.Nodes = 100
	cfg.Workers = 1
	all := cfg
	all.KeepAll = true
	dir := t.TempDir()
	run := func(c Config, name string) map[uint64]dataset.Game {
		path := filepath.Join(dir, name)
		w, err := dataset.Append(path, dataset.HeaderFor(c.Variant, "test"))
		require.NoError(t, err)
		require.NoError(t, Run(context.Background(), c, w))
		require.NoError(t, w.Close())
		return gamesIn(t, path)
	}
	quiet, every := run(cfg, "quiet.data"), run(all, "all.data")
	tactical, compared := 0, 0
	for i, g := range quiet {
		e, ok := every[i]
		if !ok {
			continue // the --keep all run reached its positions in fewer games
		}
		require.Equal(t, g.Result, e.Result, "game %d", i)
		var quietOfAll []dataset.Position
		for _, p := range e.Positions {
			if p.Tactical {
				tactical++
			} else {
				quietOfAll = append(quietOfAll, p)
			}
		}
		for _, p := range g.Positions {
			require.False(t, p.Tactical, "a quiet run kept a tactical position")
		}
		require.Equal(t, g.Positions, quietOfAll, "game %d: the quiet positions differ", i)
		compared += len(g.Positions)
	}
	require.Positive(t, tactical, "no tactical position kept")
	require.Greater(t, compared, 50, "too few positions compared")
}

// TestKeepsQuietPositions: a kept position is not in check, its search's
// best move is quiet, and its score no mate; with KeepAll the others are
// kept too, marked tactical.
func TestKeepsQuietPositions(t *testing.T) {
	v := variants.Chess()
	for _, tc := range []struct {
		fen  string
		move string
		want bool
	}{
		{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "g1f3", true},
		{"rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "e4d5", false}, // a capture
		{"rnbqkbnr/pppp1ppp/8/4p3/4P2Q/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2", "g7g6", true},
		{"rnb1kbnr/pppp1ppp/8/4p3/4P2q/5P2/PPPP2PP/RNBQKBNR w KQkq - 1 3", "g2g3", false}, // in check
	} {
		p, err := v.ParseFEN(tc.fen)
		require.NoError(t, err)
		m, err := p.ParseUCI(tc.move)
		require.NoError(t, err)
		quiet := &player{cfg: &Config{}}
		kept, tactical := quiet.keep(p, m, true, 30)
		require.Equal(t, tc.want, kept, tc.fen)
		require.Equal(t, !tc.want, tactical, tc.fen)
		all := &player{cfg: &Config{KeepAll: true}}
		kept, tactical = all.keep(p, m, true, 30)
		require.True(t, kept, "--keep all: %s", tc.fen)
		require.Equal(t, !tc.want, tactical, tc.fen)
		for _, pl := range []*player{quiet, all} {
			kept, _ = pl.keep(p, m, false, int(search.MateScore-5))
			require.False(t, kept, "a mate's score")
			kept, _ = pl.keep(p, m, true, maxScore)
			require.False(t, kept, "beyond the largest score kept")
		}
	}
}

// TestAdjudication: a lead must stand, for the same side, six plies.
func TestAdjudication(t *testing.T) {
	a := adjudication{threshold: 1000}
	side := engine.White
	for ply := range adjudicatePlies - 1 {
		score := search.Score(1200)
		if ply%2 == 1 {
			score = -1200 // Black to move, losing
		}
		_, decided := a.after(side, score)
		require.False(t, decided)
		side = side.Other()
	}
	winner, decided := a.after(side, -1100) // Black to move, still losing
	require.True(t, decided)
	require.Equal(t, engine.White, winner)
	_, decided = a.after(engine.White, 100)
	require.False(t, decided, "the lead fell below the threshold: counting starts again")
	none := adjudication{}
	_, decided = none.after(engine.White, 30000)
	require.False(t, decided, "no threshold: played out")
}

// TestParseScore reads a teacher's centipawns and mates, and nothing from a
// bound or a line without a score.
func TestParseScore(t *testing.T) {
	for _, tc := range []struct {
		info string
		want teacherScore
	}{
		{"info depth 8 seldepth 10 multipv 1 score cp 37 nodes 4000 nps 400000 pv e2e4", teacherScore{kind: centipawns, centipawns: 37}},
		{"info depth 6 score cp -120 wdl 10 500 490 nodes 10", teacherScore{kind: centipawns, centipawns: -120}},
		{"info depth 9 score mate 3 nodes 100 pv d1h5", teacherScore{kind: mateScore, mating: true}},
		{"info depth 9 score mate -2 nodes 100 pv d1h5", teacherScore{kind: mateScore}},
		{"info depth 9 score cp 55 lowerbound nodes 100", teacherScore{}},
		{"info depth 9 score cp", teacherScore{}},
		{"info depth 9 score wdl 1 2 nodes 5", teacherScore{}},
		{"info string hello", teacherScore{}},
		{"", teacherScore{}},
	} {
		require.Equal(t, tc.want, parseScore(tc.info), tc.info)
	}
}
