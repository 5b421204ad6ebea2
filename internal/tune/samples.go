package tune

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/internal/selfplay"
)

// Sample is one training position: its features as the tuned evaluation
// counts them (sparse: the features that are not zero), its phase and
// the result of its game for White (1, ½ or 0).
type Sample struct {
	Index  []uint16
	Count  []float32
	Phase  uint16
	Result float32
	// Game numbers the game the position comes from: the held-out share
	// is whole games, so a result is never on both sides of the split.
	Game uint32
	// FEN is the position, for a search to label it (label.go); Search
	// is that label, White's score in centipawns, when Searched.
	FEN      string
	Search   int16
	Searched bool
}

// SampleOf traces a position's features into a sample labelled result.
func SampleOf(e *eval.Tuned, p *engine.Position, result float32) Sample {
	tr, _ := e.Trace(p)
	s := Sample{Phase: uint16(tr.Phase), Result: result}
	for i, c := range tr.Counts {
		if c != 0 {
			s.Index = append(s.Index, uint16(i))
			s.Count = append(s.Count, float32(c))
		}
	}
	return s
}

// quiet reports whether a position is one the evaluation should be judged
// on: not in check, and the move the game went on with neither captures
// nor promotes (a position whose best move wins material is not what a
// static evaluation sees).
func quiet(p *engine.Position, next engine.Move) bool {
	return !p.InCheck() && !p.IsCapture(next) && next.Promotion() == 0
}

// whiteResult is a game result as White's score, false for an unfinished
// game.
func whiteResult(result string) (float32, bool) {
	switch result {
	case "1-0":
		return 1, true
	case "0-1":
		return 0, true
	case "1/2-1/2":
		return 0.5, true
	}
	return 0, false
}

// GameSamples samples a finished game: up to perGame of its quiet
// positions after the opening (skip plies), chosen by rng (all of them
// when perGame is 0), labelled with the game's result, each position once
// (seen, by key, is shared across games). Positions of one game share its
// result: a few from many games teach more than many from a few.
func GameSamples(e *eval.Tuned, rec *game.Record, number, skip, perGame int, rng *rand.Rand, seen map[uint64]bool) ([]Sample, error) {
	result, ok := whiteResult(rec.Result)
	if !ok {
		return nil, nil
	}
	p, err := rec.Variant.ParseFEN(rec.StartFEN)
	if err != nil {
		return nil, err
	}
	var plies []int
	for ply, m := range rec.Moves {
		if ply >= skip && quiet(p, m) {
			plies = append(plies, ply)
		}
		p.Make(m)
	}
	if perGame > 0 && len(plies) > perGame {
		rng.Shuffle(len(plies), func(i, j int) { plies[i], plies[j] = plies[j], plies[i] })
		plies = plies[:perGame]
		slices.Sort(plies)
	}
	if p, err = rec.Variant.ParseFEN(rec.StartFEN); err != nil {
		return nil, err
	}
	var out []Sample
	next := 0
	for ply, m := range rec.Moves {
		if next < len(plies) && plies[next] == ply {
			next++
			if !seen[p.Key()] {
				seen[p.Key()] = true
				sample := SampleOf(e, p, result)
				sample.Game, sample.FEN = uint32(number), p.FEN()
				out = append(out, sample)
			}
		}
		p.Make(m)
	}
	return out, nil
}

// maxBarren is how many games in a row may add no new position before
// the games are judged to repeat each other.
const maxBarren = 500

// Games are the self-play games the tuner learns from.
type Games struct {
	Variant *engine.Variant
	// Player plays both sides: its search limit (Nodes, for games that do
	// not depend on the machine's speed) and evaluation options.
	Player selfplay.Config
	// RandomPlies open each game at random; Skip more are not sampled;
	// PerGame positions at most are sampled from a game (0: all).
	RandomPlies, Skip, PerGame int
	// MaxPlies ends a game as a draw.
	MaxPlies int
	Seed     uint64
	// Positions is how many samples to collect.
	Positions int
	// Workers play games at once (default: every CPU).
	Workers int
	// Progress, when set, is told the samples collected so far.
	Progress func(samples, games int)
}

// Play plays games until Positions samples are collected. Game i is the
// same whatever the number of workers (its seed is Seed and i, its search
// limited by nodes), and the samples are taken from games 1, 2, … in
// order, so the result depends on the seed alone.
func (g *Games) Play(ctx context.Context, e *eval.Tuned) ([]Sample, error) {
	if g.RandomPlies < 1 {
		// Both sides are one deterministic player: without random plies
		// every game would be the same game.
		return nil, errors.New("games need at least one random ply to differ")
	}
	workers := g.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	// Games under way when enough are collected are abandoned.
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var mu sync.Mutex
	records := map[int]*game.Record{}
	var firstErr error
	enough := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(enough); cancel() }) }
	// barren counts the games in a row that added no position: games
	// that repeat each other never reach the count.
	barren := 0
	// The positions of the contiguous run of finished games 1..done.
	done, positions := 0, 0
	seen := map[uint64]bool{}
	var samples []Sample
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				select {
				case <-enough:
					return
				default:
				}
				if ctx.Err() != nil {
					return
				}
				i := int(next.Add(1))
				sp := &selfplay.SelfPlay{Variant: g.Variant, Games: 1, FirstGame: i - 1, A: g.Player, B: g.Player,
					RandomPlies: g.RandomPlies, Seed: g.Seed, MaxPlies: g.MaxPlies}
				_, recs, err := sp.Run(ctx)
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = err
					}
					mu.Unlock()
					stop()
					return
				}
				if len(recs) == 1 {
					records[i] = recs[0]
				}
				// Sample the games that now run without a gap from 1.
				for records[done+1] != nil {
					done++
					if positions < g.Positions {
						rng := rand.New(rand.NewPCG(g.Seed, uint64(done)))
						got, err := GameSamples(e, records[done], done, g.RandomPlies+g.Skip, g.PerGame, rng, seen)
						if err != nil && firstErr == nil {
							firstErr = err
						}
						samples = append(samples, got...)
						positions += len(got)
						if barren++; len(got) > 0 {
							barren = 0
						}
					}
					delete(records, done)
				}
				if g.Progress != nil {
					g.Progress(min(positions, g.Positions), done)
				}
				if barren >= maxBarren && firstErr == nil {
					firstErr = fmt.Errorf("%d games in a row added no new position: the games repeat each other (more --random-plies?)", barren)
				}
				finished := positions >= g.Positions || firstErr != nil
				mu.Unlock()
				if finished {
					stop()
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := parent.Err(); err != nil && len(samples) < g.Positions {
		return samples, err
	}
	return samples[:min(len(samples), g.Positions)], nil
}

// ReadEPD reads labelled positions, one a line: a FEN and the game's
// result as "1-0", "0-1" or "1/2-1/2" (quoted or not, as in c9 "1-0";),
// or as White's score in brackets, [1.0], [0.5] or [0.0], and optionally
// the game it comes from, c0 "game N" (WriteEPD's lines; positions of one
// game stay on one side of the held-out split, where a line without it is
// a game of its own). Blank lines and lines starting with # are skipped,
// but '# variant NAME' must name v; a line it cannot read is an error
// naming it, and so is a file without a position (empty, or blank lines
// and comments alone): a run given it has nothing to learn from.
func ReadEPD(r io.Reader, v *engine.Variant, e *eval.Tuned, limit int) ([]Sample, error) {
	var out []Sample
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 1
	for ; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if name, ok := strings.CutPrefix(line, variantHeader); ok && strings.TrimSpace(name) != v.Name {
			return nil, fmt.Errorf("line %d: positions of %.40q, not of %s", n, strings.TrimSpace(name), v.Name)
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line, game, hasGame := cutGame(line)
		fen, result, ok := splitLabel(line)
		if !ok {
			return nil, fmt.Errorf("line %d: no result (want 1-0, 0-1, 1/2-1/2, [1.0], [0.5] or [0.0])", n)
		}
		p, err := v.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		sample := SampleOf(e, p, result)
		sample.Game = uint32(n) // a position of its own: its own game
		if hasGame {
			sample.Game = game
		}
		sample.FEN = p.FEN()
		out = append(out, sample)
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions in its %d lines (want a FEN and its result a line)", n-1)
	}
	return out, nil
}

// variantHeader begins the line naming an EPD file's variant (WriteEPD);
// ReadEPD refuses the file for another variant, whose FENs might parse.
const variantHeader = "# variant "

// cutGame takes a game's number, c0 "game N";, off the end of a line.
func cutGame(line string) (string, uint32, bool) {
	i := strings.LastIndex(line, `c0 "game `)
	if i < 0 {
		return line, 0, false
	}
	number := strings.TrimSuffix(strings.TrimSpace(line[i+len(`c0 "game `):]), ";")
	n, err := strconv.ParseUint(strings.TrimSuffix(number, `"`), 10, 32)
	if err != nil {
		return line, 0, false
	}
	return strings.TrimSpace(line[:i]), uint32(n), true
}

// WriteEPD writes the samples that have a position as ReadEPD reads
// them: a first line naming the variant, '# variant NAME', then a line a
// position: the FEN, the game's result and the game's number,
// 'FEN c9 "1-0"; c0 "game 12";'. Search labels are not written: they
// belong to one run's flags.
func WriteEPD(w io.Writer, v *engine.Variant, samples []Sample) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s%s\n", variantHeader, v.Name)
	for _, s := range samples {
		if s.FEN == "" {
			continue
		}
		var result string
		switch s.Result {
		case 1:
			result = "1-0"
		case 0:
			result = "0-1"
		case 0.5:
			result = "1/2-1/2"
		default:
			return fmt.Errorf("position %s: %g is no game's result", s.FEN, s.Result)
		}
		fmt.Fprintf(bw, "%s c9 %q; c0 \"game %d\";\n", s.FEN, result, s.Game)
	}
	return bw.Flush()
}

// splitLabel splits a labelled line into its FEN and White's result.
func splitLabel(line string) (string, float32, bool) {
	for _, l := range []struct {
		text  string
		score float32
	}{
		{"[1.0]", 1}, {"[0.5]", 0.5}, {"[0.0]", 0},
		{"1/2-1/2", 0.5}, {"1-0", 1}, {"0-1", 0},
	} {
		if i := strings.LastIndex(line, l.text); i > 0 {
			fen := strings.TrimRight(strings.TrimSpace(line[:i]), `"`)
			fen = strings.TrimSuffix(strings.TrimSpace(fen), "c9")
			fen = strings.TrimSpace(strings.TrimSuffix(fen, ";"))
			return fen, l.score, true
		}
	}
	return "", 0, false
}
