package session

import (
	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/wdl"
)

// winChances adds the side to move's chances of a win, a draw and a loss
// to a search's reports (UCI_ShowWDL): exact when the root's table
// answers, else from the variant's win-rate model at the root's material.
type winChances struct {
	model    wdl.Model
	material float64
	root     *engine.Position
	prober   search.Prober
	// results answers from tables without distances to mate (Syzygy's).
	results search.ResultProber
	// exact holds the table's chances once probe found them.
	exact *[3]int
}

// newWinChances prepares the chances of a search of root; prober and
// results (nil: none) answer from the tables.
func newWinChances(root *engine.Position, prober search.Prober, results search.ResultProber) *winChances {
	v := root.Variant()
	md, _ := wdl.Shipped(v)
	return &winChances{model: md, material: wdl.Material(root, wdl.StartPieces(v)), root: root, prober: prober, results: results}
}

// probe asks the tables about the root, once, before the search starts.
func (c *winChances) probe() {
	if c.prober != nil {
		if result, _, _, ok := c.prober.Probe(c.root, true); ok {
			exact := certain(result)
			c.exact = &exact
			return
		}
	}
	if c.results != nil {
		if result, ok := c.results.ProbeResult(c.root, search.MaxPly); ok {
			exact := certain(result)
			c.exact = &exact
		}
	}
}

// certain returns the chances of a known result for the side to move (1
// won, 0 drawn, −1 lost).
func certain(result int) [3]int {
	switch {
	case result > 0:
		return [3]int{1000, 0, 0}
	case result < 0:
		return [3]int{0, 0, 1000}
	}
	return [3]int{0, 1000, 0}
}

// report returns send with each line's chances added.
func (c *winChances) report(send func(search.Info)) func(search.Info) {
	return func(info search.Info) {
		if info.CurrMove != engine.NoMove {
			send(info) // a progress line has no score
			return
		}
		switch {
		case info.Score.IsDecisive() && info.Score > 0: // a mate or a table's win
			info.WDL = certain(1)
		case info.Score.IsDecisive():
			info.WDL = certain(-1)
		case c.exact != nil && info.MultiPV <= 1:
			info.WDL = *c.exact // the best line: the table's result
		default:
			w, d, l := c.model.PerMille(int(info.Score), c.material)
			info.WDL = [3]int{w, d, l}
		}
		send(info)
	}
}

// ProbeTable answers pos from the tables the search probes, as the root
// of a search would be: the result for the side to move (1, 0, −1), the
// signed plies to mate and the best move; ok is false when no table
// covers pos (or tables are off).
func (s *Session) ProbeTable(pos *engine.Position) (result, dtm int, best engine.Move, ok bool) {
	if s.prober == nil {
		return 0, 0, engine.NoMove, false
	}
	return s.prober.Probe(pos, true)
}
