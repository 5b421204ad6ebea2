package gen

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Disagreement is a position whose stored value a one-ply search over its
// legal moves does not confirm.
type Disagreement struct {
	FEN      string
	Stored   tablebase.Result
	Searched tablebase.Result // the best over the moves, each valued by the tables
	// Illegal: the table marks the position as not one (or the other way
	// round).
	Illegal bool
	// DTZ: the distance to zeroing disagrees, StoredDTZ against
	// SearchedDTZ (the distances to mate agree).
	DTZ                    bool
	StoredDTZ, SearchedDTZ int
}

// String describes the disagreement for people.
func (d Disagreement) String() string {
	switch {
	case d.Illegal:
		return d.FEN + ": the table and the rules disagree on whether this is a legal position"
	case d.DTZ:
		return fmt.Sprintf("%s: stored distance to zeroing %d plies, one ply of search says %d", d.FEN, d.StoredDTZ, d.SearchedDTZ)
	}
	return fmt.Sprintf("%s: stored %s, one ply of search says %s", d.FEN, d.Stored, d.Searched)
}

// VerifyReport is what Verify found.
type VerifyReport struct {
	Checked       int // positions (entries and sides to move) checked
	Disagreements []Disagreement
	// More counts disagreements beyond those listed.
	More int
}

// maxListed bounds the disagreements a report lists.
const maxListed = 20

// Verify checks every entry of t against a one-ply minimax: the position
// is set up in the rules core, each legal move made there, and the
// position after it valued by t itself or, after a capture, by the table
// children supplies (bare royal pieces are a draw); the best of those
// values must be exactly the stored one. That is: every win has a move to
// a loss one ply shorter and none to a shorter one, no draw has a winning
// move, and every loss's moves all lead to wins no longer than it. The
// rules core's move generator is independent of the generator's own, so
// a table that passes is right whatever bug the generator might have.
// Where the table holds distances to zeroing, each is checked as
// strictly, by the same ply with the moves that zero the count as
// terminals.
// A table read from its file is decoded whole first (a damaged block is
// the error); its entries that are no position are not stored, so the
// check that the table and the rules agree on which entries are
// positions is a generated table's only.
// progress, when not nil, is told the fraction done.
func Verify(t *tablebase.Table, children tablebase.Tables, progress func(float64)) (VerifyReport, error) {
	return VerifySample(t, children, 1, progress)
}

// VerifySample is Verify over a share of the entries (0 < share ≤ 1),
// spread over the whole table: each entry is checked or not by a hash of
// its index, the same entries every run.
func VerifySample(t *tablebase.Table, children tablebase.Tables, share float64, progress func(float64)) (VerifyReport, error) {
	if !(share > 0 && share <= 1) {
		return VerifyReport{}, fmt.Errorf("verify: a share of the entries between 0 and 1, not %v", share)
	}
	// An entry is checked when its index's hash falls below the share of
	// the 53-bit range.
	below := uint64(share * (1 << 53))
	t, err := t.Dense()
	if err != nil {
		return VerifyReport{}, err
	}
	g := t.Geo
	const chunk = 4096
	var next, done atomic.Int64
	var mu sync.Mutex
	var rep VerifyReport
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var mine VerifyReport
			b := g.NewBoard()
			sq := make([]int, len(g.Pieces))
			var moves []engine.Move
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= g.Size {
					break
				}
				for idx := start; idx < min(start+chunk, g.Size); idx++ {
					if share < 1 && mix(uint64(idx))>>11 >= below {
						continue
					}
					g.Decode(idx, sq)
					if !g.IsCanonical(sq, idx) || !b.Place(sq) {
						continue
					}
					for stm := 0; stm < 2; stm++ {
						moves = verifyEntry(t, &mine, b, sq, idx, stm, children, moves)
					}
					b.Clear()
				}
				if d := done.Add(chunk); progress != nil && (d/chunk)%64 == 0 {
					progress(min(float64(d)/float64(g.Size), 1))
				}
			}
			mu.Lock()
			rep.Checked += mine.Checked
			rep.More += mine.More
			for _, d := range mine.Disagreements {
				rep.add(d)
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if progress != nil {
		progress(1)
	}
	return rep, nil
}

// verifyEntry checks one entry for one side to move (sq placed on b) and
// returns the move buffer for reuse.
func verifyEntry(t *tablebase.Table, rep *VerifyReport, b *layout.Board, sq []int, idx, stm int,
	children tablebase.Tables, moves []engine.Move) []engine.Move {
	stored := t.Val[stm][idx]
	legal := b.Legal(stm) && !t.Geo.Banned(sq)
	if !legal && (stored == layout.NotPosition || !t.MarksNonPositions()) {
		return moves
	}
	rep.Checked++
	p, err := t.Position(t.Variant, sq, stm)
	if (err == nil) != legal || (stored == layout.NotPosition) != !legal {
		fen := fmt.Sprint(sq)
		if p != nil {
			fen = p.FEN()
		}
		rep.add(Disagreement{FEN: fen, Illegal: true})
		return moves
	}
	moves = p.LegalMoves(moves[:0])
	var best tablebase.Result
	if len(moves) == 0 {
		if p.InCheck() {
			best = tablebase.Result{WDL: -1}
		}
	}
	for i, m := range moves {
		p.Make(m)
		r, err := t.ValueAfter(p, children)
		p.Unmake()
		if err != nil {
			rep.add(Disagreement{FEN: p.FEN() + " (no value after " + p.SAN(m) + ": " + err.Error() + ")", Stored: tablebase.Decode(stored)})
			return moves
		}
		if i == 0 || tablebase.Better(r, best) {
			best = r
		}
	}
	if best != tablebase.Decode(stored) {
		rep.add(Disagreement{FEN: p.FEN(), Stored: tablebase.Decode(stored), Searched: best})
		return moves
	}
	if t.HasDTZ() {
		// The distance to zeroing, as strictly: the same one ply, each
		// move that zeroes the count a terminal.
		want := tablebase.Decode(stored).WDL * int(t.DTZ[stm][idx])
		got, err := t.DTZOverMoves(p, children)
		switch {
		case err != nil:
			rep.add(Disagreement{FEN: p.FEN() + " (distance to zeroing: " + err.Error() + ")", Stored: tablebase.Decode(stored)})
		case got != want:
			rep.add(Disagreement{FEN: p.FEN(), Stored: tablebase.Decode(stored), Searched: best, DTZ: true, StoredDTZ: want, SearchedDTZ: got})
		}
	}
	return moves
}

func (r *VerifyReport) add(d Disagreement) {
	if len(r.Disagreements) < maxListed {
		r.Disagreements = append(r.Disagreements, d)
	} else {
		r.More++
	}
}

// mix is splitmix64's finaliser: a well-spread hash of an entry index.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
