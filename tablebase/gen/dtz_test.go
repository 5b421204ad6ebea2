package gen_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestProbeUnderTheClock: KBNvK won in 57 plies to mate, no zeroing move
// before it. With 50 plies on the clock the rule draws it, in the tree
// and at the root, and the root says why; with none it is the mate; with
// TablebaseFiftyMove off the clock does not count. Under -short KRvK won
// in 31 plies with 70 on the clock stands in for it: the same rule at the
// same limit, on a table generated in milliseconds where KBNvK's distances
// to zeroing take seconds. The store reads the binary's one table from
// its file.
func TestProbeUnderTheClock(t *testing.T) {
	v := variants.Chess()
	material, board, plies, clock := "KBNvK", "7K/8/4N3/k7/8/8/8/1B6 w - -", 57, 50
	if testing.Short() {
		material, board, plies, clock = "KRvK", "8/8/8/8/8/4k3/5R2/1K6 w - -", 31, 70
	}
	dir := t.TempDir()
	chessTables.SaveTo(t, dir, material)
	store := gen.NewStore(dir)
	late, err := v.ParseFEN(fmt.Sprintf("%s %d 1", board, clock))
	require.NoError(t, err)
	tbtest.Table(t, store, late)
	d := tbtest.Table(t, store, late)
	dtz, err := d.ProbeDTZ(late)
	require.NoError(t, err)
	require.Equal(t, plies, dtz)

	prober := store.Prober()
	prober.FiftyMove = true
	var said []string
	prober.Report = func(s string) { said = append(said, s) }
	wdl, _, _, ok := prober.Probe(late, false)
	require.True(t, ok)
	require.Zero(t, wdl, "in the tree: a draw")
	wdl, _, best, ok := prober.Probe(late, true)
	require.True(t, ok)
	require.Zero(t, wdl, "at the root: a draw")
	require.NotEqual(t, engine.NoMove, best)
	require.Contains(t, said[len(said)-1], fmt.Sprintf("%d plies to zeroing, %d on the clock: the 50-move rule draws it (a cursed win)", plies, clock))

	early, err := v.ParseFEN(board + " 0 1")
	require.NoError(t, err)
	wdl, dtm, _, ok := prober.Probe(early, true)
	require.True(t, ok)
	require.Equal(t, [2]int{1, plies}, [2]int{wdl, dtm})
	require.Contains(t, said[len(said)-1], "decided within the 50-move rule")

	prober.FiftyMove = false
	wdl, _, _, ok = prober.Probe(late, false)
	require.True(t, ok)
	require.Equal(t, 1, wdl, "analysis: the rule off")
}

// TestRootMoveKeepsTheWin: from positions of KRvKP and KPvKP with random
// clocks, the root's move under the rule wins in time whenever the
// position does: the position after it is lost for the other side with
// its clock and distance to zeroing inside the limit; a loss in time is a
// loss; where the clock already draws it, the answer is a draw.
func TestRootMoveKeepsTheWin(t *testing.T) {
	if testing.Short() {
		t.Skip("two four-piece tables with pawns; run without -short")
	}
	v := variants.Chess()
	store := gen.NewStore(t.TempDir())
	prober := store.Prober()
	prober.FiftyMove = true
	rng := rand.New(rand.NewPCG(3, 4))
	f, err := os.Open("testdata/syzygy/sample.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	wins, drawn := 0, 0
	for sc.Scan() {
		fen, _, _ := strings.Cut(sc.Text(), ";")
		if !strings.Contains(fen, "P") && !strings.Contains(fen, "p") {
			continue
		}
		fields := strings.Fields(fen)
		fields[4] = []string{"0", "20", "60", "90", "97"}[rng.IntN(5)]
		p, err := v.ParseFEN(strings.Join(fields, " "))
		require.NoError(t, err)
		tb := tbtest.Table(t, store, p)
		for _, m := range []string{"KRvK", "KPvK", "KQvKR", "KQvKP", "KRvKR", "KQvKQ", "KRvKQ", "KQvK"} {
			tbtest.Table(t, store, mustPosition(t, v, m))
		}
		r, err := tb.Probe(p)
		require.NoError(t, err)
		d, err := tb.ProbeDTZ(p)
		require.NoError(t, err)
		wdl, _, best, ok := prober.Probe(p, true)
		if !ok {
			continue // a child table not in memory
		}
		inTime := p.HalfmoveClock()+max(d, -d) <= 100
		switch {
		case r.WDL > 0 && inTime:
			wins++
			require.Equal(t, 1, wdl, p.FEN())
			p.Make(best)
			after, err := store.Find(p, tablebase.MemoryOrDisk)
			if p.PieceCount() > 2 && err == nil && p.EnPassant() == engine.NoSquare {
				rr, err := after.Probe(p)
				require.NoError(t, err)
				dd, err := after.ProbeDTZ(p)
				require.NoError(t, err)
				require.Equal(t, -1, rr.WDL, "%s: %s keeps the win", p.FEN(), best)
				require.LessOrEqual(t, p.HalfmoveClock()-dd, 100, "%s: in time", p.FEN())
			}
			p.Unmake()
		case r.WDL < 0 && inTime:
			require.Equal(t, -1, wdl, "%s: lost in time", p.FEN())
		case r.WDL != 0:
			drawn++
			require.Zero(t, wdl, "%s: the clock draws it", p.FEN())
		}
	}
	require.NoError(t, sc.Err())
	t.Logf("%d wins kept in time, %d decided positions the clock draws", wins, drawn)
	require.Greater(t, wins, 50)
	require.Greater(t, drawn, 5)
}

// mustPosition is a position of a material, for building its table.
func mustPosition(t *testing.T, v *engine.Variant, material string) *engine.Position {
	t.Helper()
	fens := map[string]string{
		"KRvK": "8/8/8/8/8/8/k7/6RK w - - 0 1", "KPvK": "8/8/8/8/8/8/k5P1/7K w - - 0 1",
		"KQvKR": "8/8/8/8/8/8/k5r1/6QK w - - 0 1", "KQvKP": "8/8/8/8/8/8/k5p1/6QK w - - 0 1",
		"KRvKR": "8/8/8/8/8/8/k5r1/6RK w - - 0 1", "KQvKQ": "8/8/8/8/8/8/k5q1/6QK w - - 0 1",
		"KRvKQ": "8/8/8/8/8/8/k5q1/6RK w - - 0 1", "KQvK": "8/8/8/8/8/8/k7/6QK w - - 0 1",
	}
	p, err := v.ParseFEN(fens[material])
	require.NoError(t, err, material)
	return p
}

// TestCursedWins: under a ten-move rule (twenty plies), KRvK's long wins
// are cursed: their distance to zeroing passes the limit, the outcome is
// still the win by distance to mate, and the verifier confirms every
// distance; a checkmate keeps 0. Under -short on Gardner's 5×5 board
// under a five-move rule, whose KRvK wins in up to 19 plies: the same
// curse, table walks and verifier, in a tenth of the time chess's KRvK
// took to verify; the full run verifies chess's.
func TestCursedWins(t *testing.T) {
	parent, rule, limit := "chess", "10", 20
	longest, plies := "8/8/8/8/8/4k3/5R2/1K6 w - - 0 1", 31 // mate in 16
	mated := "8/8/8/8/8/8/R7/k1K5 b - - 0 1"
	if testing.Short() {
		parent, rule, limit = "gardner", "5", 10
		longest, plies = "5/5/5/3k1/K3R w - - 0 1", 19 // mate in 10
		mated = "5/5/1K3/5/k1R2 b - - 0 1"
	}
	cat := variants.Builtin()
	require.NoError(t, cat.Load("short.ini", []byte("[shortrule:"+parent+"]\nnMoveRule = "+rule+"\n")))
	v, err := cat.Lookup("shortrule")
	require.NoError(t, err)
	store := gen.NewStore(t.TempDir())
	p, err := v.ParseFEN(longest)
	require.NoError(t, err)
	tb := tbtest.Table(t, store, p)
	d, err := tb.ProbeDTZ(p)
	require.NoError(t, err)
	require.Equal(t, plies, d, "no zeroing move before the mate: DTZ is DTM")
	r, err := tb.Probe(p)
	require.NoError(t, err)
	require.Equal(t, 1, r.WDL)
	st := tb.Stats(0, nil)
	cursed := 0
	for dtz, n := range st.DTZ {
		if dtz > limit {
			cursed += n
		}
	}
	require.Positive(t, cursed)
	rep, err := gen.Verify(tb, store.Finder(tablebase.MemoryOrDisk), nil)
	require.NoError(t, err)
	require.Empty(t, rep.Disagreements)
	require.Positive(t, rep.Checked)
	p, err = v.ParseFEN(mated)
	require.NoError(t, err)
	d, err = tb.ProbeDTZ(p)
	require.NoError(t, err)
	require.Zero(t, d)
}

// TestVerifierChecksDTZ: a distance to zeroing changed by one ply is
// reported, the distances to mate being right. Under -short in the 4×4
// board's KBNvK (TestVerifyFindsErrors uses its KRvK): the same damage
// and the same verifier, on a table verified in a tenth of a second where
// chess's KRvK takes most of a second. (In both, no other entry's
// distance rests on the damaged one alone: the one disagreement is its
// own.)
func TestVerifierChecksDTZ(t *testing.T) {
	v, fen := variants.Chess(), "8/8/8/8/8/4k3/5R2/1K6 w - - 0 1"
	if testing.Short() {
		v, fen = tbtest.Tiny(t), "3k/4/4/KBN1 w - - 0 1"
	}
	store := gen.NewStore(t.TempDir())
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	tb, err := tbtest.Table(t, store, p).Dense() // its entries in memory, to damage
	require.NoError(t, err)
	require.True(t, gen.CorruptDTZ(tb, 0))
	rep, err := gen.Verify(tb, store.Finder(tablebase.MemoryOrDisk), nil)
	require.NoError(t, err)
	require.Len(t, rep.Disagreements, 1)
	require.True(t, rep.Disagreements[0].DTZ)
	require.Contains(t, rep.Disagreements[0].String(), "stored distance to zeroing")
}

// TestNoMoveRuleNoDTZ: a variant without a move rule has tables without
// distances to zeroing, and says so.
func TestNoMoveRuleNoDTZ(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("norule.ini", []byte("[norule:chess]\nnMoveRule = 0\n")))
	v, err := cat.Lookup("norule")
	require.NoError(t, err)
	p, err := v.ParseFEN("8/8/8/8/8/4k3/5R2/1K6 w - - 0 1")
	require.NoError(t, err)
	tb := tbtest.Table(t, gen.NewStore(t.TempDir()), p)
	_, err = tb.ProbeDTZ(p)
	require.ErrorIs(t, err, tablebase.ErrNoDTZ)
}
