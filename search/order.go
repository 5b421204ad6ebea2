package search

import "github.com/chimera-chess/chimera/engine"

// Move ordering scores: the transposition-table move first, then captures
// and promotions by MVV-LVA (most valuable victim, least valuable attacker),
// then the killer moves of the ply, then the other quiet moves by history.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 24
	orderKiller1 = 1 << 23
	orderKiller2 = orderKiller1 - 1
	historyMax   = 1 << 20
)

// scoreMoves fills scores for moves at ply.
func (s *Searcher) scoreMoves(p *engine.Position, moves []engine.Move, scores []int32, ttMove engine.Move, ply int) {
	for i, m := range moves {
		switch {
		case m == ttMove:
			scores[i] = orderTT
		case p.IsCapture(m) || m.Promotion() != 0:
			victim := s.eval.Value(p.Captured(m))
			if t := m.Promotion(); t != 0 {
				victim += s.eval.Value(engine.MakePiece(t, p.SideToMove()))
			}
			attacker := s.eval.Value(p.At(m.From()))
			scores[i] = orderCapture + int32(victim)*32 - int32(min(attacker, 20000)/16)
		case m == s.killers[ply][0]:
			scores[i] = orderKiller1
		case m == s.killers[ply][1]:
			scores[i] = orderKiller2
		default:
			scores[i] = s.history[p.At(m.From())][m.To()]
		}
	}
}

// pickNext moves the best-scored remaining move to position i (a lazy
// selection sort: most nodes cut off after a few moves).
func pickNext(moves []engine.Move, scores []int32, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	scores[i], scores[best] = scores[best], scores[i]
}

// rewardQuiet records a quiet move that caused a cut-off: as a killer of
// the ply and in the history table, and penalises the quiet moves tried
// before it.
func (s *Searcher) rewardQuiet(p *engine.Position, m engine.Move, tried []engine.Move, depth, ply int) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	bonus := int32(depth * depth)
	s.addHistory(p, m, bonus)
	for _, q := range tried {
		if q != m && !p.IsCapture(q) && q.Promotion() == 0 {
			s.addHistory(p, q, -bonus)
		}
	}
}

func (s *Searcher) addHistory(p *engine.Position, m engine.Move, delta int32) {
	h := &s.history[p.At(m.From())][m.To()]
	*h += delta
	if *h > historyMax || *h < -historyMax {
		for pc := range s.history {
			for sq := range s.history[pc] {
				s.history[pc][sq] /= 2
			}
		}
	}
}
