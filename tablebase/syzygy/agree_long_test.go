//go:build long

package syzygy_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/stretchr/testify/require"
)

// TestAgreesWithChimeraLong compares every position of every material in
// testdata/regular through the reader and through Chimera's own
// generated tables, by the rules at the top of agree_test.go, on every
// core; one subtest a material, each logging its figures:
//
//	go test -tags long -run Long -v -timeout 6h ./tablebase/syzygy/
//	go test -tags long -run Long/KQvKR -v ./tablebase/syzygy/
//
// Every position up to the symmetries that change neither table's values
// (the orientations of agree_test.go): White's king, the first piece,
// stands in the a1–d1–d4 triangle in the tables without pawns (every
// position is one of the board's eight symmetries away from one such)
// and on the files a–d in the tables with pawns (the mirror of the
// files); every other piece on every square (pawns on the second to
// seventh ranks), both sides to move; placements SetUp refuses (the side
// not to move in check) are skipped. Each position so placed is probed
// in one of its symmetric images, the orientations taken in turn, so
// that both readers' own symmetries (Syzygy's mirrored and
// colour-swapped look-ups, Chimera's canonical entries) are exercised.
// In KPvKP every position just after a double step that can be taken en
// passant is compared too, both colours making the step.
func TestAgreesWithChimeraLong(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	workers := runtime.GOMAXPROCS(0)
	var total agreeTally
	start := time.Now()
	for _, name := range agreeMaterials(t) {
		t.Run(name, func(t *testing.T) {
			begin := time.Now()
			s := newAgreeSetup(t, name)
			generated := time.Since(begin)
			tally, err := agreeParallel(workers, s.firstSquares(), func(first engine.Square, tally *agreeTally) error {
				return s.compareEvery(tb, first, tally)
			})
			require.NoError(t, err)
			if s.pawnAgainstPawn() {
				ep, err := agreeParallel(workers, s.enPassantSteps(), func(step engine.Square, tally *agreeTally) error {
					return s.compareEnPassant(tb, step, tally)
				})
				require.NoError(t, err)
				require.Positive(t, ep.enPassant, "no position with an en-passant right")
				tally.add(ep)
			}
			t.Logf("%s: %v; generated in %v, compared in %v", name, &tally, generated.Round(time.Millisecond),
				(time.Since(begin) - generated).Round(time.Millisecond))
			for _, e := range tally.examples {
				t.Errorf("%s: %s", name, e)
			}
			require.Positive(t, tally.positions)
			total.add(tally)
		})
	}
	t.Logf("all: %v; %v", &total, time.Since(start).Round(time.Second))
	require.Zero(t, total.mismatches)
}

// agreeParallel runs work on each job, on that many goroutines, each
// with a tally (and positions) of its own; it returns the tallies'
// sum and the first error.
func agreeParallel(workers int, jobs []engine.Square, work func(engine.Square, *agreeTally) error) (agreeTally, error) {
	next := make(chan engine.Square)
	tallies := make([]agreeTally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range next {
				if errs[w] == nil {
					errs[w] = work(job, &tallies[w])
				}
			}
		}()
	}
	for _, job := range jobs {
		next <- job
	}
	close(next)
	wg.Wait()
	var sum agreeTally
	for w := range workers {
		if errs[w] != nil {
			return sum, errs[w]
		}
		sum.add(tallies[w])
	}
	return sum, nil
}

// firstSquares is where White's king (s.pieces[0]) stands in the
// positions compared: the a1–d1–d4 triangle without pawns, the files a–d
// with them.
func (s *agreeSetup) firstSquares() []engine.Square {
	var squares []engine.Square
	for rank := range 8 {
		for file := range 4 {
			if s.pawns || rank <= file {
				squares = append(squares, engine.SquareAt(file, rank))
			}
		}
	}
	return squares
}

// compareEvery compares every placement with White's king on first, both
// sides to move, each in the next orientation.
func (s *agreeSetup) compareEvery(tb *syzygy.Tables, first engine.Square, tally *agreeTally) error {
	squares := make([]engine.Square, len(s.pieces))
	squares[0] = first
	k := 0
	var place func(i int) error
	place = func(i int) error {
		if i == len(squares) {
			for stm := engine.White; stm <= engine.Black; stm++ {
				pos := s.place(squares, stm, s.orientation(k))
				k++
				if pos == nil {
					continue
				}
				if err := s.compare(tb, pos, tally); err != nil {
					return err
				}
			}
			return nil
		}
		pawn := s.v.IsPawn(s.pieces[i])
		for sq := range 64 {
			squares[i] = engine.SquareAt(sq%8, sq/8)
			if slices.Contains(squares[:i], squares[i]) || pawn && (sq < 8 || sq >= 56) {
				continue
			}
			if err := place(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return place(1)
}

// pawnAgainstPawn reports whether each side has a pawn: the tables where
// a position may hold an en-passant right.
func (s *agreeSetup) pawnAgainstPawn() bool {
	var pawns [2]int
	for _, pc := range s.pieces {
		if s.v.IsPawn(pc) {
			pawns[pc.Colour()]++
		}
	}
	return pawns[engine.White] > 0 && pawns[engine.Black] > 0
}

// enPassantSteps is the squares a White pawn's double step ends on.
func (s *agreeSetup) enPassantSteps() []engine.Square {
	var squares []engine.Square
	for file := range 8 {
		squares = append(squares, engine.SquareAt(file, 3))
	}
	return squares
}

// compareEnPassant compares every position, Black to move, just after
// White's pawn stepped from two squares below step to step, with Black's
// pawn beside it (on either side) and the kings anywhere else; and each
// such position seen from the other side (Black's double step, White to
// move). The setup must hold one pawn a side.
func (s *agreeSetup) compareEnPassant(tb *syzygy.Tables, step engine.Square, tally *agreeTally) error {
	var wp, bp []int // slots
	var kings []int
	for i, pc := range s.pieces {
		switch {
		case !s.v.IsPawn(pc):
			kings = append(kings, i)
		case pc.Colour() == engine.White:
			wp = append(wp, i)
		default:
			bp = append(bp, i)
		}
	}
	if len(wp) != 1 || len(bp) != 1 || len(kings) != 2 {
		return fmt.Errorf("%s: en passant is compared with kings and one pawn a side", s.name)
	}
	from := engine.SquareAt(step.File(), 1)
	passed := engine.SquareAt(step.File(), 2)
	squares := make([]engine.Square, len(s.pieces))
	for _, side := range []int{-1, 1} {
		if f := step.File() + side; f < 0 || f > 7 {
			continue
		}
		squares[wp[0]], squares[bp[0]] = step, engine.SquareAt(step.File()+side, 3)
		taken := func(k engine.Square) bool { return k == step || k == squares[bp[0]] || k == from || k == passed }
		for a := range 64 {
			for b := range 64 {
				ka, kb := engine.SquareAt(a%8, a/8), engine.SquareAt(b%8, b/8)
				if a == b || taken(ka) || taken(kb) {
					continue
				}
				squares[kings[0]], squares[kings[1]] = ka, kb
				pos := s.place(squares, engine.Black, 0)
				if pos == nil {
					continue // White in check
				}
				fields := strings.Fields(pos.FEN())
				fields[3] = passed.String()
				for _, fen := range []string{strings.Join(fields, " "), mirrorFEN(strings.Join(fields, " "))} {
					p, err := s.v.ParseFEN(fen)
					if err != nil {
						return fmt.Errorf("%s: %w", fen, err)
					}
					if p.EnPassant() == engine.NoSquare {
						return fmt.Errorf("%s: no en-passant right", fen)
					}
					if err := s.compare(tb, p, tally); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// mirrorFEN swaps a FEN's colours and mirrors its ranks (the board, the
// side to move, the en-passant square): the same position seen from the
// other side. Castling rights are left as they are (none here).
func mirrorFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	slices.Reverse(ranks)
	board := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, strings.Join(ranks, "/"))
	f[0], f[1] = board, map[string]string{"w": "b", "b": "w"}[f[1]]
	if ep := f[3]; ep != "-" {
		f[3] = ep[:1] + string(rune('1'+'8'-ep[1]))
	}
	return strings.Join(f, " ")
}
