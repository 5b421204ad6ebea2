package tablebase

import (
	"fmt"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// HasDTZ reports whether a variant's tables hold distances to zeroing: it
// has an n-move rule, of fewer than 127 moves (a byte holds the distance
// and the rule's limit). Makruk's counting rules are refused by the
// generator.
func HasDTZ(v *engine.Variant) bool { return v.MoveRule > 0 && RuleLimit(v) < layout.MaxDTZ }

// RuleLimit is a variant's n-move rule in plies (100 in chess), 0 without
// one.
func RuleLimit(v *engine.Variant) int { return 2 * v.MoveRule }

// dtzByMoves is the distance to zeroing of a position with an en-passant
// capture, which no table holds: one ply over its moves, each position
// after a move valued by its table, a move that zeroes the count as a
// terminal, as the walk counts them.
func (t *Table) dtzByMoves(p *engine.Position) (int, error) {
	return t.DTZOverMoves(p, t.subtables)
}

// DTZOverMoves is the distance to zeroing one ply of search gives: each
// move's position valued by t (a position with an en-passant capture
// through its own moves) or the table tables supplies.
func (t *Table) DTZOverMoves(p *engine.Position, tables Tables) (int, error) {
	limit := RuleLimit(t.Variant)
	var ply zeroingPly
	for _, m := range p.LegalMoves(nil) {
		p.Make(m)
		zeroing := p.HalfmoveClock() == 0
		o, err := t.outcomeAfter(p, tables)
		p.Unmake()
		if err != nil {
			return 0, err
		}
		ply.add(o, zeroing, limit)
	}
	return ply.dtz(), nil
}

// zeroingPly sums up one ply of search for a distance to zeroing, as the
// walk counts it: each move's outcome (for the opponent), a move that
// zeroes the count a terminal.
type zeroingPly struct {
	z                   layout.Terminal
	quietWin, quietLoss int
	quietDraw           bool
	moves               int
}

// add counts a move into a position of outcome o for its side to move.
func (s *zeroingPly) add(o layout.Outcome, zeroing bool, limit int) {
	s.moves++
	switch {
	case zeroing:
		s.z.Add(o, limit)
	case o.WDL < 0:
		if s.quietWin == 0 || o.D+1 < s.quietWin {
			s.quietWin = o.D + 1
		}
	case o.WDL > 0:
		s.quietLoss = max(s.quietLoss, o.D+1)
	default:
		s.quietDraw = true
	}
}

// dtz is the signed distance to zeroing the moves added give.
func (s *zeroingPly) dtz() int {
	switch {
	case s.moves == 0:
		return 0 // checkmated or stalemated
	case s.z.ZWin > 0 || s.quietWin > 0:
		if s.z.ZWin == 0 || (s.quietWin > 0 && s.quietWin < s.z.ZWin) {
			return s.quietWin
		}
		return s.z.ZWin
	case s.z.Draw || s.quietDraw:
		return 0
	}
	return -max(s.z.ZLoss, s.quietLoss)
}

// outcomeAfter is the outcome of the position after a move, for its side
// to move: by this table or the one tables supplies; bare royal pieces
// draw.
func (t *Table) outcomeAfter(p *engine.Position, tables Tables) (layout.Outcome, error) {
	if p.PieceCount() <= 2 {
		return layout.Outcome{}, nil
	}
	tbl := t
	if !t.Covers(p) {
		var err error
		if tbl, err = tables(p); err != nil {
			return layout.Outcome{}, err
		}
		if !tbl.Covers(p) {
			return layout.Outcome{}, fmt.Errorf("%s does not cover %s", tbl.Material, p.FEN())
		}
	}
	if tbl.HasDTZ() && p.EnPassant() == engine.NoSquare {
		// Both values from one lookup of the entry, where Probe and
		// ProbeDTZ would each find it again: the verifier asks this of
		// every move of every entry.
		v, dtz, err := tbl.at(p)
		if err != nil {
			return layout.Outcome{}, err
		}
		o := layout.Outcome{WDL: Decode(v).WDL}
		if o.WDL != 0 {
			o.D = int(dtz)
		}
		return o, nil
	}
	r, err := tbl.Probe(p)
	if err != nil {
		return layout.Outcome{}, err
	}
	d, err := tbl.ProbeDTZ(p)
	if err != nil {
		return layout.Outcome{}, err
	}
	return layout.Outcome{WDL: r.WDL, D: max(d, -d)}, nil
}

// moverDTZ is the distance to zeroing, for the side that moved, of a move
// into a position of outcome o (for the side to move there): the move is
// a terminal when it zeroes, else one ply more than that position's.
func moverDTZ(o layout.Outcome, zeroing bool, limit int) int {
	d := o.D + 1
	if zeroing {
		d = 1
		if o.D > limit {
			d = limit + 1
		}
	}
	return -o.WDL * d
}
