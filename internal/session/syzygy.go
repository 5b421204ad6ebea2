package session

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
)

// The Syzygy options, as Stockfish and Fairy-Stockfish name them and with
// their meanings: SyzygyPath lists directories of chess's Syzygy tables
// (separated as the system separates a PATH: ':', ';' on Windows),
// SyzygyProbeLimit the most pieces probed, SyzygyProbeDepth the depth
// left below which the tree does not probe positions of exactly that
// many pieces, Syzygy50MoveRule whether a win the fifty-move rule draws
// (a cursed win) counts as a draw.
const (
	defaultSyzygyLimit = 7
	defaultSyzygyDepth = 1
	// emptyPath is how UCI writes an empty string option's default.
	emptyPath = "<empty>"
)

// syzygyProber answers chess positions from Syzygy's tables for the
// search (search.ResultProber): inside the tree the result only, at the
// root the move perfect play makes by the distance to zeroing.
type syzygyProber struct {
	tables *syzygy.Tables
	// limit is SyzygyProbeLimit capped at the largest table found; depth
	// SyzygyProbeDepth; rule50 Syzygy50MoveRule.
	limit, depth int
	rule50       bool
	// report tells the GUI why a root position the tables should hold
	// could not be answered (a damaged file); reported holds what it was
	// told (ProbeRoot runs at the root only, one search at a time).
	report   func(string)
	reported map[string]bool
}

// ProbeResult implements search.ResultProber.
func (z *syzygyProber) ProbeResult(p *engine.Position, depth int) (int, bool) {
	n := p.PieceCount()
	if n > z.limit || (n == z.limit && depth < z.depth) || p.CastlingRights() != 0 {
		return 0, false
	}
	// A table's result counts the fifty-move rule from a zeroed counter:
	// under the rule it holds only where the counter is at zero.
	if z.rule50 && p.HalfmoveClock() != 0 {
		return 0, false
	}
	w, err := z.tables.ProbeWDL(p)
	if err != nil {
		return 0, false
	}
	return w.Result(z.rule50), true
}

// ProbeRoot implements search.ResultProber: every move valued by the
// tables (syzygy.MoveValues) and perfect play's choice (syzygy.Choose).
func (z *syzygyProber) ProbeRoot(p *engine.Position) (wdl int, best engine.Move, keep []engine.Move, ok bool) {
	if p.PieceCount() > z.limit || p.CastlingRights() != 0 {
		return 0, engine.NoMove, nil, false
	}
	values, err := z.tables.MoveValues(p)
	if err != nil {
		if !errors.Is(err, syzygy.ErrMissing) && !errors.Is(err, syzygy.ErrNotChess) && z.report != nil && !z.reported[err.Error()] {
			z.reported[err.Error()] = true // once, not at every move of a game
			z.report(err.Error())
		}
		return 0, engine.NoMove, nil, false
	}
	if len(values) == 0 {
		return 0, engine.NoMove, nil, false // the game is over: the search says how
	}
	outcome, best, keep := syzygy.Choose(values, p.HalfmoveClock(), z.rule50)
	return outcome.Result(z.rule50), best, keep, true
}

// checkedProber is the engine's own tables' prober with Syzygy's beside
// it: where both answer a root position they must agree, and a
// disagreement is reported (the own tables', which know the distance to
// mate, are played).
type checkedProber struct {
	own    search.Prober
	syzygy *syzygyProber
	// fiftyMove is TablebaseFiftyMove: the own tables' answers honour
	// the move rule as Syzygy50MoveRule's do when both are on.
	fiftyMove bool
	report    func(string)
}

// Probe implements search.Prober.
func (c *checkedProber) Probe(p *engine.Position, root bool) (wdl, dtm int, best engine.Move, ok bool) {
	wdl, dtm, best, ok = c.own.Probe(p, root)
	if !ok || !root || p.HalfmoveClock() != 0 || p.CastlingRights() != 0 || p.PieceCount() > c.syzygy.limit {
		return wdl, dtm, best, ok
	}
	w, err := c.syzygy.tables.ProbeWDL(p)
	if err != nil {
		return wdl, dtm, best, ok
	}
	if theirs := w.Result(c.fiftyMove); theirs != wdl && c.report != nil {
		c.report(fmt.Sprintf("tablebase disagreement at %s: Chimera's table says %s, Syzygy's %s; playing Chimera's",
			p.FEN(), resultWord(wdl), w))
	}
	return wdl, dtm, best, ok
}

// resultWord names a result for the side to move.
func resultWord(wdl int) string {
	switch {
	case wdl > 0:
		return "win"
	case wdl < 0:
		return "loss"
	}
	return "draw"
}

// syzygyDirs splits SyzygyPath's value into its directories ("" and
// "<empty>": none).
func syzygyDirs(path string) []string {
	if path == "" || path == emptyPath {
		return nil
	}
	var dirs []string
	for _, d := range filepath.SplitList(path) {
		if d = strings.TrimSpace(d); d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// openSyzygy opens the tables of SyzygyPath's directories; none is nil.
func openSyzygy(path string) (*syzygy.Tables, error) {
	dirs := syzygyDirs(path)
	if len(dirs) == 0 {
		return nil, nil
	}
	return syzygy.Open(dirs...)
}

// setSyzygy installs the Syzygy tables and options for the search, and
// the own tables' prober checked against them.
func (s *Session) setSyzygy() {
	switch {
	case s.syzygyTables == nil || s.values.syzygyLimit == 0:
		s.syzygy = nil
	default:
		s.syzygy = &syzygyProber{
			tables:   s.syzygyTables,
			limit:    min(s.values.syzygyLimit, s.syzygyTables.MaxPieces()),
			depth:    s.values.syzygyDepth,
			rule50:   s.values.syzygyRule50,
			report:   s.cfg.OnMessage,
			reported: map[string]bool{},
		}
	}
	s.installProbers()
}

// resultProber returns the Syzygy prober as the search sees it (nil
// when off: a nil *syzygyProber is not a nil interface).
func (s *Session) resultProber() search.ResultProber {
	if s.syzygy == nil {
		return nil
	}
	return s.syzygy
}

// installProbers hands the search its probers: the own tables' (checked
// against Syzygy's where both are on) and Syzygy's.
func (s *Session) installProbers() {
	var own search.Prober
	if s.prober != nil {
		own = s.prober
		if s.syzygy != nil {
			own = &checkedProber{own: s.prober, syzygy: s.syzygy, fiftyMove: s.values.tablebaseFiftyMove, report: s.cfg.OnMessage}
		}
	}
	s.searcher.SetProber(own)
	s.searcher.SetResultProber(s.resultProber())
}

// setSyzygyPath opens SyzygyPath's tables. A directory that cannot be
// read is refused, and the tables before are kept.
func (s *Session) setSyzygyPath(v value) error {
	tables, err := openSyzygy(v.text)
	if err != nil {
		return fmt.Errorf("option SyzygyPath: %w; keeping %q", err, cmp.Or(s.values.syzygyPath, emptyPath))
	}
	if s.syzygyTables != nil {
		_ = s.syzygyTables.Close() // options change between searches only: nothing probes them
	}
	s.syzygyTables, s.values.syzygyPath = tables, v.text
	if tables != nil && s.cfg.OnMessage != nil {
		if tables.MaxPieces() == 0 {
			s.cfg.OnMessage(fmt.Sprintf("syzygy: no tables in %s", v.text))
		} else {
			s.cfg.OnMessage(fmt.Sprintf("syzygy: tables of up to %d pieces in %s", tables.MaxPieces(), v.text))
		}
	}
	s.setSyzygy()
	return nil
}
