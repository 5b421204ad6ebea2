package explorer

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// answer values a position and its moves from the tables at hand. A
// missing table is asked for in the background (the answer says so) and
// the position is unknown meanwhile.
func (s *Server) answer(p *engine.Position) Answer {
	a := Answer{FEN: p.FEN(), Moves: []MoveAnswer{}}
	a.Value, a.State, a.Table = s.value(p)
	if a.Category == categoryUnknown {
		a.Building = s.request(p)
	}
	v := p.Variant()
	for _, m := range p.LegalMoves(nil) {
		ma := MoveAnswer{UCI: v.UCI(m), SAN: p.SAN(m)}
		p.Make(m)
		ma.Value, ma.State, _ = s.value(p)
		ma.Zeroing = p.HalfmoveClock() == 0
		ma.FEN = p.FEN()
		p.Unmake()
		a.Moves = append(a.Moves, ma)
	}
	sortMoves(a.Moves)
	return a
}

// value is a position's value and state: by the rules when the game is
// over, else by its table when one is at hand (whose material it also
// returns), a draw for bare royal pieces, and unknown otherwise.
func (s *Server) value(p *engine.Position) (Value, State, *string) {
	st, over, val := stateOf(p)
	switch {
	case over:
		return val, st, nil
	case p.PieceCount() <= 2:
		return Value{Category: categoryDraw}, st, nil // two royal pieces: no one can mate
	}
	t, ok := s.table(p)
	if !ok {
		return Value{Category: categoryUnknown}, st, nil
	}
	r, err := t.Probe(p)
	if err != nil {
		return Value{Category: categoryUnknown}, st, nil
	}
	name := t.Material.String()
	return fromResult(r), st, &name
}

// table returns the table covering p from memory or file, if any: a
// request never waits for a generation.
func (s *Server) table(p *engine.Position) (*tablebase.Table, bool) {
	t, err := s.cfg.Store.Find(p, tablebase.MemoryOrDisk)
	return t, err == nil
}

// request asks for the table of a position no table answers, when it is
// small enough to build on request.
func (s *Server) request(p *engine.Position) *Build {
	if n := p.PieceCount(); n > s.cfg.BuildPieces {
		return nil
	}
	m, err := tablebase.TableMaterial(p)
	if err != nil {
		return nil
	}
	return s.builds.want(p.Variant(), m)
}
