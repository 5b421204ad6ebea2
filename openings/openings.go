// Package openings makes opening books for matches: positions reached by a
// few random moves from a variant's start, kept only when a short search
// finds them balanced. Variants have no published books; a match without
// one plays the same few games over and over.
package openings

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// Config says what book to make.
type Config struct {
	Variant *engine.Variant
	// Count is the number of positions wanted.
	Count int
	// Plies is the number of random moves played from the start: at
	// least one (the start position alone is one opening, not a book).
	Plies int
	// Balance is the largest score (centipawns, either side) kept.
	Balance int
	// Depth is the depth of the search that judges a position.
	Depth int
	// Seed makes the book reproducible.
	Seed uint64
}

// maxTriesPerPosition bounds the attempts: a variant whose random lines
// are almost never balanced (or always end the game) gives up rather than
// loop.
const maxTriesPerPosition = 200

// Generate returns cfg.Count distinct FENs, calling onPosition (when not
// nil) with each as it is found. It stops early when balanced positions
// prove too rare (an error), or when ctx is done: with the positions found
// so far (a search cut short judges none) and ctx's error. In Chess960
// on the chess board each line starts from one of the 960 start arrays,
// at random.
func Generate(ctx context.Context, cfg Config, onPosition func(fen string)) ([]string, error) {
	if cfg.Plies < 1 {
		// Every line would be the start position: one position, never
		// the Count asked for.
		return nil, fmt.Errorf("%d plies: a book needs at least one random move from the start", cfg.Plies)
	}
	start, err := cfg.Variant.ParseFEN(cfg.Variant.StartFEN)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6f70656e696e6773))
	randomArrays := cfg.Variant.Chess960 && cfg.Variant.Width == 8 && cfg.Variant.Height == 8 &&
		cfg.Variant.StartFEN == variants.ChessFEN
	searcher := search.New(search.Options{HashMB: 8})
	seen := map[uint64]bool{}
	var out []string
	var moves []engine.Move
	for tries := 0; len(out) < cfg.Count; tries++ {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if tries >= maxTriesPerPosition*cfg.Count {
			return out, fmt.Errorf("only %d balanced positions found in %d random lines: try more --plies freedom or a larger --balance", len(out), tries)
		}
		from := start
		switch {
		case randomArrays:
			fen, _ := variants.Chess960FEN(rng.IntN(960))
			if from, err = cfg.Variant.ParseFEN(fen); err != nil {
				return out, err
			}
		case cfg.Variant.Chess960:
			fen := variants.ShuffledStart(cfg.Variant.StartFEN, rng.IntN)
			if from, err = cfg.Variant.ParseFEN(fen); err != nil {
				return out, err
			}
		}
		p, ok := randomLine(from, cfg.Plies, rng, moves)
		if !ok || seen[p.Key()] {
			continue
		}
		seen[p.Key()] = true
		searcher.Clear()
		r := searcher.Search(ctx, p, search.Limits{Depth: cfg.Depth}, nil)
		if err := ctx.Err(); err != nil {
			return out, err // the search was cut short: its score judges nothing
		}
		if r.Score.IsMate() || int(r.Score) > cfg.Balance || int(r.Score) < -cfg.Balance {
			continue
		}
		fen := p.FEN()
		out = append(out, fen)
		if onPosition != nil {
			onPosition(fen)
		}
	}
	return out, nil
}

// randomLine plays plies uniformly random legal moves from start; ok is
// false when the game ends on the way (or at the end).
func randomLine(start *engine.Position, plies int, rng *rand.Rand, buf []engine.Move) (*engine.Position, bool) {
	p := start.Clone()
	for range plies {
		buf = p.LegalMoves(buf[:0])
		if len(buf) == 0 {
			return nil, false
		}
		p.Make(buf[rng.IntN(len(buf))])
		if _, over := p.ImmediateEnd(); over {
			return nil, false
		}
	}
	if len(p.LegalMoves(buf[:0])) == 0 {
		return nil, false
	}
	return p, true
}
