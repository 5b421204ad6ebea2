package explorer

import (
	"errors"
	"fmt"
	"log"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
)

// syzygySource stands for Syzygy's tables among an answer's sources (its
// ETag): their files never change under a running server.
const syzygySource = 0x53797a796779 // "Syzygy"

// syzygyValue values p from Syzygy's tables, as lila-tablebase does: the
// category with the position's clock counted, dtz, and no dtm (Syzygy
// has none) or precise_dtz (a DTZ file may round a distance by a ply).
// ok is false where the tables do not hold p (another variant, castling
// rights, too many pieces, a missing file); a damaged file is the error.
func (s *Server) syzygyValue(p *engine.Position, before int) (val Value, ok bool, err error) {
	tables := s.cfg.Syzygy
	if tables == nil || p.PieceCount() > tables.MaxPieces() || p.CastlingRights() != 0 {
		return Value{}, false, nil
	}
	// The result without the rule: fromTable counts it with p's clock.
	w, err := tables.ProbeWDL(p)
	if err == nil {
		var dtz int
		if dtz, err = tables.ProbeDTZ(p); err == nil {
			val = fromTable(p.Variant(), tablebase.Result{WDL: w.Result(false)}, dtz, true, p.HalfmoveClock(), before)
			val.DTM, val.PreciseDTZ = nil, nil
			if val.Category == categoryDraw {
				val.PreciseDTZ = ptr(0) // a draw's is exact
			}
			return val, true, nil
		}
	}
	if errors.Is(err, syzygy.ErrCorrupt) {
		return Value{Category: categoryUnknown}, false, err
	}
	return Value{}, false, nil
}

// checkSyzygy compares the store's value of p with Syzygy's, where both
// hold it, and logs a disagreement: the store's answer is served (it has
// the distance to mate and exact distances to zeroing), never silently.
func (s *Server) checkSyzygy(p *engine.Position, before int, own Value) {
	theirs, ok, _ := s.syzygyValue(p, before)
	if !ok || theirs.Category == own.Category {
		return
	}
	say := s.cfg.Log
	if say == nil {
		say = func(line string) { log.Print(line) }
	}
	say(fmt.Sprintf("explorer: tablebase disagreement at %s: Chimera's table says %s, Syzygy's %s; serving Chimera's",
		p.FEN(), own.Category, theirs.Category))
}
