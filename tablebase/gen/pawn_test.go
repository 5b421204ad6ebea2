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

// ruleFreePawnTables is the tables of the 5x6 board without the move
// rule, which hold no distances to zeroing (see pawnProbeTables).
var ruleFreePawnTables = tbtest.NewTables(func(t testing.TB) *engine.Variant {
	return tbtest.ChessOn(t, "pawnyfree", 5, 6, "rnbqk/ppppp/5/5/PPPPP/RNBQK", "nMoveRule = 0")
})

// pawnProbeTables is the 5x6 board's tables for the tests that probe its
// KPvKP, the distances to mate alone (en passant, the fuzzer, the
// generator's name, the generators' comparison): pawnTables, or under
// -short the board's without the move rule, whose KPvKP comes with the
// tables it leads into in a quarter of the time, having no distances to
// zeroing to walk. TestPawnTablesVerify checks pawnTables' under -short.
func pawnProbeTables() *tbtest.Tables {
	if testing.Short() {
		return ruleFreePawnTables
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
		rep := gen.Verify(tb, children, nil)
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
	for r := 1; r <= 6; r++ {
		for f := 'a'; f <= 'e'; f++ {
			squares = append(squares, fmt.Sprintf("%c%d", f, r))
		}
	}
	for _, wk := range squares {
		for _, bk := range squares {
			if wk == bk || wk == "b4" || wk == "c4" || bk == "b4" || bk == "c4" || wk == "b3" || bk == "b3" {
				continue
			}
			with, err := v.ParseFEN(placeFEN(map[string]byte{wk: 'K', bk: 'k', "b4": 'P', "c4": 'p'}, "b - b3"))
			if err != nil {
				continue // kings touching, or a king in check
			}
			without, err := v.ParseFEN(placeFEN(map[string]byte{wk: 'K', bk: 'k', "b4": 'P', "c4": 'p'}, "b - -"))
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
	with, err := v.ParseFEN("k4/5/1Pp2/5/5/4K b - b3 0 1")
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

// placeFEN writes a FEN of a 5x6 board from pieces by square name, then
// the side to move and en-passant field.
func placeFEN(pieces map[string]byte, tail string) string {
	fen := ""
	for r := 6; r >= 1; r-- {
		empty := 0
		for f := 'a'; f <= 'e'; f++ {
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
