package gen_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/stretchr/testify/require"
)

// pawnVariant is chess on 5x6, small enough to generate and verify pawn
// endings with double steps, en passant and promotions in a test.
func pawnVariant(t testing.TB) *engine.Variant {
	return tbtest.ChessOn(t, "pawny", 5, 6, "rnbqk/ppppp/5/5/PPPPP/RNBQK")
}

// pawnTables is the 5x6 board's tables of this test binary, each
// generated once: the KPvKP table, which takes seconds with the tables its
// captures and promotions lead into, is probed by several tests.
var pawnTables = tbtest.NewTables(pawnVariant)

// smallPawnTables is the tables of chess on a 4x5 board without the move
// rule, which hold no distances to zeroing (see pawnProbeTables).
var smallPawnTables = tbtest.NewTables(func(t testing.TB) *engine.Variant {
	return tbtest.ChessOn(t, "pawnysmall", 4, 5, "rnbk/pppp/4/PPPP/RNBK", "nMoveRule = 0")
})

// pawnProbeTables is the tables for the tests that probe a KPvKP, the
// distances to mate alone (en passant, the fuzzer, the generator's name,
// the generators' comparison): pawnTables, or under -short those of a
// 4x5 board without the move rule. There pawns still step twice (from
// the second rank to the fourth), take en passant and promote, and
// KPvKP comes with the tables it leads into in a fifth of the 5x6
// board's time (a second of CPU less), having two thirds of the squares to
// place four pieces on and no distances to zeroing to walk.
// TestPawnTablesVerify checks pawnTables' under -short.
func pawnProbeTables() *tbtest.Tables {
	if testing.Short() {
		return smallPawnTables
	}
	return pawnTables
}

// memoryTables generates tables in memory, each once.
func memoryTables(v *engine.Variant) tablebase.Subtables {
	return memoryTablesBy(v, func(m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error) {
		return gen.Generate(v, m, sub, nil)
	})
}

// dtmTables is memoryTables without the distances to zeroing, for tests of
// the distances to mate alone.
func dtmTables(v *engine.Variant) tablebase.Subtables {
	return memoryTablesBy(v, func(m tablebase.Material, sub tablebase.Subtables) (*tablebase.Table, error) {
		return gen.GenerateDTM(v, m, sub)
	})
}

// memoryTablesBy keeps in memory the tables generate makes, each once.
func memoryTablesBy(v *engine.Variant, generate func(tablebase.Material, tablebase.Subtables) (*tablebase.Table, error)) tablebase.Subtables {
	cache := map[string]*tablebase.Table{}
	var sub tablebase.Subtables
	sub = func(m tablebase.Material) (*tablebase.Table, error) {
		if tb, ok := cache[m.String()]; ok {
			return tb, nil
		}
		tb, err := generate(m, sub)
		if err == nil {
			cache[m.String()] = tb
		}
		return tb, err
	}
	return sub
}

// tableOf returns a material's table from sub.
func tableOf(t testing.TB, v *engine.Variant, sub tablebase.Subtables, name string) *tablebase.Table {
	m, err := tablebase.ParseMaterial(v, name)
	require.NoError(t, err)
	tb, err := sub(m)
	require.NoError(t, err, name)
	return tb
}

// TestPawnTablesVerify generates pawn endings on a small board and checks
// every entry against a one-ply search in the rules core, whose move
// generator (double steps, en passant, promotions) is independent of the
// generator's: a wrong un-move, a missed promotion or an en-passant twin
// valued wrongly shows as a disagreement.
func TestPawnTablesVerify(t *testing.T) {
	v := pawnTables.Variant(t)
	sub := pawnTables.Subtables(t)
	// Each material read once by its pieces: TableMaterial checks the
	// variant's rules by reflection on every call, and the verifier asks
	// after every capture and promotion (half of this test's time).
	var mu sync.Mutex
	materials := map[string]tablebase.Material{}
	children := func(p *engine.Position) (*tablebase.Table, error) {
		var pieces []byte
		for c := engine.White; c <= engine.Black; c++ {
			for _, s := range p.Pieces(c) {
				pieces = append(pieces, byte(p.At(s)))
			}
		}
		mu.Lock()
		m, ok := materials[string(pieces)]
		mu.Unlock()
		if !ok {
			var err error
			if m, err = tablebase.TableMaterial(p); err != nil {
				return nil, err
			}
			mu.Lock()
			materials[string(pieces)] = m
			mu.Unlock()
		}
		return sub(m)
	}
	names := []string{"KPvK"}
	if !testing.Short() { // the four-piece tables take most of the time
		names = append(names, "KQvKP", "KPvKP", "KPPvK", "KNPvK")
	}
	for _, name := range names {
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		tb, err := sub(m)
		require.NoError(t, err, name)
		require.Equal(t, "file mirror", tb.Symmetries(), name)
		rep, err := gen.Verify(tb, children, nil)
		require.NoError(t, err, name)
		require.Positive(t, rep.Checked, name)
		require.Empty(t, rep.Disagreements, name)
		require.Zero(t, rep.More, name)
	}
}

// TestEnPassantProbe: a position whose en-passant capture changes its
// value is probed with it (one ply searched by hand), and the same
// placement without the right is the table's entry.
func TestEnPassantProbe(t *testing.T) {
	v := pawnProbeTables().Variant(t)
	sub := pawnProbeTables().Subtables(t)
	tb := tableOf(t, v, sub, "KPvKP")
	differ := 0
	// White's b-pawn has just stepped b2-b4 past b3; Black's c4 pawn
	// may take it en passant.
	var squares []string
	for r := 1; r <= v.Height; r++ {
		for f := 0; f < v.Width; f++ {
			squares = append(squares, fmt.Sprintf("%c%d", 'a'+f, r))
		}
	}
	for _, wk := range squares {
		for _, bk := range squares {
			if wk == bk || wk == "b4" || wk == "c4" || bk == "b4" || bk == "c4" || wk == "b3" || bk == "b3" {
				continue
			}
			with, err := v.ParseFEN(placeFEN(v, map[string]byte{wk: 'K', bk: 'k', "b4": 'P', "c4": 'p'}, "b - b3"))
			if err != nil {
				continue // kings touching, or a king in check
			}
			without, err := v.ParseFEN(placeFEN(v, map[string]byte{wk: 'K', bk: 'k', "b4": 'P', "c4": 'p'}, "b - -"))
			require.NoError(t, err)
			rWith, err := tb.Probe(with)
			require.NoError(t, err, with.FEN())
			rWithout, err := tb.Probe(without)
			require.NoError(t, err, without.FEN())
			// With the right, Black has one move more: never worse.
			require.GreaterOrEqual(t, rWith.WDL, rWithout.WDL, with.FEN())
			if rWith != rWithout {
				differ++
			}
		}
	}
	require.Positive(t, differ, "some en-passant capture changes a value")

	// A table read from its file alone cannot see the tables its moves
	// lead into: it says so rather than guess.
	dir := t.TempDir()
	require.NoError(t, tb.Save(dir))
	alone, err := tablebase.Load(dir, v, tb.Material)
	require.NoError(t, err)
	with, err := v.ParseFEN(pawnFENs(v).enPassant)
	require.NoError(t, err)
	_, err = alone.Probe(with)
	require.ErrorContains(t, err, "no tables after captures at hand")
	// Through a store, which reads the smaller tables, it is answered.
	store := gen.NewStore(dir)
	for _, m := range []string{"KPvK", "KQvKP", "KRvKP", "KBvKP", "KNvKP"} {
		require.NoError(t, tableOf(t, v, sub, m).Save(dir))
	}
	stored, err := store.FindMaterial(v, tb.Material, tablebase.MemoryOrDisk)
	require.NoError(t, err)
	r, err := stored.Probe(with)
	require.NoError(t, err)
	want, err := tb.Probe(with)
	require.NoError(t, err)
	require.Equal(t, want, r)
}

// pawnFENList is positions of KPvKP on one of pawnProbeTables' boards.
type pawnFENList struct {
	// enPassant: Black's c4 pawn may take White's b4 one, just stepped
	// from b2, en passant.
	enPassant string
	// seeds are the fuzzer's: that position with and without the right,
	// a pawn on each side still to step twice, a right to take on a
	// square no pawn has passed, an empty board, pawns about to promote.
	seeds []string
}

// pawnFENs returns the positions for v: the 5x6 board's or, under -short,
// the 4x5 board's (pawnProbeTables).
func pawnFENs(v *engine.Variant) pawnFENList {
	if v.Width == 4 {
		return pawnFENList{"3k/1Pp1/4/4/K3 b - b3 0 1", []string{"3k/1Pp1/4/4/K3 b - b3 0 1", "3k/1Pp1/4/4/K3 b - - 0 1",
			"3k/2p1/4/1P2/K3 w - - 0 1", "3k/1pP1/4/4/K3 w - b4 0 1", "4/4/4/4/4 w - - 0 1", "k3/P3/4/p3/3K w - - 0 1"}}
	}
	return pawnFENList{"k4/5/1Pp2/5/5/4K b - b3 0 1", []string{"k4/5/1Pp2/5/5/4K b - b3 0 1", "k4/5/1Pp2/5/5/4K b - - 0 1",
		"k4/2p2/5/5/1P3/4K w - - 0 1", "k4/5/1pP2/5/5/4K w - b4 0 1", "5/5/5/5/5/5 w - - 0 1", "k4/P4/5/5/p4/4K w - - 0 1"}}
}

// placeFEN writes a FEN of v's board from pieces by square name, then
// the side to move and en-passant field.
func placeFEN(v *engine.Variant, pieces map[string]byte, tail string) string {
	fen := ""
	for r := v.Height; r >= 1; r-- {
		empty := 0
		for f := 'a'; f < 'a'+rune(v.Width); f++ {
			pc, ok := pieces[fmt.Sprintf("%c%d", f, r)]
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				fen += fmt.Sprint(empty)
				empty = 0
			}
			fen += string(pc)
		}
		if empty > 0 {
			fen += fmt.Sprint(empty)
		}
		if r > 1 {
			fen += "/"
		}
	}
	return fen + " " + tail + " 0 1"
}
