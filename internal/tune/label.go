package tune

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/search"
)

// A game's result says little about one position of it: a 300-node game
// is decided by its blunders, most of them long after the position. A
// search from the position itself is a second, less noisy label (the way
// the strongest engines label their training positions), and the fit
// learns from a blend of the two (Fit.SearchShare). This file is that
// labelling stage, and the resolving before it: a position whose side to
// move has a capture to make is not what a static evaluation is judged
// on, so the quiescence search's line is played out first, the Texel
// method's quiet position (Labeller.Resolve).

// labelClamp bounds a search label, in centipawns: a mate found, or a
// score beyond it, is a certain result either way; beyond it the sigmoid
// is flat and a larger number only adds noise.
const labelClamp = 3000

// Labeller searches each sample's position to resolve it, label it, or
// both.
type Labeller struct {
	Variant *engine.Variant
	// Resolve, when set, replaces each sample by the end of its
	// position's quiescence line (its captures until standing pat is
	// best), its features traced again by this evaluation; the game and
	// its result stay.
	Resolve *eval.Tuned
	// Nodes searched from each (resolved) position for its label, 0 for
	// none (one thread, its table cleared each time: the label depends
	// on the position alone).
	Nodes uint64
	// Evaluation the searches use (nil: the documents' formula).
	Evaluation func(*engine.Variant) eval.Evaluator
	// Workers search at once (default: every CPU).
	Workers int
	// Progress, when set, is told how many samples are labelled (one call
	// at a time).
	Progress func(done int)
}

// Label resolves (with Resolve) the position of every sample that has one
// (FEN), then (with Nodes) searches it and stores the score for White in
// its Search field. Neither depends on the number of workers.
func (l *Labeller) Label(ctx context.Context, samples []Sample) error {
	workers := l.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var next atomic.Int64
	done := 0
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := search.New(search.Options{HashMB: 1, Evaluation: l.Evaluation})
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(samples) {
					return
				}
				if err := l.labelOne(ctx, s, &samples[i]); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("labelling position %d: %w", i+1, err)
					}
					mu.Unlock()
					return
				}
				if l.Progress != nil {
					mu.Lock() // one report at a time, in order
					done++
					l.Progress(done)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// labelOne resolves and searches one sample's position with a cleared
// searcher.
func (l *Labeller) labelOne(ctx context.Context, s *search.Searcher, sample *Sample) error {
	if sample.FEN == "" {
		return nil
	}
	p, err := l.Variant.ParseFEN(sample.FEN)
	if err != nil {
		return err
	}
	if l.Resolve != nil {
		if end := resolve(ctx, s, p); end != p {
			p = end
			resolved := SampleOf(l.Resolve, p, sample.Result)
			resolved.Game, resolved.FEN = sample.Game, p.FEN()
			*sample = resolved
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	if l.Nodes == 0 {
		return nil
	}
	s.Clear()
	r := s.Search(ctx, p, search.Limits{Nodes: l.Nodes}, nil)
	if ctx.Err() != nil {
		return nil // an interrupted search labels nothing; Label reports ctx's error
	}
	score := max(-labelClamp, min(labelClamp, int(r.Score)))
	if p.SideToMove() == engine.Black {
		score = -score
	}
	sample.Search, sample.Searched = int16(score), true
	return nil
}

// maxResolvePasses bounds the quiescence searches one position is
// resolved by: a line stops short where the table answered a
// transposition, and a fresh search from its end goes on.
const maxResolvePasses = 4

// resolve returns the end of p's quiescence line (searched again from
// there while a line remains), or p itself when the line is empty or ends
// where no static evaluation is judged: in check (a capture that checks
// lets the search try every reply) or with the game over (a third check,
// a king blown up).
func resolve(ctx context.Context, s *search.Searcher, p *engine.Position) *engine.Position {
	end := p
	for range maxResolvePasses {
		s.Clear()
		_, line := s.Quiesce(ctx, end)
		if len(line) == 0 {
			break
		}
		if end == p {
			end = p.Clone()
		}
		for _, m := range line {
			end.Make(m)
		}
	}
	if end.InCheck() || end.Result().Over() {
		return p
	}
	return end
}

// blend returns copies of samples whose results are (1 − share) × the
// game's result plus share × the win probability of their search label
// under scale (samples without one keep their result). Without any
// search label it returns samples themselves: nothing to copy.
func blend(samples []Sample, share, scale float64) []Sample {
	if !slices.ContainsFunc(samples, func(s Sample) bool { return s.Searched }) {
		return samples
	}
	out := make([]Sample, len(samples))
	for i, s := range samples {
		if s.Searched {
			s.Result = float32((1-share)*float64(s.Result) + share*sigmoid(scale, float64(s.Search)))
		}
		out[i] = s
	}
	return out
}
