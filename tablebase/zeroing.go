package tablebase

import "github.com/chimera-chess/chimera/engine"

// HasDTZ reports whether a variant's tables hold distances to zeroing: it
// has an n-move rule, of fewer than 127 moves (a byte holds the distance
// and the rule's limit). Makruk's counting rules are refused by the
// generator.
func HasDTZ(v *engine.Variant) bool { return v.MoveRule > 0 && RuleLimit(v) < maxDTZ }

// RuleLimit is a variant's n-move rule in plies (100 in chess), 0 without
// one.
func RuleLimit(v *engine.Variant) int { return 2 * v.MoveRule }

// dtzByMoves is the distance to zeroing of a position with an en-passant
// capture, which no table holds: one ply over its moves, each position
// after a move valued by its table, a move that zeroes the count as a
// terminal, as the walk counts them.
func (t *Table) dtzByMoves(p *engine.Position) (int, error) {
	return t.dtzOverMoves(p, t.subtables)
}

// dtzOverMoves is the distance to zeroing one ply of search gives: each
// move's position valued by t (a position with an en-passant capture
// through its own moves) or the table tables supplies.
func (t *Table) dtzOverMoves(p *engine.Position, tables Tables) (int, error) {
	limit := RuleLimit(t.Variant)
	var z terminal
	quietWin, quietLoss, quietDraw := 0, 0, false
	moves := p.LegalMoves(nil)
	for _, m := range moves {
		p.Make(m)
		zeroing := p.HalfmoveClock() == 0
		o, err := t.outcomeAfter(p, tables)
		p.Unmake()
		if err != nil {
			return 0, err
		}
		switch {
		case zeroing:
			z.add(o, limit)
		case o.wdl < 0:
			if quietWin == 0 || o.d+1 < quietWin {
				quietWin = o.d + 1
			}
		case o.wdl > 0:
			quietLoss = max(quietLoss, o.d+1)
		default:
			quietDraw = true
		}
	}
	switch {
	case len(moves) == 0:
		return 0, nil // checkmated or stalemated
	case z.zwin > 0 || quietWin > 0:
		if z.zwin == 0 || (quietWin > 0 && quietWin < z.zwin) {
			return quietWin, nil
		}
		return z.zwin, nil
	case z.draw || quietDraw:
		return 0, nil
	}
	return -max(z.zloss, quietLoss), nil
}

// outcomeAfter is the outcome of the position after a move, for its side
// to move: by this table or the one tables supplies; bare royal pieces
// draw.
func (t *Table) outcomeAfter(p *engine.Position, tables Tables) (outcome, error) {
	if p.PieceCount() <= 2 {
		return outcome{}, nil
	}
	tbl := t
	if !t.Covers(p) {
		var err error
		if tbl, err = tables(p); err != nil {
			return outcome{}, err
		}
	}
	r, err := tbl.Probe(p)
	if err != nil {
		return outcome{}, err
	}
	d, err := tbl.ProbeDTZ(p)
	if err != nil {
		return outcome{}, err
	}
	return outcome{r.WDL, max(d, -d)}, nil
}

// moverDTZ is the distance to zeroing, for the side that moved, of a move
// into a position of outcome o (for the side to move there): the move is
// a terminal when it zeroes, else one ply more than that position's.
func moverDTZ(o outcome, zeroing bool, limit int) int {
	d := o.d + 1
	if zeroing {
		d = 1
		if o.d > limit {
			d = limit + 1
		}
	}
	return -o.wdl * d
}
