package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/notnil/chess"
	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestDifferentialAgainstNotnil plays random games and asks notnil/chess, an
// independent implementation, for the legal moves (with their SAN), check,
// checkmate and stalemate in every position. Under -short 8 games, some
// two thousand positions (notnil's moves, SAN and status for each were
// most of the test's time); the full run plays 2,000 games.
func TestDifferentialAgainstNotnil(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 8
	}
	v := variants.Chess()
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	positions := 0
	for g := 0; g < games; g++ {
		p := v.StartPosition()
		wantCheck := false // notnil tags the move that gives check
		for ply := 0; ply < 300; ply++ {
			fen := p.FEN()
			// The position alone, as chess.FEN gives it to a game (the
			// check flag included): a game set up around it first builds
			// the start position and its repetition record, a third of
			// the test's time.
			oracle := &chess.Position{}
			require.NoError(t, oracle.UnmarshalText([]byte(fen)), fen)

			var want []string
			wantSAN := map[string]string{}
			givesCheck := map[string]bool{}
			for _, m := range oracle.ValidMoves() {
				want = append(want, m.String())
				wantSAN[m.String()] = chess.AlgebraicNotation{}.Encode(oracle, m)
				givesCheck[m.String()] = m.HasTag(chess.Check)
			}
			var tactical []string
			for _, m := range p.LegalCaptures(nil) {
				tactical = append(tactical, v.UCI(m))
			}
			moves := p.LegalMoves(buf)
			var wantTactical []string
			for _, m := range moves {
				if p.IsCapture(m) || m.Promotion() != 0 {
					wantTactical = append(wantTactical, v.UCI(m))
				}
			}
			slices.Sort(tactical)
			slices.Sort(wantTactical)
			require.Equal(t, wantTactical, tactical, "captures of %s", fen)
			var got []string
			for _, m := range moves {
				uci := v.UCI(m)
				got = append(got, uci)
				if san := p.SAN(m); san != wantSAN[uci] { // testify only on failure: a call a move
					require.Equal(t, wantSAN[uci], san, "SAN of %s in %s", uci, fen)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			require.Equal(t, want, got, "legal moves of %s", fen)

			status := oracle.Status()
			require.Equal(t, wantCheck, p.InCheck(), "check in %s", fen)
			res := p.Result()
			require.Equal(t, status == chess.Checkmate, res.Reason == engine.Checkmate, "checkmate in %s", fen)
			require.Equal(t, status == chess.Stalemate, res.Reason == engine.Stalemate, "stalemate in %s", fen)
			positions++
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			wantCheck = givesCheck[v.UCI(m)]
			p.Make(m)
		}
	}
	t.Logf("%d games, %d positions compared", games, positions)
}
