package search

import (
	"context"
	"fmt"
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
// the moves a node that generated first would search (LegalMoves, or
// LegalCaptures), each once, with the score full scoring gives it, in
// the staged order: the table move, the captures that do not lose
// material, the killers and the counter-move, then the rest by score.
// Moves of equal score may come in any order.
func TestPickerMatchesGeneratingFirst(t *testing.T) {
	games, plies, rounds := 2, 60, 4
	if testing.Short() {
		// Each position's rounds draw other killers, counter-move and
		// table move: two rounds of the node, captures only and not,
		// under -short, where the rounds were most of the test's time.
		games, plies, rounds = 1, 8, 2
	}
	const ply = 2
	s := New(Options{HashMB: 1})
	var early [2]int    // table moves handed out before generating, by captures only
	var nodes, lazy int // main-search nodes drained, and those that never generated quiet moves on the way to a cut-off
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
				for range rounds {
					w.killers[ply] = [2]engine.Move{pickFrom(), pickFrom()}
					w.stack[ply-1].move, w.stack[ply-1].piece = legal[0], game.MovedPiece(legal[0])
					if slot := w.counterSlot(ply); slot != nil {
						*slot = pickFrom()
					}
					tt := pickFrom()
					for _, capturesOnly := range []bool{false, true} {
						want := finalScores(w, ply, tt, capturesOnly)
						mp := w.newPicker(ply, tt, capturesOnly, false, nil)
						var got []engine.Move
						prev := [2]int32{4, 0} // the band and score of the move before
						for {
							m, score, ok := mp.nextMove()
							if !ok {
								break
							}
							if !capturesOnly && len(got) == 1 {
								nodes++
								if mp.stage < stageQuiets {
									lazy++ // a cut-off on the first move or two would have spared the quiet moves
								}
							}
							got = append(got, m)
							here := [2]int32{band(game, m, score, tt, capturesOnly, captures), score}
							// The message is written only on failure: formatting it
							// for every move took most of the test's time.
							if want[m] != score || here[0] > prev[0] || here[0] == prev[0] && here[1] > prev[1] {
								msg := fmt.Sprintf("%s %s: table move %s, captures only %v: %s after %s", name, game.FEN(), v.UCI(tt), capturesOnly, v.UCI(m), uciList(v, got[:len(got)-1]))
								require.Equal(t, want[m], score, msg)
								require.Fail(t, "out of order", "%s: band and score %v after %v", msg, here, prev)
							}
							prev = here
						}
						if mp.ttFirst {
							early[btoi(capturesOnly)]++
						}
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
	require.Positive(t, lazy, "every node generated its quiet moves before its second move")
	t.Logf("table moves tried first: %d (all moves), %d (captures only); %d of %d nodes handed out two moves before generating the quiet ones",
		early[0], early[1], lazy, nodes)
}

// band is the stage of the staged order a move handed out with score
// belongs to, latest lowest: the table move, a capture or promotion of
// LegalCaptures that does not lose material, a killer or the
// counter-move, the rest. Where only captures are searched, or the
// variant's captures come with its quiet moves, everything after the
// table move is picked by score alone.
func band(p *engine.Position, m engine.Move, score int32, tt engine.Move, capturesOnly bool, captures []engine.Move) int32 {
	switch {
	case m == tt:
		return 3
	case capturesOnly || !p.Variant().QuietsApart():
		return 0
	case score >= orderGoodCapture && slices.Contains(captures, m):
		return 2
	case score >= orderCounter && score <= orderKiller1:
		return 1
	}
	return 0
}

// uciList spells moves in UCI, for failure messages.
func uciList(v *engine.Variant, moves []engine.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = v.UCI(m)
	}
	return out
}

// finalScores is every move's ordering score as a node that generated
// first would give it, exchanges weighed and quiet moves scored by their
// histories: every move generated, scored and picked in turn.
func finalScores(w *worker, ply int, ttMove engine.Move, capturesOnly bool) map[engine.Move]int32 {
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
	out := make(map[engine.Move]int32, len(moves))
	for i := range moves {
		w.pick(p, moves, scores, i, ply)
		out[moves[i]] = scores[i]
	}
	return out
}
