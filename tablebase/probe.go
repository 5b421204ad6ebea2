package tablebase

import (
	"errors"
	"fmt"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/internal/layout"
)

// Result is a probe's answer for the side to move.
type Result struct {
	// WDL is 1 when the side to move wins, 0 for a draw, −1 when it loses.
	WDL int
	// DTM is signed plies to mate: +p when the side to move mates in p
	// plies, −p when it is mated in p, 0 for draws and checkmated
	// positions.
	DTM int
}

// String says the result in words a player reads: "mate in 17", "mated in
// 12", "draw", "checkmated".
func (r Result) String() string {
	switch {
	case r.WDL > 0:
		return fmt.Sprintf("win: mate in %d", (r.DTM+1)/2)
	case r.WDL < 0 && r.DTM == 0:
		return "loss: checkmated"
	case r.WDL < 0:
		return fmt.Sprintf("loss: mated in %d", -r.DTM/2)
	}
	return "draw"
}

// Decode turns an entry value into a Result.
func Decode(v byte) Result {
	if v == 0 || v == layout.NotPosition {
		return Result{}
	}
	plies := int(v) - 1
	if plies%2 == 1 {
		return Result{WDL: 1, DTM: plies}
	}
	return Result{WDL: -1, DTM: -plies}
}

// Covers reports whether the table answers the position: its material,
// either colour strong, and no castling rights left.
func (t *Table) Covers(p *engine.Position) bool {
	if p.Variant() != t.Variant || t.castlingLeft(p) {
		return false
	}
	// The pieces' key, as the store finds tables by: one look at the
	// board instead of both sides' letters sorted twice (a search of one
	// side's distances asks for every move).
	k, ok := positionKey(p)
	if !ok {
		return false
	}
	keys := t.materialKeys()
	return k == keys[0] || k == keys[1]
}

// materialKeys returns the keys (materialKey) of the table's pieces as
// they stand and with colours swapped, worked out once.
func (t *Table) materialKeys() [2]uint64 {
	t.keysOnce.Do(func() {
		t.keys = [2]uint64{materialKey(t.Geo.Pieces, false), materialKey(t.Geo.Pieces, true)}
	})
	return t.keys
}

func (t *Table) castlingLeft(p *engine.Position) bool { return p.CastlingRights() != 0 }

// Probe returns the value of a position the table covers.
func (t *Table) Probe(p *engine.Position) (Result, error) {
	if !t.Covers(p) {
		return Result{}, fmt.Errorf("%s does not cover %s", t.Material, p.FEN())
	}
	if p.EnPassant() != engine.NoSquare {
		return t.probeByMoves(p, t.subtables)
	}
	v, _, err := t.at(p)
	if err != nil {
		return Result{}, err
	}
	return Decode(v), nil
}

// at returns the value and the distance to zeroing (0 without them) of a
// covered position without an en-passant capture. A side whose
// distances are not stored is searched through the table's own smaller
// tables (subtables: its store's, read from disk when needed), whatever
// finder the caller holds: a caller's memory-only finder is for the
// position it asks about, not for the search behind it.
func (t *Table) at(p *engine.Position) (val, dtz byte, err error) {
	side, idx, ok := t.entry(p)
	if ok && t.dropped(side) {
		return t.searchDropped(p, side, idx)
	}
	if ok {
		val, dtz, err = t.valueDTZ(side, idx)
	}
	if err != nil {
		return 0, 0, err
	}
	if !ok || val == layout.NotPosition {
		return 0, 0, fmt.Errorf("%s is not a legal position", p.FEN())
	}
	return val, dtz, nil
}

// atCached is at for the search's tree: the entry when its block is in
// memory, else false (the block is then decoded in the background, for
// the probes after). No error: an entry not answered is a miss.
func (t *Table) atCached(p *engine.Position) (val, dtz byte, ok bool) {
	side, idx, ok := t.entry(p)
	if !ok {
		return 0, 0, false
	}
	switch {
	case t.packed == nil:
		val, dtz, _ = t.valueDTZ(side, idx)
	case t.packed.Dropped(side):
		// Only the outcome is stored: a draw is answered by it; a
		// decided position's distance needs a search of its moves, which
		// the tree does not wait for (its search goes on one ply).
		wdl, ok := t.packed.CachedOutcome(side, idx)
		return 0, 0, ok && wdl == 0
	default:
		if val, dtz, ok = t.packed.Cached(side, idx); !ok {
			return 0, 0, false
		}
	}
	return val, dtz, val != layout.NotPosition
}

// ErrNoDTZ marks a table without distances to zeroing: its variant has
// no move rule.
var ErrNoDTZ = errors.New("no distances to zeroing: the variant has no move rule shorter than 127 moves")

// ProbeDTZ returns a covered position's distance to zeroing: signed plies
// to the next move that zeroes the move-rule count, or to mate, under the
// rule (dtz.go), as Syzygy counts them — +d when the side to move wins,
// −d when it loses, 0 for draws and checkmated positions; beyond the
// rule's limit (100 plies in chess) the rule draws the game (a cursed win,
// a blessed loss).
func (t *Table) ProbeDTZ(p *engine.Position) (int, error) {
	if !t.HasDTZ() {
		return 0, fmt.Errorf("%s: %w", t.Material, ErrNoDTZ)
	}
	if !t.Covers(p) {
		return 0, fmt.Errorf("%s does not cover %s", t.Material, p.FEN())
	}
	if p.EnPassant() != engine.NoSquare {
		return t.dtzByMoves(p)
	}
	v, dtz, err := t.at(p)
	if err != nil {
		return 0, err
	}
	return Decode(v).WDL * int(dtz), nil
}

// ProbeWithDTZ is Probe and ProbeDTZ from one look-up of the entry: where
// the side's distances are not stored, one search of its moves instead of
// two. hasDTZ is false when the distance to zeroing is not known (a
// variant without a move rule, or ProbeDTZ's error after an en-passant
// double step); the value is good whenever err is nil.
func (t *Table) ProbeWithDTZ(p *engine.Position) (r Result, dtz int, hasDTZ bool, err error) {
	if !t.HasDTZ() || p.EnPassant() != engine.NoSquare || !t.Covers(p) {
		if r, err = t.Probe(p); err != nil || !t.HasDTZ() {
			return r, 0, false, err
		}
		dtz, err = t.ProbeDTZ(p)
		return r, dtz, err == nil, nil
	}
	v, z, err := t.at(p)
	if err != nil {
		return Result{}, 0, false, err
	}
	r = Decode(v)
	return r, r.WDL * int(z), true, nil
}

// probeByMoves values a position with an en-passant capture, which no
// table holds (the right lasts one move): one ply of search, each move's
// position valued by its table (tables supplies them; a missing one is an
// error: then the position cannot be valued).
func (t *Table) probeByMoves(p *engine.Position, tables Tables) (Result, error) {
	all, _, err := t.Moves(p, tables)
	if err != nil {
		return Result{}, err
	}
	return bestResult(p, all), nil
}

// bestResult is the value of a position whose moves are valued: the best
// of them, or checkmate or stalemate when there are none.
func bestResult(p *engine.Position, all []MoveValue) Result {
	if len(all) == 0 {
		if p.InCheck() {
			return Result{WDL: -1}
		}
		return Result{}
	}
	best := all[0].Result
	for _, mv := range all[1:] {
		if Better(mv.Result, best) {
			best = mv.Result
		}
	}
	return best
}

// subtables returns the table for a position reached by a move: t itself
// for the same material, else the one sub supplies.
func (t *Table) subtables(p *engine.Position) (*Table, error) {
	if t.Covers(p) {
		return t, nil
	}
	if t.find != nil {
		return t.find(p) // its store's, by a map look-up
	}
	if t.sub == nil {
		return nil, fmt.Errorf("%s: no tables after captures at hand: %w", p.FEN(), ErrNoTable)
	}
	m, err := TableMaterial(p)
	if err != nil {
		return nil, err
	}
	return t.sub(m)
}

// entry returns the side to move and the entry of a covered position
// without an en-passant capture; false when it does not fit the table.
func (t *Table) entry(p *engine.Position) (side, idx int, ok bool) {
	var pieces [MaxPieces]engine.Piece
	var squares [MaxPieces]int
	n := 0
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range p.Pieces(c) {
			if n == MaxPieces {
				return 0, 0, false
			}
			pieces[n], squares[n] = p.At(s), t.Geo.Compact[s]
			n++
		}
	}
	return t.EntryOf(pieces[:n], squares[:n], int(p.SideToMove()))
}

// MoveValue is a legal move with the result it leads to, for the side
// that makes it.
type MoveValue struct {
	Move   engine.Move
	Result Result
	// Zeroing: the move resets the move-rule count (a capture, a pawn
	// move, a promotion).
	Zeroing bool
	// DTZ, when HasDTZ, is the mover's distance to zeroing by this move,
	// counted as ProbeDTZ counts a position's: 1 (or the rule's limit+1,
	// into a blessed loss) for a zeroing move into a lost position, the
	// position's distance plus one after another move.
	DTZ    int
	HasDTZ bool
}

// Tables supplies the table of a position a move leads to (Store.Finder
// under some policy); an error says why there is none.
type Tables func(*engine.Position) (*Table, error)

// Moves returns every legal move of a covered position with its value for
// the mover, and the moves that keep the optimal distance: the fastest mate
// when winning, the longest resistance when losing, every drawing move when
// drawn. Captures into smaller tables are valued through the tables
// supplies (bare royal pieces are a draw without one); a position it has
// no table for is an error, never a guess.
func (t *Table) Moves(p *engine.Position, tables Tables) (all []MoveValue, best []engine.Move, err error) {
	for _, m := range p.LegalMoves(nil) {
		p.Make(m)
		mv := MoveValue{Move: m, Zeroing: p.HalfmoveClock() == 0}
		// One look-up for both metrics: where only one side's distances
		// are stored, each is a search.
		cr, o, err := t.childValue(p, tables)
		p.Unmake()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", t.Material, err)
		}
		mv.Result = moverResult(cr)
		if t.HasDTZ() {
			mv.DTZ, mv.HasDTZ = moverDTZ(o, mv.Zeroing, RuleLimit(t.Variant)), true
		}
		all = append(all, mv)
	}
	bestIdx := -1
	for i, mv := range all {
		if bestIdx < 0 || Better(mv.Result, all[bestIdx].Result) {
			bestIdx = i
		}
	}
	for _, mv := range all {
		if bestIdx >= 0 && mv.Result == all[bestIdx].Result {
			best = append(best, mv.Move)
		}
	}
	return all, best, nil
}

// Better orders results for the mover: win sooner, then draw, then lose
// later.
func Better(a, b Result) bool {
	if a.WDL != b.WDL {
		return a.WDL > b.WDL
	}
	switch a.WDL {
	case 1:
		return a.DTM < b.DTM
	case -1:
		return a.DTM < b.DTM // more negative: mated later
	}
	return false
}

// ValueAfter values the position after a move for the side that made it:
// by t itself (one ply further, through the moves, after a double step
// that can be taken en passant), a draw for bare royal pieces, else by the
// table tables supplies.
func (t *Table) ValueAfter(p *engine.Position, tables Tables) (Result, error) {
	var cr Result
	switch {
	case t.Covers(p) && p.EnPassant() == engine.NoSquare:
		v, _, err := t.at(p)
		if err != nil {
			return Result{}, fmt.Errorf("%s: %w", t.Material, err)
		}
		cr = Decode(v)
	case t.Covers(p):
		var err error
		if cr, err = t.probeByMoves(p, func(c *engine.Position) (*Table, error) {
			if t.Covers(c) {
				return t, nil
			}
			return tables(c)
		}); err != nil {
			return Result{}, err
		}
	case p.PieceCount() <= 2:
		return Result{}, nil // bare royal pieces: a draw
	default:
		child, err := tables(p)
		if err != nil {
			return Result{}, err
		}
		if cr, err = child.Probe(p); err != nil {
			return Result{}, err
		}
	}
	return moverResult(cr), nil
}

// moverResult is the value, for the side that moved, of a move into a
// position worth cr for its side to move.
func moverResult(cr Result) Result {
	switch {
	case cr.WDL < 0:
		return Result{WDL: 1, DTM: -cr.DTM + 1}
	case cr.WDL > 0:
		return Result{WDL: -1, DTM: -(cr.DTM + 1)}
	}
	return Result{}
}

// encode is Decode's inverse: a Result's entry value.
func encode(r Result) byte {
	if r.WDL == 0 {
		return 0
	}
	return byte(max(r.DTM, -r.DTM) + 1)
}
