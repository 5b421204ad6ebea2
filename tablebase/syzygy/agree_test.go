package syzygy_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// The reader against Chimera's own tables: a position probed through
// the Syzygy files and through the table Chimera generates for its
// material (tablebase/gen) must get the same value. The two count alike
// but for the two differences below, the only ones tolerated.
//
// WDL: Syzygy's five values are compared with the ones Chimera's result
// implies under the fifty-move rule, the move counter at zero: a win
// whose distance to zeroing is within 100 plies (Table.InTime) is a Win,
// beyond it a CursedWin; a loss likewise a Loss or a BlessedLoss; a
// draw a Draw. They must be equal.
//
// DTZ: Chimera's is the walk's (tablebase/gen/dtz.go), the number
// Syzygy's files encode; equal, with two exceptions:
//
//   - A checkmated side to move: Chimera's DTZ is 0 (the table's
//     convention for a position with no move: DTM 0, DTZ 0), Syzygy's −1
//     (python-chess's probe_dtz counts the mate as the zeroing move just
//     made). Both call it lost (Loss). A stalemate is a draw, 0, in both.
//   - Rounding: a Syzygy DTZ file may keep a phase's distances in moves
//     rather than plies, and its prober then answers ±n for a true ±(n+1)
//     (python-chess's probe_dtz: "the return value can be off by one: a
//     return value −n can mean a losing zeroing move in n+1 plies and a
//     return value +n can mean a winning zeroing move in n+1 plies …
//     never used for endgame phases where it would change the game
//     theoretical outcome"). So Syzygy's n > 0 may be Chimera's n+1, and
//     its n < 0 Chimera's n−1: the same sign, Chimera's one ply further
//     from zero, never the other way and never more. The WDL comparison
//     above proves the rounding changed no outcome.
//
// Zeroing moves count alike: a position whose best move wins by a
// capture, a pawn move or mate is 1 in both (101 where that move leads
// into a cursed win), a side whose every move is a losing capture or
// pawn move −1 (−101 into a blessed loss): Chimera's walk takes a
// zeroing move as a terminal, the reader finds it by a ply of search
// before it reads the file. En passant, which neither table stores, is
// searched by both (Table.ProbeDTZ over the position's moves, the
// reader's ProbeDTZ by the capture apart): the long test compares every position of KPvKP
// with an en-passant right (the normal suite leaves KPvKP out: its
// table needs every other pawn table generated first).

// agreeTables is the chess tables Chimera generates, each once per test
// binary.
var agreeTables = tbtest.NewTables(func(testing.TB) *engine.Variant { return variants.Chess() })

// agreeMaterials lists the materials of testdata/regular's WDL files as
// Syzygy names them (the stronger side first), sorted; each must have its
// DTZ file too.
func agreeMaterials(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(regularDir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".rtbw"); ok {
			_, err := os.Stat(filepath.Join(regularDir, name+".rtbz"))
			require.NoError(t, err, "the DTZ file of %s", name)
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// agreeSetup is one material's pieces and tables: White holds the
// stronger side (Syzygy's name's first half), Black the other.
type agreeSetup struct {
	name   string
	v      *engine.Variant
	table  *tablebase.Table
	pieces []engine.Piece
	pawns  bool
}

// newAgreeSetup generates (or finds) Chimera's table of the material.
func newAgreeSetup(t testing.TB, name string) agreeSetup {
	t.Helper()
	v := agreeTables.Variant(t)
	white, black, ok := strings.Cut(name, "v")
	require.True(t, ok, name)
	s := agreeSetup{name: name, v: v, table: agreeTables.Get(t, name)}
	for c, letters := range []string{white, black} {
		for i := range len(letters) {
			typ := v.TypeByLetter(letters[i])
			require.NotZero(t, typ, "%s: piece %c", name, letters[i])
			pc := engine.MakePiece(typ, engine.Colour(c))
			s.pieces = append(s.pieces, pc)
			s.pawns = s.pawns || v.IsPawn(pc)
		}
	}
	return s
}

// agreeTally counts one material's comparisons.
type agreeTally struct {
	positions  int
	enPassant  int      // of them with an en-passant right
	byWDL      [5]int   // by Syzygy's WDL, Loss first
	exact      int      // the same DTZ
	rounded    int      // Syzygy's one ply nearer zero
	checkmated int      // Chimera 0, Syzygy −1
	stalemated int      // a draw, 0, in both
	mismatches int      // anything else
	examples   []string // the first mismatches, with both values
}

// add sums b into a.
func (a *agreeTally) add(b agreeTally) {
	a.positions += b.positions
	a.enPassant += b.enPassant
	for i := range a.byWDL {
		a.byWDL[i] += b.byWDL[i]
	}
	a.exact += b.exact
	a.rounded += b.rounded
	a.checkmated += b.checkmated
	a.stalemated += b.stalemated
	a.mismatches += b.mismatches
	for _, e := range b.examples {
		if len(a.examples) < 20 {
			a.examples = append(a.examples, e)
		}
	}
}

// String is the tally in one line.
func (a *agreeTally) String() string {
	return fmt.Sprintf("%d positions (%d en passant): %d win, %d cursed win, %d draw, %d blessed loss, %d loss; "+
		"DTZ %d exact, %d rounded by Syzygy, %d checkmated, %d stalemated; %d mismatches",
		a.positions, a.enPassant, a.byWDL[4], a.byWDL[3], a.byWDL[2], a.byWDL[1], a.byWDL[0],
		a.exact, a.rounded, a.checkmated, a.stalemated, a.mismatches)
}

// chimeraWDL50 is the five-valued outcome Chimera's result and distance
// to zeroing give under the fifty-move rule, and its DTZ written as
// Syzygy writes it (−1 for a checkmated side, mated).
func chimeraWDL50(table *tablebase.Table, pos *engine.Position, mated bool, r tablebase.Result, dtz int) (syzygy.WDL, int) {
	switch {
	case r.WDL == 0:
		return syzygy.Draw, dtz
	case r.WDL < 0 && mated:
		return syzygy.Loss, -1 // Chimera's DTZ is 0
	case r.WDL > 0 && table.InTime(pos, dtz):
		return syzygy.Win, dtz
	case r.WDL > 0:
		return syzygy.CursedWin, dtz
	case table.InTime(pos, dtz):
		return syzygy.Loss, dtz
	}
	return syzygy.BlessedLoss, dtz
}

// compare probes pos through both tables and counts the comparison; an
// error is a probe's. pos is the caller's alone: Syzygy's probes make and
// unmake moves on it.
func (s *agreeSetup) compare(tb *syzygy.Tables, pos *engine.Position, tally *agreeTally) error {
	r, err := s.table.Probe(pos)
	if err != nil {
		return fmt.Errorf("chimera %s: %w", pos.FEN(), err)
	}
	cdtz, err := s.table.ProbeDTZ(pos)
	if err != nil {
		return fmt.Errorf("chimera DTZ %s: %w", pos.FEN(), err)
	}
	swdl, err := tb.ProbeWDL(pos)
	if err != nil {
		return fmt.Errorf("syzygy %s: %w", pos.FEN(), err)
	}
	sdtz, err := tb.ProbeDTZ(pos)
	if err != nil {
		return fmt.Errorf("syzygy DTZ %s: %w", pos.FEN(), err)
	}
	tally.positions++
	if pos.EnPassant() != engine.NoSquare {
		tally.enPassant++
	}
	if swdl >= syzygy.Loss && swdl <= syzygy.Win {
		tally.byWDL[swdl-syzygy.Loss]++
	}
	noMove := !pos.HasLegalMove()
	mated := noMove && pos.InCheck()
	wdl, dtz := chimeraWDL50(s.table, pos, mated, r, cdtz)
	ok := wdl == swdl
	switch {
	case !ok:
	case mated:
		ok = r == tablebase.Result{WDL: -1} && cdtz == 0 && sdtz == -1
		tally.checkmated++
	case noMove:
		ok = r == tablebase.Result{} && cdtz == 0 && sdtz == 0
		tally.stalemated++
	case dtz == sdtz:
		tally.exact++
	case sdtz > 0 && dtz == sdtz+1, sdtz < 0 && dtz == sdtz-1:
		tally.rounded++
	default:
		ok = false
	}
	if !ok {
		tally.mismatches++
		if len(tally.examples) < 20 {
			tally.examples = append(tally.examples, fmt.Sprintf("%s: Syzygy %v DTZ %d; Chimera %v (%s) DTZ %d",
				pos.FEN(), swdl, sdtz, wdl, r, cdtz))
		}
	}
	return nil
}

// Orientations: the symmetries under which both tables' values stay the
// same, as bits applied to a placement in this order: transpose (files
// for ranks), mirror the files, mirror the ranks, and swap the colours
// (which mirrors the ranks and passes the move to the other side: the
// same position seen from the other side). Pawns allow only the files'
// mirror and the colours' swap; castling rights, which would break them
// all, are never set.
const (
	orientTranspose   = 1 << iota
	orientMirrorFiles = 1 << iota
	orientMirrorRanks = 1 << iota
	orientSwapColours = 1 << iota
)

// orientation returns the k-th of the setup's orientations, in turn: the
// probes go through every symmetry both readers apply.
func (s *agreeSetup) orientation(k int) int {
	if s.pawns {
		return []int{0, orientMirrorFiles, orientSwapColours, orientMirrorFiles | orientSwapColours}[k%4]
	}
	return k % 16
}

// place sets up the pieces on the squares (square i for s.pieces[i]) in
// orientation o. It returns nil for a placement no legal position has.
func (s *agreeSetup) place(squares []engine.Square, stm engine.Colour, o int) *engine.Position {
	var buf [tablebase.MaxPieces]engine.Placement
	placed := buf[:len(squares)]
	for i, sq := range squares {
		pc, file, rank := s.pieces[i], sq.File(), sq.Rank()
		if o&orientTranspose != 0 {
			file, rank = rank, file
		}
		if o&orientMirrorFiles != 0 {
			file = 7 - file
		}
		if o&orientMirrorRanks != 0 {
			rank = 7 - rank
		}
		if o&orientSwapColours != 0 {
			pc, rank = engine.MakePiece(pc.Type(), pc.Colour().Other()), 7-rank
		}
		if s.v.IsPawn(pc) && (rank == 0 || rank == 7) {
			return nil // SetUp would refuse it, more slowly
		}
		placed[i] = engine.Placement{Square: engine.SquareAt(file, rank), Piece: pc}
	}
	if o&orientSwapColours != 0 {
		stm = stm.Other()
	}
	pos, err := s.v.SetUp(placed, stm)
	if err != nil {
		return nil // the side not to move in check
	}
	return pos
}

// agreeSample compares n random placements of the setup's pieces, each
// with both sides to move, the orientations in turn.
func agreeSample(t *testing.T, tb *syzygy.Tables, s agreeSetup, n int, seed uint64) agreeTally {
	rng := rand.New(rand.NewPCG(seed, 55))
	var tally agreeTally
	squares := make([]engine.Square, len(s.pieces))
	for k := range n {
		for i := range squares {
			for {
				sq := rng.IntN(64)
				squares[i] = engine.SquareAt(sq%8, sq/8)
				if !slices.Contains(squares[:i], squares[i]) {
					break
				}
			}
		}
		for stm := engine.White; stm <= engine.Black; stm++ {
			if pos := s.place(squares, stm, s.orientation(k)); pos != nil {
				require.NoError(t, s.compare(tb, pos, &tally))
			}
		}
	}
	return tally
}

// agreeQuick is the materials the normal suite compares: every one of
// three pieces and the four-piece ones whose tables Chimera generates in
// about a second or less each, with KNvKP for a pawn against a piece
// (its promotions' tables included, about four seconds) and KBNvK for
// the long distances Syzygy rounds. The others take 1–7 s each (with a
// queen or a rook beside a second piece, or a pawn: KPvKP needs every
// other pawn table first): the long test compares them.
var agreeQuick = []string{
	"KBvK", "KNvK", "KPvK", "KQvK", "KRvK",
	"KBNvK", "KBvKB", "KBvKN", "KNNvK", "KNvKN", "KNvKP", "KQvKN", "KQvKQ", "KRvKB", "KRvKN",
}

// TestAgreesWithChimera compares, for the materials of agreeQuick, 400
// random placements of each, both sides to move, through the reader and
// through Chimera's own generated tables (the rules at the top of this
// file): about ten seconds, most of it generating Chimera's tables. The
// long test (agree_long_test.go) compares every position of every
// material in testdata/regular.
func TestAgreesWithChimera(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	names, n := agreeQuick, 400
	if raceEnabled || testing.Short() {
		names, n = names[:5], 100
	}
	have := agreeMaterials(t)
	var total agreeTally
	for i, name := range names {
		require.Contains(t, have, name, "a material with no Syzygy files")
		start := time.Now()
		s := newAgreeSetup(t, name)
		generated := time.Since(start)
		tally := agreeSample(t, tb, s, n, uint64(i))
		t.Logf("%s: %v (generated in %v, compared in %v)", name, &tally, generated.Round(time.Millisecond),
			(time.Since(start) - generated).Round(time.Millisecond))
		for _, e := range tally.examples {
			t.Errorf("%s: %s", name, e)
		}
		total.add(tally)
	}
	t.Logf("all: %v", &total)
	require.Zero(t, total.mismatches)
}

// TestAgreeConventions pins, position by position, the conventions the
// comparison relies on (the top of this file): the checkmated side,
// stalemate, and a best move that zeroes (mate, a capture, a promotion,
// a loser with nothing but pawn moves), in both tables.
func TestAgreeConventions(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	v := agreeTables.Variant(t)
	for _, c := range []struct {
		fen, what  string
		chimera    tablebase.Result
		chimeraDTZ int
		wdl        syzygy.WDL
		dtz        int
	}{
		{"k6Q/8/1K6/8/8/8/8/8 b - - 0 1", "checkmated", tablebase.Result{WDL: -1, DTM: 0}, 0, syzygy.Loss, -1},
		{"k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "stalemated", tablebase.Result{}, 0, syzygy.Draw, 0},
		{"k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "mate in one: Qh8#", tablebase.Result{WDL: 1, DTM: 1}, 1, syzygy.Win, 1},
		{"4k3/8/8/8/8/8/1b6/1R2K3 w - - 0 1", "Rxb2 wins", tablebase.Result{WDL: 1, DTM: 29}, 1, syzygy.Win, 1},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=Q wins", tablebase.Result{WDL: 1, DTM: 13}, 1, syzygy.Win, 1},
		{"8/4P3/8/8/8/8/k7/4K3 b - - 0 1", "a king move, then e8=Q", tablebase.Result{WDL: -1, DTM: -14}, -2, syzygy.Loss, -2},
		{"8/8/8/8/8/8/k3p3/2K5 b - - 0 1", "e1=Q wins, Black's pawn", tablebase.Result{WDL: 1, DTM: 11}, 1, syzygy.Win, 1},
		{"8/8/8/8/1N6/p7/8/k1K5 b - - 0 1", "only a2, then Nc2#", tablebase.Result{WDL: -1, DTM: -2}, -1, syzygy.Loss, -1},
	} {
		pos, err := v.ParseFEN(c.fen)
		require.NoError(t, err)
		if (raceEnabled || testing.Short()) && pos.PieceCount() > 3 {
			continue // TestAgreesWithChimera has generated only the three-piece tables
		}
		m, err := tablebase.TableMaterial(pos)
		require.NoError(t, err)
		table := agreeTables.Get(t, m.String())
		r, err := table.Probe(pos)
		require.NoError(t, err, c.fen)
		dtz, err := table.ProbeDTZ(pos)
		require.NoError(t, err, c.fen)
		require.Equal(t, c.chimera, r, "%s (%s): Chimera's value", c.fen, c.what)
		require.Equal(t, c.chimeraDTZ, dtz, "%s (%s): Chimera's DTZ", c.fen, c.what)
		wdl, err := tb.ProbeWDL(pos)
		require.NoError(t, err, c.fen)
		sdtz, err := tb.ProbeDTZ(pos)
		require.NoError(t, err, c.fen)
		require.Equal(t, c.wdl, wdl, "%s (%s): Syzygy's WDL", c.fen, c.what)
		require.Equal(t, c.dtz, sdtz, "%s (%s): Syzygy's DTZ", c.fen, c.what)
	}
}
