package search_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// mateCase is a position with a forced mate in Moves, checked with
// Stockfish 15.1 (chess) and Fairy-Stockfish 11.1 (the variants).
type mateCase struct {
	variant, fen string
	moves        int
	best         []string // the mating first moves (any of them)
}

var mateSuite = []mateCase{
	{"chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, []string{"a1a8"}},
	{"chess", "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", 1, []string{"b1b7"}},
	{"chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10", 2, []string{"d5f6"}},
	{"chess", "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, []string{"g2g1"}},
	{"chess", "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, []string{"b1g6"}},
	{"chess", "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, []string{"f6a6"}},
	{"capablanca", "k9/10/2C7/10/10/10/10/1R7K w - - 0 1", 1, nil},
	{"capablanca", "1k8/10/3C6/10/10/10/10/R8K w - - 0 1", 2, []string{"d6f7"}},
	{"knightmate", "k7/8/1Q6/8/8/8/8/7K w - - 0 1", 1, nil},
	{"3check", "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1", 1, nil},
	{"3check", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 2+3 0 3", 2, []string{"f3f7"}},
}

// options is the searchers' options of these tests: the defaults, but
// under -short a table of 1 MiB, not the default 16. Making a searcher
// writes its whole table (so that a game's first search does not wait
// for the memory page by page), which took longer than most of these
// tests' searches, a hundred searchers in all; searches of thousands of
// nodes fit either table.
func options() search.Options {
	if testing.Short() {
		return search.Options{HashMB: 1}
	}
	return search.Options{}
}

func setup(t testing.TB, variant, fen string) *engine.Position {
	t.Helper()
	v, err := variants.Lookup(variant)
	require.NoError(t, err)
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	return p
}

func TestMateSuite(t *testing.T) {
	for _, mode := range []search.TestMode{{}, {NoTT: true}} {
		for _, mc := range mateSuite {
			p := setup(t, mc.variant, mc.fen)
			s := search.NewForTest(options(), mode)
			r := s.Search(context.Background(), p, search.Limits{Depth: 2*mc.moves + 1}, nil)
			require.True(t, r.Score.IsMate(), "%s %s: %v", mc.variant, mc.fen, r.Score)
			require.Equal(t, mc.moves, r.Score.MateMoves(), "%s %s", mc.variant, mc.fen)
			require.Equal(t, "mate "+itoa(mc.moves), r.Score.String())
			if mc.best != nil {
				require.Contains(t, mc.best, p.Variant().UCI(r.Best), mc.fen)
			}
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestMatedScoreAndTerminalRoot(t *testing.T) {
	// Black to move is mated in 1 whatever it does: 1...Kg8 2.Ra8#.
	p := setup(t, "chess", "7k/R7/6K1/8/8/8/8/8 b - - 0 1")
	r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 4}, nil)
	require.Equal(t, search.MatedIn(2), r.Score)
	require.Equal(t, -1, r.Score.MateMoves())

	// Checkmated at the root: no move, a mate score.
	p = setup(t, "chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
	r = search.New(options()).Search(context.Background(), p, search.Limits{Depth: 3}, nil)
	require.Equal(t, engine.NoMove, r.Best)
	require.Equal(t, search.MatedIn(0), r.Score)
}

func TestTactics(t *testing.T) {
	for _, tc := range []struct {
		name, variant, fen string
		best               []string
	}{
		{"take the hanging queen", "chess", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", []string{"d1d5"}},
		{"take the hanging rook", "capablanca", "4k5/10/10/10/2r7/10/10/2R1K5 w - - 0 1", []string{"c1c4"}},
		{"fork king and queen", "chess", "4k3/8/8/2q5/8/8/8/1N2K3 w - - 0 1", []string{"b1a3", "b1d2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, tc.variant, tc.fen)
			r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 4}, nil)
			require.Contains(t, tc.best, p.Variant().UCI(r.Best))
		})
	}
	// The queen attacked by a pawn must leave (or take): at depth >= 3 the
	// engine does not lose it.
	p := setup(t, "chess", "4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1")
	for depth := 3; depth <= 5; depth++ {
		r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: depth}, nil)
		require.Greater(t, int(r.Score), 600, "depth %d keeps the queen", depth)
		require.Equal(t, "d4", r.Best.From().String())
	}
}

// ttSuite are positions for the transposition-table tests.
var ttSuite = []struct{ variant, fen string }{
	{"chess", variants.ChessFEN},
	{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
	{"chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"},
	{"capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"},
	{"atomic", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
}

// TestTTIsExact: with everything that depends on move order turned off, a
// table that reuses scores only at the stored depth changes no fixed-depth
// score: it stores bounds correctly.
func TestTTIsExact(t *testing.T) {
	depth := 4
	if testing.Short() {
		depth = 2
	}
	for _, tc := range ttSuite {
		p := setup(t, tc.variant, tc.fen)
		for d := 1; d <= depth; d++ {
			plain := search.NewForTest(options(), search.TestMode{Pure: true, NoTT: true}).Search(context.Background(), p, search.Limits{Depth: d}, nil)
			withTT := search.NewForTest(options(), search.TestMode{Pure: true, ExactDepthTT: true}).Search(context.Background(), p, search.Limits{Depth: d}, nil)
			require.Equal(t, plain.Score, withTT.Score, "%s depth %d", tc.fen, d)
		}
	}
}

// TestTTSavesNodes: in normal mode the table keeps mate scores and finds
// far fewer nodes.
func TestTTSavesNodes(t *testing.T) {
	var with, without uint64
	for _, tc := range ttSuite {
		p := setup(t, tc.variant, tc.fen)
		with += search.New(options()).Search(context.Background(), p, search.Limits{Depth: 6}, nil).Nodes
		without += search.NewForTest(options(), search.TestMode{NoTT: true}).Search(context.Background(), p, search.Limits{Depth: 6}, nil).Nodes
	}
	t.Logf("depth 6 on %d positions: %d nodes with the table, %d without", len(ttSuite), with, without)
	require.Less(t, with, without*3/4)
}

func TestDeterministic(t *testing.T) {
	p := setup(t, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	a := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 6}, nil)
	b := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 6}, nil)
	require.Equal(t, a, b)
	// A searcher reused after Clear gives the same answer again.
	s := search.New(options())
	s.Search(context.Background(), p, search.Limits{Depth: 5}, nil)
	s.Clear()
	require.Equal(t, a, s.Search(context.Background(), p, search.Limits{Depth: 6}, nil))
}

func TestLimits(t *testing.T) {
	p := setup(t, "chess", variants.ChessFEN)
	var infos []search.Info
	r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 5}, func(i search.Info) { infos = append(infos, i) })
	require.Len(t, infos, 5)
	for i, info := range infos {
		require.Equal(t, i+1, info.Depth)
		require.NotEmpty(t, info.PV)
		require.Equal(t, r.Best, infos[len(infos)-1].PV[0])
		require.GreaterOrEqual(t, info.SelDepth, info.Depth)
	}

	r = search.New(options()).Search(context.Background(), p, search.Limits{Nodes: 5000}, nil)
	require.LessOrEqual(t, r.Nodes, uint64(5000))
	require.NotEqual(t, engine.NoMove, r.Best)

	e2e4, err := p.ParseUCI("e2e4")
	require.NoError(t, err)
	r = search.New(options()).Search(context.Background(), p, search.Limits{Depth: 4, SearchMoves: []engine.Move{e2e4}}, nil)
	require.Equal(t, e2e4, r.Best)

	start := time.Now()
	r = search.New(options()).Search(context.Background(), p, search.Limits{MoveTime: 100 * time.Millisecond}, nil)
	require.NotEqual(t, engine.NoMove, r.Best)
	t.Logf("movetime 100ms took %v", time.Since(start))

	// Mate limit: stop as soon as the mate is found.
	m := setup(t, "chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	r = search.New(options()).Search(context.Background(), m, search.Limits{Mate: 1}, nil)
	require.Equal(t, 1, r.Score.MateMoves())
}

// TestStopReturnsLegalMove: an infinite search stopped through its context
// returns a legal move, even when stopped almost at once.
func TestStopReturnsLegalMove(t *testing.T) {
	p := setup(t, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	legal := p.LegalMoves(nil)
	for _, after := range []time.Duration{0, time.Millisecond, 30 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan search.Result)
		go func() { done <- search.New(options()).Search(ctx, p, search.Limits{Infinite: true}, nil) }()
		time.Sleep(after)
		cancel()
		r := <-done
		require.True(t, slices.Contains(legal, r.Best), "stopped after %v", after)
	}
}

// TestDrawsInTree: the fifty-move rule and repetitions score zero.
func TestDrawsInTree(t *testing.T) {
	// A rook up, but every move reaches the hundredth quiet ply.
	p := setup(t, "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
	r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 4}, nil)
	require.Equal(t, search.Score(0), r.Score)
	// Perpetual check saves the side a queen down.
	p = setup(t, "chess", "6k1/5ppp/8/8/8/8/qq6/1Q4K1 w - - 0 1")
	r = search.New(options()).Search(context.Background(), p, search.Limits{Depth: 6}, nil)
	require.Less(t, int(r.Score), 0)
}

// BenchmarkStopLatency reports how long a search takes to return after its
// context is cancelled (the figure, not a pass/fail bound).
func BenchmarkStopLatency(b *testing.B) {
	p := setup(b, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	s := search.New(options())
	var total, worst time.Duration
	n := 0
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Search(ctx, p, search.Limits{Infinite: true}, nil); close(done) }()
		time.Sleep(50 * time.Millisecond)
		start := time.Now()
		cancel()
		<-done
		d := time.Since(start)
		total += d
		worst = max(worst, d)
		n++
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "ms/stop")
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

func TestMultiPV(t *testing.T) {
	p := setup(t, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var infos []search.Info
	single := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 4}, nil)
	r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 4, MultiPV: 3}, func(i search.Info) {
		infos = append(infos, i)
	})
	require.Len(t, infos, 12)
	last := infos[9:]
	seen := map[engine.Move]bool{}
	for i, info := range last {
		require.Equal(t, i+1, info.MultiPV)
		require.Equal(t, 4, info.Depth)
		require.False(t, seen[info.PV[0]], "each line starts with a different move")
		seen[info.PV[0]] = true
		if i > 0 {
			require.LessOrEqual(t, int(info.Score), int(last[i-1].Score)+0, "lines best first")
		}
	}
	require.Equal(t, single.Score, r.Score, "line 1 is the single-PV result")
	require.Equal(t, last[0].PV[0], r.Best)
}

// TestMultiPVLinesInOrder: every iteration's MultiPV lines come best
// first and the move played is line 1's, also where a later line, searched
// without the moves before it, scores higher than an earlier one (they
// came unsorted: Kiwipete at depth 10 gave line 2 cp -160 and line 3 cp
// -130, an Italian opening at depth 5 line 1 cp 10 and line 2 cp 70).
// Root searches that fail high or low are reported as bounds, never as
// an iteration's last word, and so are the root moves being searched.
func TestMultiPVLinesInOrder(t *testing.T) {
	depth := 10
	if testing.Short() {
		depth = 8
	}
	lower, upper, moves := 0, 0, 0
	for _, fen := range []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		variants.ChessFEN,
	} {
		p := setup(t, "chess", fen)
		var infos []search.Info
		r := search.NewForTest(options(), search.TestMode{DetailAtOnce: true}).Search(context.Background(), p,
			search.Limits{Depth: depth, MultiPV: 4}, func(i search.Info) { infos = append(infos, i) })
		var lines []search.Info
		for i, info := range infos {
			if info.CurrMove != engine.NoMove {
				moves++
				require.True(t, p.IsLegal(info.CurrMove), "the move searched is a root move")
				require.Positive(t, info.CurrMoveNumber)
				continue
			}
			require.False(t, info.LowerBound && info.UpperBound)
			if info.LowerBound || info.UpperBound {
				lower += btoi(info.LowerBound)
				upper += btoi(info.UpperBound)
				require.NotEmpty(t, info.PV, "a bound names its line")
				require.Less(t, i, len(infos)-1, "a bound is followed by the line's score")
				continue
			}
			lines = append(lines, info)
		}
		require.Len(t, lines, 4*depth, fen)
		for d := range depth {
			iteration := lines[4*d : 4*d+4]
			for i, info := range iteration {
				require.Equal(t, d+1, info.Depth, fen)
				require.Equal(t, i+1, info.MultiPV, fen)
				if i > 0 {
					require.LessOrEqual(t, int(info.Score), int(iteration[i-1].Score), "%s depth %d: lines best first", fen, d+1)
				}
			}
		}
		final := lines[len(lines)-4]
		require.Equal(t, final.PV[0], r.Best, fen)
		require.Equal(t, final.Score, r.Score, fen)
	}
	require.Positive(t, lower, "some root search failed high")
	require.Positive(t, upper, "some root search failed low")
	require.Positive(t, moves, "the root moves searched are reported")
}

// TestLimitsLess: time spent before a search comes off the side's clock
// and off a fixed move time, never below a millisecond.
func TestLimitsLess(t *testing.T) {
	l := search.Limits{WTime: 5 * time.Second, BTime: 4 * time.Second, MoveTime: time.Second}
	white := l.Less(engine.White, 2*time.Second)
	require.Equal(t, 3*time.Second, white.WTime)
	require.Equal(t, 4*time.Second, white.BTime)
	require.Equal(t, time.Millisecond, white.MoveTime)
	black := l.Less(engine.Black, 10*time.Second)
	require.Equal(t, time.Millisecond, black.BTime)
	require.Equal(t, 5*time.Second, black.WTime)
	require.Equal(t, search.Limits{}, search.Limits{}.Less(engine.White, time.Second), "no clock, nothing to take")
}

// TestDecidedPositions: a position a variant rule has decided, or will
// decide after the side to move's only possible moves, reports that score,
// not a centipawn guess or a mate of the wrong sign.
func TestDecidedPositions(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		want         search.Score
	}{
		// White's king reached the eighth rank and Black's cannot reach
		// it at once: the game is over (lichess's rule; Fairy-Stockfish
		// 11.1 lets Black move once more and says mate -1).
		{"racingkings", "7K/8/8/8/8/8/k7/8 b - - 0 1", search.MatedIn(0)},
		{"racingkings", "7K/k7/8/8/8/8/8/8 b - - 0 1", search.Score(0)},
		{"racingkings", "7K/8/8/8/8/8/k7/8 w - - 0 1", search.MateIn(0)},
		{"3check", "4k3/8/8/8/8/8/8/R3K3 b - - 0+3 0 1", search.MatedIn(0)},
		{"atomic", "8/8/8/8/8/8/3P4/4K3 b - - 0 1", search.MatedIn(0)},
		{"antichess", "8/8/8/8/8/8/3P4/8 b - - 0 1", search.MateIn(0)},
		{"extinction", "rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1", search.MatedIn(0)},
		{"kingofthehill", "8/8/8/3K4/8/8/8/k7 b - - 0 1", search.MatedIn(0)},
		{"shatranj", "8/8/8/3K4/8/8/8/k7 b - - 0 1", search.Score(0)},
		// A bare king may move once, to bare the other side back; it
		// cannot take the rook, so it loses after its move.
		{"shatranj", "8/8/8/3K4/8/8/3R4/k7 b - - 0 1", search.MatedIn(1)},
		{"horde", "4k3/8/8/8/8/8/8/8 w - - 0 1", search.MatedIn(0)},
	} {
		p := setup(t, tc.variant, tc.fen)
		r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 3}, nil)
		require.Equal(t, tc.want, r.Score, "%s %s: got %v", tc.variant, tc.fen, r.Score)
	}
	for _, tc := range []struct {
		score search.Score
		text  string
	}{
		{search.MatedIn(0), "mate 0"}, {search.MatedIn(1), "mate -1"}, {search.MatedIn(2), "mate -1"},
		{search.MatedIn(3), "mate -2"}, {search.MateIn(1), "mate 1"}, {search.MateIn(3), "mate 2"},
	} {
		require.Equal(t, tc.text, tc.score.String())
	}
}

// TestThreads: Lazy SMP finds the same mates, answers with a legal move
// when stopped at any moment, counts every thread's nodes, and a searcher
// set back to one thread is deterministic again. Run it with -race: the
// threads share the table without a lock.
func TestThreads(t *testing.T) {
	for _, mc := range mateSuite {
		p := setup(t, mc.variant, mc.fen)
		s := search.New(options())
		s.SetThreads(3)
		// The helpers' table entries change what the main thread prunes,
		// differently with every interleaving of the threads (under load a
		// depth of exactly 2·moves+1 missed a mate in 2 now and then), so
		// two plies of slack: the mate must be found, and no longer.
		r := s.Search(context.Background(), p, search.Limits{Depth: 2*mc.moves + 3}, nil)
		require.True(t, r.Score.IsMate(), "%s %s: %v", mc.variant, mc.fen, r.Score)
		require.Equal(t, mc.moves, r.Score.MateMoves(), "%s %s", mc.variant, mc.fen)
	}
	p := setup(t, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	legal := p.LegalMoves(nil)
	s := search.New(options())
	s.SetThreads(2)
	require.Equal(t, 2, s.Threads())
	for _, after := range []time.Duration{0, time.Millisecond, 20 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan search.Result)
		go func() { done <- s.Search(ctx, p, search.Limits{Infinite: true}, nil) }()
		time.Sleep(after)
		cancel()
		r := <-done
		require.True(t, slices.Contains(legal, r.Best), "stopped after %v", after)
	}
	var last search.Info
	r := s.Search(context.Background(), p, search.Limits{Depth: 8}, func(i search.Info) { last = i })
	require.Equal(t, 8, r.Depth)
	require.GreaterOrEqual(t, r.Nodes, last.Nodes, "the result counts the helpers' nodes too")
	s.SetThreads(1)
	s.Clear()
	one := search.New(options())
	require.Equal(t, one.Search(context.Background(), p, search.Limits{Depth: 7}, nil),
		s.Search(context.Background(), p, search.Limits{Depth: 7}, nil))
}

// TestInterruptedIterationMove: a search stopped in the middle of an
// iteration plays a root move that iteration already proved better than
// the last completed one's. Node limits between the end of the depth that
// first sees a mate and the one before find it: somewhere in that range
// the mating sacrifice is played though no completed iteration chose it.
// The range is tried from its top down: the sacrifice is proved late in
// the iteration, and from the bottom up some sixty searches came first.
func TestInterruptedIterationMove(t *testing.T) {
	p := setup(t, "chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10")
	mate, err := p.ParseUCI("d5f6")
	require.NoError(t, err)
	var infos []search.Info
	search.New(options()).Search(context.Background(), p, search.Limits{Mate: 2}, func(i search.Info) { infos = append(infos, i) })
	last := infos[len(infos)-1]
	require.Equal(t, mate, last.PV[0])
	require.Greater(t, len(infos), 1)
	before := infos[len(infos)-2]
	require.NotEqual(t, mate, before.PV[0], "the mate is seen first at depth %d", last.Depth)

	found := false
	for n := last.Nodes - 1; n > before.Nodes && !found; n -= max((last.Nodes-before.Nodes)/64, 1) {
		var got []search.Info
		r := search.New(options()).Search(context.Background(), p, search.Limits{Nodes: n}, func(i search.Info) { got = append(got, i) })
		final := got[len(got)-1]
		if !final.LowerBound {
			continue
		}
		// The interrupted iteration's move is played and reported last,
		// as a lower bound, so that a GUI shows the line of the move.
		found = true
		require.Equal(t, mate, r.Best, "node limit %d", n)
		require.Equal(t, mate, final.PV[0], "node limit %d", n)
		require.Equal(t, last.Depth, final.Depth, "node limit %d", n)
		require.False(t, got[len(got)-2].LowerBound)
		require.NotEqual(t, mate, got[len(got)-2].PV[0])
	}
	require.True(t, found, "no node limit between %d and %d played the mate found mid-iteration", before.Nodes, last.Nodes)
}

// TestPawnNearPromotionExtended: a pawn stepping next to its promotion
// zone is searched a ply deeper, so a one-ply search already sees the
// promotion it threatens (without the extension the reply is a stand-pat
// and d7 looks like any pawn move: the knight-up side scores below zero).
func TestPawnNearPromotionExtended(t *testing.T) {
	for _, tc := range []struct{ variant, fen, push string }{
		{"chess", "7k/8/3P4/8/8/7K/8/n7 w - - 0 1", "d6d7"},
		{"chess", "N7/8/7k/8/8/3p4/8/K7 b - - 0 1", "d3d2"},
		{"capablanca", "9k/10/3P6/10/10/9K/10/n9 w - - 0 1", "d6d7"},
	} {
		p := setup(t, tc.variant, tc.fen)
		r := search.New(options()).Search(context.Background(), p, search.Limits{Depth: 1}, nil)
		require.Equal(t, tc.push, p.Variant().UCI(r.Best), "%s %s", tc.variant, tc.fen)
		require.Greater(t, int(r.Score), 300, "%s %s: %v", tc.variant, tc.fen, r.Score)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestMultiPVPlaysItsLastLineOne: with several lines, a search cut short
// by its node limit plays the move of the last line 1 it reported (it
// played the interrupted iteration's unranked first line: d2d3 after
// reporting d2d4).
func TestMultiPVPlaysItsLastLineOne(t *testing.T) {
	p := setup(t, "chess", variants.ChessFEN)
	for nodes := uint64(5000); nodes <= 60000; nodes += 2500 {
		var last search.Info
		r := search.New(options()).Search(context.Background(), p, search.Limits{Nodes: nodes, MultiPV: 3}, func(i search.Info) {
			if i.MultiPV == 1 && i.CurrMove == engine.NoMove && !i.UpperBound {
				last = i
			}
		})
		require.NotEmpty(t, last.PV, "nodes %d", nodes)
		require.Equal(t, last.PV[0], r.Best, "nodes %d: the move played is the last line 1 reported", nodes)
	}
}
