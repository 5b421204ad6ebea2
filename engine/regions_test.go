package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
)

// TestRegionGamesLegalityMatchesMaking plays random games of the games
// with regions, cannons, lame leapers and the generals' rules, and checks
// at every ply that the legal moves (tested on the board, or not at all
// off the royal piece's lines) are exactly those that, made, leave the
// mover safe; and that make/unmake restores the key.
func TestRegionGamesLegalityMatchesMaking(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 8
	}
	for _, name := range []string{"xiangqi", "minixiangqi", "makruk", "janggi"} {
		v := lookup(t, name)
		rng := rand.New(rand.NewPCG(11, 12))
		for g := 0; g < games; g++ {
			p := v.StartPosition()
			for ply := 0; ply < 160; ply++ {
				fast := p.LegalMoves(nil)
				if _, over := p.ImmediateEnd(); over {
					require.Empty(t, fast, "%s: the game is over: %s", name, p.FEN())
					break
				}
				slow := p.LegalMovesByMaking(nil)
				slices.Sort(fast)
				slices.Sort(slow)
				// The FEN is written only on failure, as in the tests below.
				if !slices.Equal(slow, fast) {
					require.Equal(t, slow, fast, "%s: %s", name, p.FEN())
				}
				if len(fast) == 0 {
					break
				}
				p.Make(fast[rng.IntN(len(fast))])
				if p.ComputeKey() != p.Key() {
					require.Equal(t, p.ComputeKey(), p.Key(), "%s: %s", name, p.FEN())
				}
			}
		}
	}
}

// TestFlyingGeneral: a piece between the generals is pinned to the file,
// and a general may not step onto a file the other one sees down.
func TestFlyingGeneral(t *testing.T) {
	v := lookup(t, "xiangqi")
	p, err := v.ParseFEN("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
	require.NoError(t, err)
	for _, m := range p.LegalMoves(nil) {
		require.NotEqual(t, "d1e1", v.UCI(m), "the general may not face the other")
	}
	p, err = v.ParseFEN("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1")
	require.NoError(t, err)
	for _, m := range p.LegalMoves(nil) {
		require.Equal(t, "e1", m.From().String(), "the horse shields the generals: %s", v.UCI(m))
	}
	_, err = v.ParseFEN("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1")
	require.Error(t, err, "facing generals: the side that moved left its general attacked")
}

// TestJanggiEnds: two passes running end the game, and so does a face-off
// of the generals that stands after a pass; material points decide, Black
// winning unless White has more than one point more.
func TestJanggiEnds(t *testing.T) {
	v := lookup(t, "janggi")
	p := v.StartPosition()
	require.Equal(t, engine.Pass, play(t, p, "e2e2").Kind())
	require.False(t, p.Result().Over(), "one pass goes on")
	play(t, p, "e9e9")
	r := p.Result()
	require.Equal(t, engine.DoublePass, r.Reason)
	require.Equal(t, "0-1", r.PGN(), "equal material: the second player's 1.5 points win")
	require.Empty(t, p.LegalMoves(nil))

	// Bikjang: White, a rook up, may pass in the face-off; the face-off
	// then stands and White wins on points (13 > 1).
	p, err := v.ParseFEN("4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
	require.NoError(t, err)
	_, err = p.ParseUCI("e1d1")
	require.NoError(t, err, "stepping aside breaks the face-off")
	_, err = p.ParseUCI("a1a2")
	require.ErrorContains(t, err, "not legal", "a move that keeps the face-off is illegal")
	play(t, p, "e1e1")
	r = p.Result()
	require.Equal(t, engine.Bikjang, r.Reason)
	require.Equal(t, "1-0", r.PGN())
}

// TestMakrukCounting: the count runs in the FEN's en-passant and clock
// fields, and the game is drawn when it passes its limit.
func TestMakrukCounting(t *testing.T) {
	v := lookup(t, "makruk")
	p, err := v.ParseFEN("4k3/8/8/8/8/3R4/8/4K3 b - 32 31 1")
	require.NoError(t, err)
	require.Equal(t, "4k3/8/8/8/8/3R4/8/4K3 b - 32 31 1", p.FEN())
	limit, ply := p.CountingLimit()
	require.Equal(t, [2]int{32, 31}, [2]int{limit, ply})
	play(t, p, "e8e7", "d3d4")
	require.Equal(t, "8/4k3/8/8/3R4/8/8/4K3 b - 32 33 2", p.FEN())
	require.Equal(t, engine.CountingDraw, p.Result().Reason)
	p.Unmake()
	require.False(t, p.Result().Over(), "at the limit the count goes on")
	// A count starts when the last pawn goes: KRvK from a capture.
	makeAndBack(t, v, "4k3/8/8/8/3p4/8/3R4/4K3 w - - 0 1", "d2d4", "4k3/8/8/8/3R4/8/8/4K3 b - 32 6 1") // pieces' honour: 16 moves, counted from the 3 pieces
	_, err = v.ParseFEN("4k3/8/8/8/8/3R4/8/4K3 b - 0 6 1")
	require.ErrorContains(t, err, "counting limit")
}

// TestCountingLimits: a count read from a FEN must be one the rules could
// have started: a limit of the rule's table, and, in makruk, no longer
// than the material against a bare king allows (a count starts, or starts
// again, when the last piece goes, and material only leaves the board
// after that), the board's honour while both sides have pieces, and none
// with pawns on the board.
func TestCountingLimits(t *testing.T) {
	makruk := lookup(t, "makruk")
	// Each pieces' honour, as play starts it when a capture bares the
	// black king, is read back.
	for material, limit := range map[string]int{"RR6": 16, "R7": 32, "SS6": 44, "NN6": 64, "S7": 88, "M7": 128, "NS6": 88} {
		fen := "4k3/8/8/8/3p4/4K3/8/" + material + " w - - 0 1"
		p, err := makruk.ParseFEN(fen)
		require.NoError(t, err, fen)
		m, err := p.ParseUCI("e3d4")
		require.NoError(t, err)
		p.Make(m)
		got, _ := p.CountingLimit()
		require.Equal(t, limit, got, material)
		_, err = makruk.ParseFEN(p.FEN())
		require.NoError(t, err, p.FEN())
	}
	for _, tc := range []struct {
		variant, fen, want string // want "" when the count is fine
	}{
		{"makruk", "4k3/8/8/8/8/3R4/8/4K3 b - 999 6 1", "counting limit 999: makruk counting starts counts of 16, 32, 44, 64, 88 or 128 plies"},
		{"makruk", "4k3/8/8/8/8/3R4/8/4K3 b - 100 6 1", "counting limit 100: makruk counting"},
		{"makruk", "4k3/8/8/8/8/3R4/8/4K3 b - 128 6 1", "counting limit 128: against a bare king this material counts at most 32 plies"},
		{"makruk", "4k3/8/8/8/8/3R4/8/4K3 w - 88 7 1", "at most 32 plies"},
		{"makruk", "4k3/8/8/8/8/3R4/8/4K3 b - 16 6 1", ""}, // the bare king took the second rook
		{"makruk", "4k3/8/2s5/8/8/3R4/8/4K3 w - 32 1 2", "counting limit 32: while both sides have pieces only the board's honour runs, 128 plies"},
		{"makruk", "4k3/8/2s5/8/8/3R4/8/4K3 w - 128 1 2", ""},
		{"makruk", "4k3/8/2s5/3p4/8/3R4/8/4K3 w - 128 1 2", "counting limit 128: a count starts only once the last pawn is gone"},
		{"makruk", "4k3/8/8/8/8/8/8/4K3 w - 16 10 1", ""}, // two bare kings: any limit may have outlived the capture
		{"makruk", "4k3/8/8/8/8/3R4/8/4K3 b - 32 34 1", "count 34 is above its limit 32"},
		{"cambodian", "4k3/8/8/8/8/3R4/8/4K3 b - 999 6 1", "counting limit 999: makruk counting"},
		{"asean", "4k3/8/8/8/8/3R4/8/4K3 b - 44 0 1", "counting limit 44: ASEAN counting starts counts of 32, 88 or 128 plies"},
		{"asean", "4k3/8/8/8/8/3R4/8/4K3 b - 32 0 1", ""},
		{"asean", "4k3/8/2b5/8/8/3R4/8/4K3 w - 32 1 2", "counting limit 32: ASEAN counting runs only against a bare king"},
	} {
		_, err := lookup(t, tc.variant).ParseFEN(tc.fen)
		if tc.want == "" {
			require.NoError(t, err, "%s %s", tc.variant, tc.fen)
			continue
		}
		require.ErrorContains(t, err, tc.want, "%s %s", tc.variant, tc.fen)
	}
}

// TestPassNotation: a pass is e2e2 in UCI (as Fairy-Stockfish writes it)
// and -- in SAN, which also reads "pass" and "@@@@".
func TestPassNotation(t *testing.T) {
	v := lookup(t, "janggi")
	p := v.StartPosition()
	m, err := p.ParseUCI("e2e2")
	require.NoError(t, err)
	require.Equal(t, "e2e2", v.UCI(m))
	require.Equal(t, "--", p.SAN(m))
	for _, san := range []string{"--", "pass", "@@@@"} {
		n, err := p.ParseSAN(san)
		require.NoError(t, err, san)
		require.Equal(t, m, n, san)
	}
	p.Make(m)
	require.Equal(t, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1", p.FEN())
}

// FuzzParseFENAsian: FENs of xiangqi, janggi and makruk (with a running
// count) never crash, round-trip when accepted, and moves read from them
// (passes included) write back to themselves.
func FuzzParseFENAsian(f *testing.F) {
	games := []string{"xiangqi", "janggi", "makruk"}
	for i, seed := range []string{
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
		"4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1",
		"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
		"3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
		"4k3/8/8/8/8/3R4/8/4K3 b - 32 6 1",
		"4k3/8/2s5/8/8/3R4/8/4K3 w - 128 1 2",
		"4k3/8/8/8/8/3R4/8/4K3 b - 0 6 1",
		"4k3/8/8/8/8/3R4/8/4K3 b - 999 6 1",
		"4k3/8/8/8/8/3R4/8/4K3 b - 128 6 1",
		"4k3/8/2s5/8/8/3R4/8/4K3 w - 32 1 2",
	} {
		f.Add(uint8(min(i/2, 2)), seed, "e2e2")
	}
	variants := make([]*engine.Variant, len(games))
	for i, name := range games {
		variants[i] = lookup(f, name)
	}
	f.Fuzz(func(t *testing.T, which uint8, fen, move string) {
		v := variants[int(which)%len(variants)]
		if p := roundTrip(t, v, fen); p != nil {
			moveRoundTrip(t, p, move)
		}
	})
}
