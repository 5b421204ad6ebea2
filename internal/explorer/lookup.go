package explorer

import (
	"cmp"
	"errors"
	"slices"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// answer values a position and its moves from the tables at hand, as
// lichess does: each move by the position it leaves (its clock counted),
// the moves best first, and the position's category the opposite of what
// its best move leaves (so a position outside the tables, one with
// castling rights, is known from its moves). A missing table is asked for
// in the background (the answer says so) and the position is unknown
// meanwhile; admit is asked before a build is queued (nil: no build is
// asked for, as for a page rendered for a crawler).
func (s *Server) answer(p *engine.Position, admit func() bool) Answer {
	a := Answer{FEN: p.FEN(), Moves: []MoveAnswer{}}
	if s.cfg.Syzygy != nil {
		a.sources = append(a.sources, syzygySource)
	}
	clock := p.HalfmoveClock()
	var root *tablebase.Table
	var damage error // the first damaged table read, reported as a failed build
	a.Value, a.State, root, damage = s.value(p, max(clock-1, 0))
	if a.Category == categoryUnknown && damage == nil {
		a.Building = s.request(p, admit)
	}
	v := p.Variant()
	for _, m := range p.LegalMoves(nil) {
		ma := MoveAnswer{UCI: v.UCI(m), SAN: p.SAN(m)}
		if p.IsCapture(m) {
			ma.captured = capturedValue(p, m)
		}
		p.Make(m)
		var t *tablebase.Table
		var err error
		ma.Value, ma.State, t, err = s.value(p, clock)
		damage = cmp.Or(damage, err)
		a.read(t)
		ma.Zeroing = p.HalfmoveClock() == 0
		ma.FEN = p.FEN()
		p.Unmake()
		a.Moves = append(a.Moves, ma)
	}
	sortMoves(a.Moves)
	if root == nil && len(a.Moves) > 0 && a.Moves[0].Category != categoryUnknown {
		// The table may have come while the moves were valued (a build
		// just ended): the position's own distances then come with it.
		if val, st, table, _ := s.value(p, max(clock-1, 0)); table != nil {
			a.Value, a.State, root, a.Building = val, st, table, nil
		}
	}
	if root != nil {
		name := root.Material.String()
		a.Table = &name
		a.read(root)
	}
	if len(a.Moves) > 0 {
		a.Category = Opposite(a.Moves[0].Category)
	}
	if damage != nil {
		// A server never rebuilds its files: it says what is wrong.
		a.Building = &Build{Variant: v.Name, State: buildFailed, Error: damage.Error()}
	}
	a.complete = a.Category != categoryUnknown
	for _, m := range a.Moves {
		a.complete = a.complete && m.Category != categoryUnknown
	}
	return a
}

// read notes a table the answer was read from (nil: none).
func (a *Answer) read(t *tablebase.Table) {
	if t != nil && !slices.Contains(a.sources, t.Checksum()) {
		a.sources = append(a.sources, t.Checksum())
	}
}

// capturedValue is the value of the piece a capture takes.
func capturedValue(p *engine.Position, m engine.Move) int {
	if pc := p.At(m.To()); pc != engine.NoPiece {
		return p.Variant().PieceType(pc).Value
	}
	return 0 // en passant and the like: a pawn's worth is the least
}

// value is a position's value and state: by the rules when the game is
// over, else by its table when one is at hand (whose material it also
// returns), and unknown otherwise — never a draw by the piece count but
// where the variant's rules make it one. before is the half-move clock
// before the move that led here. A table whose file is damaged where the
// position is read answers unknown, and the error says so.
func (s *Server) value(p *engine.Position, before int) (Value, State, *tablebase.Table, error) {
	st, over, val := stateOf(p, before)
	if over {
		return val, st, nil, nil
	}
	t, ok := s.table(p)
	if !ok {
		if val, ok, err := s.syzygyValue(p, before); ok || err != nil {
			return val, st, nil, err
		}
		return Value{Category: categoryUnknown}, st, nil, nil
	}
	r, dtz, hasDTZ, err := t.ProbeWithDTZ(p)
	if err != nil {
		if !errors.Is(err, tablebase.ErrCorrupt) {
			err = nil
		}
		return Value{Category: categoryUnknown}, st, nil, err
	}
	if hasDTZ && r.WDL < 0 && dtz == 0 {
		dtz = -1 // checkmated in a table's terms (the rules said so above)
	}
	val = fromTable(p.Variant(), r, dtz, hasDTZ, p.HalfmoveClock(), before)
	s.checkSyzygy(p, before, val)
	return val, st, t, nil
}

// table returns the table covering p from memory or file, if any: a
// request never waits for a generation.
func (s *Server) table(p *engine.Position) (*tablebase.Table, bool) {
	if p.PieceCount() <= 2 || s.cfg.Store == nil {
		return nil, false // bare royal pieces: the rules say what they are; or Syzygy's tables alone
	}
	t, err := s.cfg.Store.Find(p, tablebase.MemoryOrDisk)
	return t, err == nil
}

// request asks for the table of a position no table answers, when it is
// small enough to build on request (and the server builds at all).
func (s *Server) request(p *engine.Position, admit func() bool) *Build {
	if n := p.PieceCount(); n > s.cfg.BuildPieces || s.cfg.ReadOnly || admit == nil {
		return nil
	}
	m, err := tablebase.TableMaterial(p)
	if err != nil {
		return nil
	}
	return s.builds.want(p.Variant(), m, admit)
}
