package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestPickerMatchesGeneratingFirst plays random games of every built-in
// variant and, in each position, drains the staged picker of a node (all
// moves, and captures only as quiescence asks) with a table move that is
// legal, a capture, stale (from earlier in the game), illegal or none,
// and killers and a counter-move set likewise. The picker must hand out
// the moves a node that generated first would search, each once and in
// the same order: LegalMoves (or LegalCaptures) scored and picked.
func TestPickerMatchesGeneratingFirst(t *testing.T) {
	games, plies := 2, 60
	if testing.Short() {
		games, plies = 1, 8
	}
	const ply = 2
	s := New(Options{HashMB: 1})
	var early [2]int // table moves handed out before generating, by captures only
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(5, uint64(len(name))))
		for range games {
			game := v.StartPosition()
			var seen []engine.Move // moves of earlier positions: stale here
			for range plies {
				legal := game.LegalMoves(nil)
				if len(legal) == 0 || game.Result().Over() {
					break
				}
				s.prepare(context.Background(), game, Limits{})
				w := s.workers[0]
				for pc := range w.hist.main {
					for sq := range w.hist.main[pc] {
						w.hist.main[pc][sq] = int16(rng.IntN(2*historyMax) - historyMax)
					}
				}
				pseudo := game.PseudoLegalMoves(nil)
				captures := game.LegalCaptures(nil)
				pickFrom := func() engine.Move {
					switch lists := [][]engine.Move{legal, pseudo, seen, captures}; rng.IntN(5) {
					case 4:
						return engine.NoMove
					default:
						if l := lists[rng.IntN(4)]; len(l) > 0 {
							return l[rng.IntN(len(l))]
						}
						return engine.NoMove
					}
				}
				for range 4 {
					w.killers[ply] = [2]engine.Move{pickFrom(), pickFrom()}
					w.stack[ply-1].move, w.stack[ply-1].piece = legal[0], game.MovedPiece(legal[0])
					if slot := w.counterSlot(ply); slot != nil {
						*slot = pickFrom()
					}
					tt := pickFrom()
					for _, capturesOnly := range []bool{false, true} {
						want := generatedFirst(w, ply, tt, capturesOnly)
						mp := w.newPicker(ply, tt, capturesOnly, false, nil)
						var got []engine.Move
						for {
							m, _, ok := mp.nextMove()
							if !ok {
								break
							}
							got = append(got, m)
						}
						if mp.ttFirst {
							early[btoi(capturesOnly)]++
						}
						require.Equal(t, want, got, "%s %s: table move %s, captures only %v", name, game.FEN(), v.UCI(tt), capturesOnly)
						all := legal
						if capturesOnly {
							all = captures
						}
						require.ElementsMatch(t, all, got, "%s %s", name, game.FEN())
						compact := slices.Clone(got)
						slices.Sort(compact)
						require.Equal(t, len(got), len(slices.Compact(compact)), "%s %s: a move handed out twice", name, game.FEN())
					}
				}
				seen = append(seen, legal[rng.IntN(len(legal))])
				game.Make(legal[rng.IntN(len(legal))])
			}
		}
	}
	require.Positive(t, early[0], "no table move was tried before generating")
	require.Positive(t, early[1], "no table capture was tried before generating")
	t.Logf("table moves tried first: %d (all moves), %d (captures only)", early[0], early[1])
}

// generatedFirst is the order of the node before the staged picker: every
// move generated, scored and picked in turn.
func generatedFirst(w *worker, ply int, ttMove engine.Move, capturesOnly bool) []engine.Move {
	p := w.pos
	var moves []engine.Move
	if capturesOnly {
		moves = p.LegalCaptures(nil)
	} else {
		moves = p.LegalMoves(nil)
	}
	scores := make([]int32, len(moves))
	counter := engine.NoMove
	if slot := w.counterSlot(ply); slot != nil {
		counter = *slot
	}
	w.scoreMoves(p, moves, scores, ttMove, w.killers[ply], counter)
	for i := range moves {
		w.pick(p, moves, scores, i, ply)
	}
	return append([]engine.Move(nil), moves...) // nil when empty, as the picker's
}
