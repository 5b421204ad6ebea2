package explorer

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
)

// Probe values a position and its moves from the store's tables, in
// memory or on disk, exactly as the API answers it, and builds nothing:
// for programs that answer positions without serving them (tb probe), so
// that they never disagree with the API (the fifty-move rule and the
// position's clock counted, a position with castling rights valued from
// its moves, bare kings drawn by the rules).
func Probe(store *tablebase.Store, p *engine.Position) Answer {
	return ProbeWith(store, nil, p)
}

// ProbeWith is Probe with Syzygy's tables (nil: none) beside the store's
// (nil: none), as a server with Config.Syzygy answers.
func ProbeWith(store *tablebase.Store, tables *syzygy.Tables, p *engine.Position) Answer {
	// answer reads only the store when it is given no admit: nothing is
	// requested, so no build queue is needed.
	s := &Server{cfg: Config{Store: store, Syzygy: tables}}
	return s.answer(p, nil)
}
