package search

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
)

// BenchPosition is one position of the bench: a variant and a FEN.
type BenchPosition struct {
	Variant, FEN string
}

// BenchPositions returns the fixed list the bench searches (a copy: the
// list is part of the bench signature and cannot be changed from outside).
func BenchPositions() []BenchPosition { return slices.Clone(benchPositions) }

// benchPositions is the bench's list. Changing it changes the signature.
var benchPositions = []BenchPosition{
	{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
	{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{"chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"},
	{"chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"},
	{"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
	{"chess", "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1"},
	{"capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"},
	{"atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
	{"3check", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 3+3 2 3"},
	{"grasshopper", "rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1"},
	{"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"},
	{"antichess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"},
}

// BenchDepth is the default bench depth.
const BenchDepth = 10

// BenchTotals are the bench's results: the node count is a signature that
// changes only when search behaviour changes.
type BenchTotals struct {
	Nodes   uint64
	Elapsed time.Duration
}

// NPS returns nodes per second.
func (t BenchTotals) NPS() uint64 {
	if t.Elapsed <= 0 {
		return 0
	}
	return uint64(float64(t.Nodes) / t.Elapsed.Seconds())
}

// BenchConfig sets up a bench run; zero values take the signature's
// settings (BenchDepth, one thread, 16 MiB, the documents' evaluation).
type BenchConfig struct {
	Depth, Threads, HashMB int
	// Evaluation is the searcher's evaluation (Options.Evaluation); each
	// evaluation has its own signature.
	Evaluation func(*engine.Variant) eval.Evaluator
}

// RunBench searches every bench position to depth with a searcher cleared
// before each, printing one line per position to out. lookup resolves
// variant names.
func RunBench(cfg BenchConfig, lookup func(string) (*engine.Variant, error), out io.Writer) (BenchTotals, error) {
	var totals BenchTotals
	depth := cmp.Or(cfg.Depth, BenchDepth)
	s := New(Options{HashMB: cmp.Or(cfg.HashMB, 16), Evaluation: cfg.Evaluation})
	s.SetThreads(cmp.Or(cfg.Threads, 1))
	for i, bp := range benchPositions {
		v, err := lookup(bp.Variant)
		if err != nil {
			return totals, err
		}
		pos, err := v.ParseFEN(bp.FEN)
		if err != nil {
			return totals, err
		}
		s.Clear() // every position starts from an empty table
		start := time.Now()
		r := s.Search(context.Background(), pos, Limits{Depth: depth}, nil)
		elapsed := time.Since(start)
		totals.Nodes += r.Nodes
		totals.Elapsed += elapsed
		fmt.Fprintf(out, "%2d %-12s %-8s %-9s %10d nodes %7.0f ms %6.0f knps  %s\n", i+1, bp.Variant, v.UCI(r.Best), r.Score,
			r.Nodes, elapsed.Seconds()*1000, float64(r.Nodes)/elapsed.Seconds()/1000, bp.FEN)
	}
	return totals, nil
}
