package variants_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// The rules of issue 36's mechanisms, each on the built-in that uses it:
// what perft cannot see (results, hands, castling rights) and the moves
// that make each rule (Fairy-Stockfish 11.1's behaviour).

func TestThreeKingsLoseOneKing(t *testing.T) {
	p := position(t, "threekings", "k3k2k/8/8/8/8/8/8/R3K1KK w - - 0 1")
	require.False(t, p.InCheck(), "kings are not royal")
	p = position(t, "threekings", "k3k2k/8/8/8/8/8/8/R3K1KK w - - 0 1", "a1a8")
	r := p.Result()
	require.Equal(t, engine.Extinction, r.Reason)
	require.Equal(t, "1-0", r.PGN(), "two kings of three left loses")
}

func TestJesonMorKnightMustHoldTheCentre(t *testing.T) {
	const fen = "nnnnnnnnn/9/9/9/9/9/5N3/9/NNNN1NNNN w - - 0 1"
	p := position(t, "jesonmor", fen, "f3e5")
	require.False(t, p.Result().Over(), "Black still has its reply")
	require.NotEmpty(t, p.LegalMoves(nil))
	p = position(t, "jesonmor", fen, "f3e5", "a9b7")
	require.Equal(t, engine.FlagReached, p.Result().Reason)
	require.Equal(t, "1-0", p.Result().PGN())
	// A knight taken on the centre wins nothing.
	p = position(t, "jesonmor", "nnnnnnnnn/9/3n5/9/9/9/5N3/9/NNNN1NNNN w - - 0 1", "f3e5", "d7e5")
	require.False(t, p.Result().Over())
}

func TestSuicideStalemateCountsPieces(t *testing.T) {
	for fen, want := range map[string]string{
		"8/8/8/8/8/p6p/P6P/8 w - - 0 1":  "1/2-1/2", // two each
		"n7/8/8/8/8/p6p/P6P/8 w - - 0 1": "1-0",     // White, stalemated, has fewer
		"8/8/8/8/p7/P7/P7/8 w - - 0 1":   "0-1",     // White has more
	} {
		p := position(t, "suicide", fen)
		require.Equal(t, want, p.Result().PGN(), fen)
		require.Equal(t, engine.Stalemate, p.Result().Reason)
	}
	// Antichess: the stalemated side wins whatever the count.
	require.Equal(t, "1-0", position(t, "antichess", "8/8/8/8/p7/P7/P7/8 w - - 0 1").Result().PGN())
}

func TestLoopKeepsPromotedPieces(t *testing.T) {
	const fen = "4k3/1P6/8/8/8/8/1r6/4K3[] w - - 0 1"
	hand := func(variant string) string {
		f := position(t, variant, fen, "b7b8q", "b2b8").FEN()
		return f[strings.IndexByte(f, '[') : strings.IndexByte(f, ']')+1]
	}
	require.Equal(t, "[q]", hand("loop"), "the queen goes to hand as a queen")
	require.Equal(t, "[p]", hand("crazyhouse"), "as the pawn it was")
	require.Contains(t, legal(position(t, "chessgi", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")), "P@a1", "chessgi drops pawns on the first rank")
}

// TestLoopHandsHoldPromotedPieces: where a captured promoted pawn goes to
// hand as its piece (loop, chessgi), the hands may hold more queens than
// the game started with, as random play reaches
// (…[QQNq] w - - 0 129 was refused: "3 queens in hand, variant chessgi
// has 2 in all"); in crazyhouse, where it goes back as a pawn, they may not.
func TestLoopHandsHoldPromotedPieces(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/4K3[QQNq] w - - 0 129"
	for _, name := range []string{"loop", "chessgi"} {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		p, err := v.ParseFEN(fen)
		require.NoError(t, err, name)
		require.Equal(t, fen, p.FEN(), name)
	}
	v, err := variants.Lookup("crazyhouse")
	require.NoError(t, err)
	_, err = v.ParseFEN(fen)
	require.ErrorContains(t, err, "3 queens in hand, variant crazyhouse has 2 in all")
}

func TestMakpongKingMayNotStepOutOfCheck(t *testing.T) {
	require.Equal(t, []string{"e1e2"}, legal(position(t, "makpong", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")), "only taking the checker")
	require.Contains(t, legal(position(t, "makruk", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")), "e1d1")
	p := position(t, "makpong", "4k3/8/8/8/8/4r3/8/4K3 w - - 0 1")
	require.Empty(t, legal(p))
	require.Equal(t, engine.Checkmate, p.Result().Reason)
}

func TestEuroshogiPromotesPerforce(t *testing.T) {
	moves := legal(position(t, "euroshogi", "4k3/8/8/3N4/8/8/8/4K3[] w - - 0 1"))
	require.Contains(t, moves, "d5c7+")
	require.NotContains(t, moves, "d5c7", "entering the zone, the knight must promote")
	require.Contains(t, moves, "d5c5", "a sideways step outside the zone stays a knight")
}

func TestKyotoPiecesTurnOver(t *testing.T) {
	p := position(t, "kyotoshogi", "")
	for _, m := range legal(p) {
		king := strings.HasPrefix(m, "c1")
		require.True(t, king || strings.HasSuffix(m, "+") || strings.HasSuffix(m, "-"), "%s turns over", m)
	}
	// The rook (a promoted pawn) demotes as it moves; a pawn in hand may be
	// dropped either side up.
	p = position(t, "kyotoshogi", "", "a1a2-")
	require.Equal(t, "p+nks+l/5/5/L4/1SK+NP[] b - - 0 1", p.FEN())
	p = position(t, "kyotoshogi", "4k/5/5/5/K4[P] w - - 0 1")
	require.Contains(t, legal(p), "P@c3")
	require.Contains(t, legal(p), "+P@c3")
	p = position(t, "kyotoshogi", "4k/5/5/5/K4[P] w - - 0 1", "+P@c3")
	require.Equal(t, "4k/5/2+P2/5/K4[] b - - 1 1", p.FEN())
	require.Equal(t, "+P@c3", p.Variant().UCI(p.LastMove()))
	// Micro shogi turns a piece over only when it captures.
	p = position(t, "micro", "")
	require.Contains(t, legal(p), "d2d3", "a quiet pawn move")
	require.NotContains(t, legal(p), "d2d3+")
}

func TestPlacementDropsFirst(t *testing.T) {
	p := position(t, "placement", "")
	for _, m := range legal(p) {
		require.True(t, strings.Contains(m, "@") && strings.HasSuffix(m, "1"), "%s: drops on the first rank only", m)
	}
	// King and rook dropped on their squares castle.
	p = position(t, "placement", "", "K@e1", "K@e8", "R@h1")
	require.Contains(t, p.FEN(), " b K - ")
	// Bishops go on both colours: after one on c1 (dark), none on a dark square.
	p = position(t, "placement", "", "B@c1", "N@b8")
	moves := legal(p)
	require.NotContains(t, moves, "B@e1")
	require.Contains(t, moves, "B@d1")
}

func TestSittuyinPromotion(t *testing.T) {
	// Two pawns: only the one on a long diagonal in Black's half, onto
	// squares where the new general attacks nothing and gives no check.
	moves := legal(position(t, "sittuyin", "4k3/8/5P2/8/8/2P5/8/4K3[] w - - 0 40"))
	var promotions []string
	for _, m := range moves {
		if strings.HasSuffix(m, "f") {
			promotions = append(promotions, m)
		}
	}
	require.ElementsMatch(t, []string{"f6f6f", "f6e7f", "f6g7f", "f6e5f", "f6g5f"}, promotions)
	require.NotContains(t, legal(position(t, "sittuyin", "4k3/8/3r1P2/8/8/2P5/8/4K3[] w - - 0 40")), "f6e7f", "the general would attack the rook")
	single := legal(position(t, "sittuyin", "8/5k2/8/3P4/8/8/8/4K3[] w - - 0 40"))
	require.Contains(t, single, "d5d5f", "a lone pawn promotes anywhere")
	require.NotContains(t, single, "d5e6f", "not with check")
	require.NotContains(t, legal(position(t, "sittuyin", "4k3/8/5P2/8/8/2P5/8/3FK3[] w - - 0 40")), "f6f6f", "one general at most")
	// Rooks are dropped on the first rank only.
	for _, m := range legal(position(t, "sittuyin", "")) {
		if strings.HasPrefix(m, "R@") {
			require.True(t, strings.HasSuffix(m, "1"), m)
		}
	}
}

func TestCambodianFirstMoves(t *testing.T) {
	p := position(t, "cambodian", "")
	require.Subset(t, legal(p), []string{"d1b2", "d1f2"}, "the unmoved king leaps")
	p = position(t, "cambodian", "", "d1c2")
	require.Contains(t, p.FEN(), " b Ede ", "the king's gate is gone once it moved")
	// The unmoved met attacks two squares ahead.
	require.True(t, position(t, "cambodian", "8/8/8/8/8/4k3/8/3KM3 b E - 0 1").InCheck())
	require.False(t, position(t, "cambodian", "8/8/8/8/8/4k3/8/3KM3 b - - 0 1").InCheck())
	// Kar Ouk: the first check wins.
	p = position(t, "karouk", "4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1", "a1a8")
	require.Equal(t, engine.CheckLimit, p.Result().Reason)
	require.Equal(t, "1-0", p.Result().PGN())
}

func TestShatarMates(t *testing.T) {
	// A mate by a knight alone: the mated side wins.
	p := position(t, "shatar", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "g5f7")
	require.Equal(t, engine.Checkmate, p.Result().Reason)
	require.Equal(t, "0-1", p.Result().PGN())
	// A rook's mate is a shak: it counts.
	p = position(t, "shatar", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8")
	require.Equal(t, "1-0", p.Result().PGN())
	// A bishop's mate with no shak before it is niol: a draw.
	p = position(t, "shatar", "7k/5K1p/8/8/8/B7/8/8 w - - 0 1", "a3b2")
	require.Equal(t, engine.Niol, p.Result().Reason)
	require.Equal(t, "1/2-1/2", p.Result().PGN())
	// A bare king draws.
	p = position(t, "shatar", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", "e1d2", "a8a1")
	require.Equal(t, engine.Extinction, p.Result().Reason)
	require.Equal(t, "1/2-1/2", p.Result().PGN())
}

func TestAseanCounting(t *testing.T) {
	// Against a bare king a rook has 16 moves, counted from zero.
	p := position(t, "asean", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a2")
	limit, ply := p.CountingLimit()
	require.Equal(t, []int{32, 0}, []int{limit, ply})
	// With pieces on both sides, no count.
	p = position(t, "asean", "4k3/7p/8/8/8/8/8/R3K3 w - - 0 1", "a1a2")
	limit, _ = p.CountingLimit()
	require.Zero(t, limit)
}

func TestKoedemKings(t *testing.T) {
	// Kings in hand are dropped before anything else.
	for _, m := range legal(position(t, "koedem", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[Kk] w - - 0 1")) {
		require.True(t, strings.HasPrefix(m, "K@"), m)
	}
	// No king while the other side holds both: lost.
	r := position(t, "koedem", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] b - - 0 1").Result()
	require.Equal(t, engine.Extinction, r.Reason)
	require.Equal(t, "1-0", r.PGN())
}

func TestSupplyDrops(t *testing.T) {
	p := position(t, "supply", "rnbakab1r/9/1c5cn/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R[NPBA] w - - 0 1")
	for _, m := range legal(p) {
		if at := strings.IndexByte(m, '@'); at > 0 {
			rank := m[at+2:]
			require.Contains(t, []string{"1", "2", "3", "4", "5"}, rank, "%s: on White's side of the river", m)
			if m[0] == 'A' {
				require.Contains(t, []string{"d1", "f1", "e2", "d3", "f3", "e1", "d2", "f2", "e3"}, m[at+1:], "%s: advisors stay in the palace", m)
			}
		}
	}
	require.Contains(t, legal(p), "N@e5")
}

// TestRepetitionThroughTheHand: in games whose captures go to hand a
// capture is not irreversible; a cycle of captures and drops back repeats
// (dobutsu: the fourth time draws), as Fairy-Stockfish counts it.
func TestRepetitionThroughTheHand(t *testing.T) {
	cycle := []string{"a2a3", "a4a3", "b2a3", "c4b3", "G@a2", "G@a4", "a3b2", "b3c4"}
	var moves []string
	for range 3 {
		moves = append(moves, cycle...)
	}
	p := position(t, "dobutsu", "g1l/3/GEc/L1e[C] w - - 13 23", moves...)
	require.Equal(t, 4, p.RepetitionCount())
	require.Equal(t, engine.RepetitionDraw, p.Result().Reason)
}

// TestChessgiPawnOnTheFirstRank: a pawn dropped on its first rank is a
// position chessgi's FEN reads back (a match game ended with one).
func TestChessgiPawnOnTheFirstRank(t *testing.T) {
	const fen = "rnb3nr/1pkp1N2/p2Qp3/7p/7p/4P3/P1P2PP1/r1P1KB1R[Nqbbpppp] b K - 0 25"
	require.Equal(t, fen, position(t, "chessgi", fen).FEN())
	p := position(t, "chessgi", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@a1")
	require.Equal(t, "4k3/8/8/8/8/8/8/P3K3[] b - - 0 1", p.FEN())
	_, err := position(t, "crazyhouse", "").Variant().ParseFEN("4k3/8/8/8/8/8/8/P3K3[] b - - 0 1")
	require.ErrorContains(t, err, "behind the ranks pawns start on", "crazyhouse drops no pawn there")
}

// TestJanggiPassInCheckDuringBikjang: with the generals facing, Black
// passed although in check (Fairy-Stockfish allows it); the position that
// follows reads back from its FEN (random play found one refused).
func TestJanggiPassInCheckDuringBikjang(t *testing.T) {
	const fen = "n4a3/3krP3/9/B3b4/p1P3Pp1/9/2P2p3/R2K1A3/9/1N2R4 w - - 3 67"
	require.Equal(t, fen, position(t, "janggi", fen).FEN())
}
