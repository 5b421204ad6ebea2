package explorer

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Mainline is the answer of /{variant}/mainline, in the shape of lichess's:
// the position's distance to zeroing, the line both sides play by the
// distances to zeroing (the winner zeroes as soon as it can, the loser as
// late), through each phase to the end of the game or until the move rule
// lets the game be claimed drawn, and the winner at its end.
type Mainline struct {
	DTZ        int    `json:"dtz"`
	PreciseDTZ *int   `json:"precise_dtz"`
	Mainline   []Step `json:"mainline"` // empty for a draw
	// Winner is "w", "b", or null for a draw.
	Winner *string `json:"winner"`
}

// Step is one move of a mainline and the distance to zeroing it leaves
// the other side.
type Step struct {
	UCI        string `json:"uci"`
	SAN        string `json:"san"`
	DTZ        int    `json:"dtz"`
	PreciseDTZ *int   `json:"precise_dtz"`
}

// maxMainline bounds a mainline's length: every phase of a line is within
// the move rule, and a table holds a few pieces.
const maxMainline = 2000

// mainline follows the distances to zeroing from p; false when the
// position is not a table's (or its variant has no move rule).
func (s *Server) mainline(p *engine.Position) (Mainline, bool) {
	val, _, _, _ := s.value(p, max(p.HalfmoveClock()-1, 0))
	if val.DTZ == nil || val.Category == categoryUnknown {
		return Mainline{}, false
	}
	out := Mainline{DTZ: *val.DTZ, PreciseDTZ: val.PreciseDTZ, Mainline: []Step{}}
	limit := tablebase.RuleLimit(p.Variant())
	for out.DTZ != 0 && p.HalfmoveClock() < limit && len(out.Mainline) < maxMainline {
		m, after, ok := s.dtzBest(p)
		if !ok {
			break
		}
		step := Step{UCI: p.Variant().UCI(m), SAN: p.SAN(m), DTZ: *after.DTZ, PreciseDTZ: after.PreciseDTZ}
		out.Mainline = append(out.Mainline, step)
		p.Make(m)
	}
	r := p.Result()
	if r.Outcome != engine.Draw && r.Reason != engine.Ongoing {
		winner := "w"
		if (r.Outcome == engine.Win) != (p.SideToMove() == engine.White) {
			winner = "b"
		}
		out.Winner = &winner
	}
	return out, true
}

// dtzBest is the move a mainline plays: the best outcome for the mover,
// a checkmate first, then winning the zeroing move and the nearest
// zeroing, losing the furthest; false when there is no move or one is
// not known.
func (s *Server) dtzBest(p *engine.Position) (engine.Move, Value, bool) {
	type option struct {
		m       engine.Move
		val     Value
		mate    bool
		zeroing bool
	}
	var opts []option
	clock := p.HalfmoveClock()
	for _, m := range p.LegalMoves(nil) {
		p.Make(m)
		val, st, _, _ := s.value(p, clock)
		o := option{m: m, val: val, mate: st.Checkmate, zeroing: p.HalfmoveClock() == 0}
		p.Unmake()
		if val.DTZ == nil {
			return engine.NoMove, Value{}, false
		}
		opts = append(opts, o)
	}
	if len(opts) == 0 {
		return engine.NoMove, Value{}, false
	}
	best := slices.MinFunc(opts, func(a, b option) int {
		if c := cmp.Compare(categoryOrder[a.val.Category], categoryOrder[b.val.Category]); c != 0 {
			return c
		}
		if c := cmp.Compare(boolRank(!a.mate), boolRank(!b.mate)); c != 0 {
			return c // a checkmate first
		}
		// Winning (the position left is lost), zeroing first; losing, last.
		zeroingLast := func(o option) bool { return o.zeroing != (*o.val.DTZ < 0) }
		if c := cmp.Compare(boolRank(zeroingLast(a)), boolRank(zeroingLast(b))); c != 0 {
			return c
		}
		return cmp.Compare(*b.val.DTZ, *a.val.DTZ)
	})
	return best.m, best.val, true
}

// serveMainline answers GET /{variant}/mainline?fen=FEN.
func (s *Server) serveMainline(w http.ResponseWriter, r *http.Request) {
	p, ok := s.probeRequest(w, r)
	if !ok {
		return
	}
	line, ok := s.mainline(p)
	if !ok {
		fail(w, http.StatusNotFound, "not a tablebase position, its tables are not present, or the variant has no move rule: "+p.FEN())
		return
	}
	w.Header().Set("Cache-Control", cacheBrief)
	writeJSON(w, http.StatusOK, line)
}

// lenientFEN parses a FEN as lichess does: castling rights or an
// en-passant square that do not fit the position are ignored rather than
// refused.
func lenientFEN(v *engine.Variant, fen string) (*engine.Position, error) {
	p, err := v.ParseFEN(fen)
	if err == nil {
		return p, nil
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 {
		return nil, err
	}
	for _, drop := range [][]int{{2}, {3}, {2, 3}} {
		f := slices.Clone(fields)
		for _, i := range drop {
			f[i] = "-"
		}
		if q, e := v.ParseFEN(strings.Join(f, " ")); e == nil {
			return q, nil
		}
	}
	return nil, err
}
