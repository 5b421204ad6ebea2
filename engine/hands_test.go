package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

func crazyhouse(t testing.TB) *engine.Variant { return lookup(t, "crazyhouse") }

// lookup returns a built-in variant.
func lookup(t testing.TB, name string) *engine.Variant {
	v, err := variants.Lookup(name)
	require.NoError(t, err)
	return v
}

// TestHoldingsFEN: holdings in brackets or as a ninth rank, promoted marks,
// written back as Fairy-Stockfish writes them; the hands are in the key.
func TestHoldingsFEN(t *testing.T) {
	v := crazyhouse(t)
	p, err := v.ParseFEN("r3k2r/8/3Q~4/8/8/5q~2/8/R3K2R[pPnN] b KQkq - 0 1")
	require.NoError(t, err)
	require.Equal(t, "r3k2r/8/3Q~4/8/8/5q~2/8/R3K2R[NPnp] b KQkq - 0 1", p.FEN())
	knight := v.TypeByLetter('N')
	require.Equal(t, 1, p.InHand(engine.White, knight))
	require.Equal(t, 1, p.InHand(engine.Black, knight))
	d6, _ := engine.ParseSquare("d6", 8, 8)
	require.True(t, p.Promoted(d6))

	lichess, err := v.ParseFEN("r3k2r/8/3Q~4/8/8/5q~2/8/R3K2R/NPnp b KQkq - 0 1")
	require.NoError(t, err)
	require.Equal(t, p.FEN(), lichess.FEN())
	require.Equal(t, p.Key(), lichess.Key())

	// A piece more in hand, or a mark less, is another position.
	more, err := v.ParseFEN("r3k2r/8/3Q~4/8/8/5q~2/8/R3K2R[NNPnp] b KQkq - 0 1")
	require.NoError(t, err)
	require.NotEqual(t, p.Key(), more.Key())
	unmarked, err := v.ParseFEN("r3k2r/8/3Q4/8/8/5q~2/8/R3K2R[NPnp] b KQkq - 0 1")
	require.NoError(t, err)
	require.NotEqual(t, p.Key(), unmarked.Key())

	for fen, want := range map[string]string{
		"4k3/8/8/8/8/8/8/4K3[Kq] w - - 0 1": "royal piece",
		"4k3/8/8/8/8/8/8/4K3[Zq] w - - 0 1": "unknown piece letter",
		"4k3/8/8/8/8/8/8/4K3[q w - - 0 1":   "in brackets",
		"4k3/8/8/8/8/8/8/4K3]q[ w - - 0 1":  "in brackets",
		// Only what a pawn promotes to may be marked promoted.
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK~BNR[] w KQkq - 0 1": "K~ marks a piece promoted from a pawn, and no pawn of variant crazyhouse promotes to a king",
		"rnbqk~bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1": "k~ marks a piece promoted from a pawn, and no pawn of variant crazyhouse promotes to a king",
		"4k3/8/8/8/4P~3/8/8/4K3[] w - - 0 1":                          "no pawn of variant crazyhouse promotes to a pawn",
	} {
		_, err := v.ParseFEN(fen)
		require.ErrorContains(t, err, want, fen)
	}
	chess := variants.Chess()
	_, err = chess.ParseFEN("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
	require.ErrorContains(t, err, "no pieces in hand")
	_, err = chess.ParseFEN("4k3/8/8/8/8/8/8/3Q~K3 w - - 0 1")
	require.ErrorContains(t, err, "promoted from a pawn")
}

// TestDrops: drops are written P@e4 in UCI and SAN, go only where the rules
// allow, interpose against a check, and a captured promoted piece goes to
// hand as a pawn.
func TestDrops(t *testing.T) {
	v := crazyhouse(t)
	p, err := v.ParseFEN("4k3/8/8/8/8/8/8/4K3[Pq] w - - 0 1")
	require.NoError(t, err)
	m, err := p.ParseUCI("P@e4")
	require.NoError(t, err)
	require.Equal(t, engine.Drop, m.Kind())
	require.Equal(t, v.TypeByLetter('P'), m.Dropped())
	require.Equal(t, "P@e4", v.UCI(m))
	require.Equal(t, "P@e4", p.SAN(m))
	again, err := p.ParseSAN("@e4")
	require.NoError(t, err)
	require.Equal(t, m, again)
	for _, bad := range []string{"P@e1", "P@e8", "Q@e4", "p@e4x", "P@", "X@e4"} {
		_, err := p.ParseUCI(bad)
		require.Error(t, err, bad)
	}
	p.Make(m)
	require.Equal(t, "4k3/8/8/8/4P3/8/8/4K3[q] b - - 0 1", p.FEN())
	p.Unmake()

	// In check from a distance, the drops that count block the line.
	check, err := v.ParseFEN("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1")
	require.NoError(t, err)
	var drops []string
	for _, m := range check.LegalMoves(nil) {
		if m.Kind() == engine.Drop {
			drops = append(drops, v.UCI(m))
		}
	}
	require.ElementsMatch(t, []string{"N@b1", "N@c1", "N@d1"}, drops)

	// Capturing a promoted queen gives a pawn.
	makeAndBack(t, v, "4k3/8/8/8/8/8/q~6R/4K3[] w - - 0 1", "h2a2", "4k3/8/8/8/8/8/R7/4K3[P] b - - 0 1")
}

// makeAndBack plays one move from fen, checks the FEN after it, takes it
// back and checks the FEN is fen again.
func makeAndBack(t *testing.T, v *engine.Variant, fen, move, after string) {
	t.Helper()
	p, err := v.ParseFEN(fen)
	require.NoError(t, err)
	m, err := p.ParseUCI(move)
	require.NoError(t, err)
	p.Make(m)
	require.Equal(t, after, p.FEN())
	p.Unmake()
	require.Equal(t, fen, p.FEN())
}

// play plays moves in UCI form on p and returns the last.
func play(t *testing.T, p *engine.Position, moves ...string) engine.Move {
	t.Helper()
	var m engine.Move
	for _, s := range moves {
		var err error
		m, err = p.ParseUCI(s)
		require.NoError(t, err, s)
		p.Make(m)
	}
	return m
}

// TestDropAfterCaptureUnmakes: a capture of the last piece in its side's
// list, then that side drops on the capturer's square, then both are taken
// back. remove leaves the captured piece's slot past the end of the list
// and the drop reuses it: restore must not read it (it once gave the
// square dropped on the index of that slot, corrupting the position in the
// search).
func TestDropAfterCaptureUnmakes(t *testing.T) {
	v := crazyhouse(t)
	// White's pieces are listed as the FEN gives them: the rook on h1 last.
	p, err := v.ParseFEN("4k3/pp6/8/8/8/6n1/8/4K2R[N] b - - 0 1")
	require.NoError(t, err)
	start := p.FEN()
	for _, s := range []string{"g3h1", "N@g3"} {
		m, err := p.ParseUCI(s)
		require.NoError(t, err, s)
		p.Make(m)
		require.NoError(t, p.CheckConsistency(), s)
	}
	p.Unmake()
	require.NoError(t, p.CheckConsistency())
	p.Unmake()
	require.NoError(t, p.CheckConsistency())
	require.Equal(t, start, p.FEN())
}

// roundTrip parses fen in v: an error must say it is the FEN's; a
// position must print a FEN that parses back to itself with the same key,
// and every legal move must make and unmake with consistent state. It
// returns the position, or nil when the FEN is refused.
func roundTrip(t *testing.T, v *engine.Variant, fen string) *engine.Position {
	p, err := v.ParseFEN(fen)
	if err != nil {
		require.True(t, strings.HasPrefix(err.Error(), "FEN "), err.Error())
		return nil
	}
	out := p.FEN()
	q, err := v.ParseFEN(out)
	require.NoError(t, err, out)
	require.Equal(t, out, q.FEN())
	require.Equal(t, p.Key(), q.Key())
	for _, m := range p.LegalMoves(nil) {
		p.Make(m)
		require.NoError(t, p.CheckConsistency(), "%s after %s", out, v.UCI(m))
		p.Unmake()
		require.Equal(t, out, p.FEN())
	}
	return p
}

// FuzzParseFENHands: crazyhouse FENs either fail with an error or round
// trip, and every move of the position (drops included) makes and unmakes
// with a consistent key.
func FuzzParseFENHands(f *testing.F) {
	v := crazyhouse(f)
	for _, seed := range []string{v.StartFEN, "r3k2r/8/3Q~4/8/8/5q~2/8/R3K2R[PPpp] b KQkq - 0 1",
		"4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - -", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", "8/8/8/8/8/8/8/8[] w",
		"4k3/8/8/8/8/8/8/4K3[Kk] w - - 0 1", "4k3/8/8/8/8/8/8/4K3[--] w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK~BNR[] w KQkq - 0 1", "4k3/8/8/8/4P~3/8/8/4K3[] w - - 0 1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, fen string) { roundTrip(t, v, fen) })
}

// FuzzParseDrop: move parsing in a position with pieces in hand never
// panics, and what it accepts prints back the same way.
func FuzzParseDrop(f *testing.F) {
	v := crazyhouse(f)
	for _, seed := range []string{"P@e4", "p@e4", "@e4", "N@f3", "Q@h8", "P@a1", "e2e4", "K@e4", "@", "P@e44"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := v.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[NPp] w KQkq - 0 4")
		require.NoError(t, err)
		if m, err := p.ParseUCI(s); err == nil {
			again, err := p.ParseUCI(v.UCI(m))
			require.NoError(t, err)
			require.Equal(t, m, again)
		}
		if m, err := p.ParseSAN(s); err == nil {
			again, err := p.ParseSAN(p.SAN(m))
			require.NoError(t, err)
			require.Equal(t, m, again)
		}
	})
}

// uciMoves returns the position's legal moves in UCI form.
func uciMoves(p *engine.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, p.Variant().UCI(m))
	}
	return out
}

// TestShogiPromotion: a piece promotes (+) moving into, inside or out of
// its zone, may decline unless it could never move again, is written +P
// in FEN, and goes back to hand as what it was.
func TestShogiPromotion(t *testing.T) {
	v := lookup(t, "minishogi")
	p, err := v.ParseFEN("1bsgk/P3p/5/2S2/KG1BR[] w - - 0 1")
	require.NoError(t, err)
	moves := uciMoves(p)
	require.Contains(t, moves, "a4a5+")
	require.NotContains(t, moves, "a4a5", "a pawn on the last rank could never move: it must promote")
	m, err := p.ParseUCI("a4a5+")
	require.NoError(t, err)
	p.Make(m)
	require.Equal(t, "+Pbsgk/4p/5/2S2/KG1BR[] b - - 0 1", p.FEN())
	// Fairy-Stockfish's own start FEN has no castling or en-passant field.
	fsf, err := v.ParseFEN("rbsgk/4p/5/P4/KGSBR[-] w 0 1")
	require.NoError(t, err)
	require.Equal(t, v.StartFEN, fsf.FEN())

	// A silver going into the zone, and one leaving it, may promote or not.
	s, err := v.ParseFEN("1S2k/5/2S2/5/K4[] w - - 0 1")
	require.NoError(t, err)
	moves = uciMoves(s)
	require.Subset(t, moves, []string{"c3c4", "c3d4", "b5a4", "b5a4+", "b5c4", "b5c4+"})
	require.NotContains(t, moves, "c3c4+", "c4 is not in the zone, c3 neither")

	// A promoted silver taken goes to hand as a silver.
	makeAndBack(t, v, "4k/4+S/5/5/K4[] b - - 0 1", "e5e4", "5/4k/5/5/K4[s] w - - 0 2")
}

// TestShogiDropRules: no second pawn on a file (nifu), no pawn or lance
// drop on the last rank nor knight on the last two (they could not move),
// and no pawn drop that mates (uchifuzume), even when the only piece that
// could take the pawn is pinned.
func TestShogiDropRules(t *testing.T) {
	v := lookup(t, "shogi")
	p, err := v.ParseFEN("4k4/9/9/9/9/9/4P4/9/4K4[PLN] w - - 0 1")
	require.NoError(t, err)
	moves := uciMoves(p)
	require.NotContains(t, moves, "P@e5", "nifu")
	require.Contains(t, moves, "P@d5")
	require.NotContains(t, moves, "P@d9")
	require.NotContains(t, moves, "L@d9")
	require.Contains(t, moves, "L@d8")
	require.NotContains(t, moves, "N@d8")
	require.Contains(t, moves, "N@d7")

	mini := lookup(t, "minishogi")
	mate, err := mini.ParseFEN("b3r/2Gs1/1g1Bk/p4/1KSr1[p] b - - 3 27")
	require.NoError(t, err)
	require.NotContains(t, uciMoves(mate), "P@b2", "the pawn drop mates: the silver that could take it is pinned")
	// Without the pin the same drop is only a check, and legal.
	check, err := mini.ParseFEN("b3r/2Gs1/1g1Bk/p4/1KS2[p] b - - 3 27")
	require.NoError(t, err)
	require.Contains(t, uciMoves(check), "P@b2")
}

// FuzzParseFENShogi: minishogi FENs (promoted pieces as +P, hands) either
// fail with an error or round trip, and every move makes and unmakes with
// a consistent key; UCI parsing reads back what it prints (+ included).
func FuzzParseFENShogi(f *testing.F) {
	v := lookup(f, "minishogi")
	for _, seed := range []string{v.StartFEN, "+Pbsgk/4p/5/2S2/KG1BR[Pp] b - - 1 1", "1+SG1k/1+b1s1/G2bP/2+r1p/K4[r] w - - 0 35",
		"b3r/2Gs1/1g1Bk/p4/1KSr1[p] b - - 3 27", "+/5/5/5/5[] w", "++P4/5/5/5/5 w", "rbsgk/4p/5/P4/KGSBR[-] w 0 1"} {
		f.Add(seed, "a4a5+")
	}
	f.Fuzz(func(t *testing.T, fen, move string) {
		if p := roundTrip(t, v, fen); p != nil {
			moveRoundTrip(t, p, move)
		}
	})
}

// moveRoundTrip: a move read from text, when legal, writes back to text
// that reads as the same move.
func moveRoundTrip(t *testing.T, p *engine.Position, move string) {
	if m, err := p.ParseUCI(move); err == nil {
		again, err := p.ParseUCI(p.Variant().UCI(m))
		require.NoError(t, err)
		require.Equal(t, m, again)
	}
}

// TestPerpetualCheck: in shogi a fourfold repetition is a draw, unless one
// side gave check with every move of the cycle: that side loses.
func TestPerpetualCheck(t *testing.T) {
	v := lookup(t, "minishogi")
	play := func(fen string, cycle []string, times int) *engine.Position {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		for range times {
			for _, s := range cycle {
				require.False(t, p.Result().Over(), "over before %s: %s", s, p.FEN())
				m, err := p.ParseUCI(s)
				require.NoError(t, err, s)
				p.Make(m)
			}
		}
		return p
	}
	// The rook checks on every move, the king steps aside each time.
	p := play("4k/R4/5/5/2K2[] w - - 0 1", []string{"a4a5", "e5e4", "a5a4", "e4e5"}, 3)
	m, err := p.ParseUCI("a4a5")
	require.NoError(t, err)
	p.Make(m) // the position after the first check, for the fourth time
	r := p.Result()
	require.Equal(t, engine.PerpetualCheck, r.Reason)
	require.Equal(t, "0-1", r.PGN(), "White, who checked every time, loses")

	// Kings walking to and fro: a plain fourfold repetition, a draw.
	q := play("4k/5/5/5/K4[] w - - 0 1", []string{"a1a2", "e5e4", "a2a1", "e4e5"}, 3)
	require.Equal(t, engine.RepetitionDraw, q.Result().Reason)
}

// TestGating: Seirawan chess's hawk and elephant enter behind a back-rank
// piece's first move (b1c3h), on castling on the king's or the rook's
// square (e1g1h, h1e1h); gate letters are written only for a side that
// still holds a gating piece, as Fairy-Stockfish writes them.
func TestGating(t *testing.T) {
	v := lookup(t, "seirawan")
	p := v.StartPosition()
	moves := uciMoves(p)
	require.Subset(t, moves, []string{"b1c3", "b1c3h", "b1c3e", "g1f3e"})
	require.NotContains(t, moves, "e2e4h", "a pawn is not on the back rank")
	m, err := p.ParseUCI("b1c3h")
	require.NoError(t, err)
	require.Equal(t, "Nc3/H", p.SAN(m))
	p.Make(m)
	require.Equal(t, "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RHBQKBNR[Eeh] b KQACDEFGHkqabcdefgh - 1 1", p.FEN())
	require.NoError(t, p.CheckConsistency())
	p.Unmake()
	require.Equal(t, v.StartFEN, p.FEN())

	castle, err := v.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R[EHeh] w KQkq - 0 1")
	require.NoError(t, err)
	for s, fen := range map[string]string{
		"e1g1h": "r3k2r/8/8/8/8/8/8/R3HRK1[Eeh] b Akqaeh - 1 1", // as Fairy-Stockfish writes it
		"h1e1e": "r3k2r/8/8/8/8/8/8/R4RKE[Heh] b Akqaeh - 1 1",
	} {
		m, err := castle.ParseUCI(s)
		require.NoError(t, err, s)
		require.Equal(t, s, v.UCI(m))
		castle.Make(m)
		require.Equal(t, fen, castle.FEN(), s)
		require.NoError(t, castle.CheckConsistency())
		castle.Unmake()
	}
	// Rules on drops and gating combine: a user variant with both still gates.
	c := variants.Builtin()
	require.NoError(t, c.Load("test.ini", []byte("[quietgates:seirawan]\ndropChecks = false\n")))
	qg, err := c.Lookup("quietgates")
	require.NoError(t, err)
	require.Contains(t, uciMoves(qg.StartPosition()), "b1c3h")

	// The last gating piece used, the side's gate letters go.
	last, err := v.ParseFEN("4k3/8/8/8/8/8/8/1N2K3[He] w BEe - 0 1")
	require.NoError(t, err)
	m, err = last.ParseUCI("b1c3h")
	require.NoError(t, err)
	last.Make(m)
	require.Equal(t, "4k3/8/8/8/8/2N5/8/1H2K3[e] b e - 1 1", last.FEN())
}

// TestSHouseGating: in S-House a captured piece goes to hand and gates
// like the hawk and the elephant (c1d2n, on castling too), a pawn never
// (not on its first rank), and an empty hand keeps its gates for the
// next capture, as Fairy-Stockfish plays it.
func TestSHouseGating(t *testing.T) {
	v := lookup(t, "shouse")
	p, err := v.ParseFEN("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[NPq] w KQABCDEFGHkqabcdefgh - 0 1")
	require.NoError(t, err)
	moves := uciMoves(p)
	require.Subset(t, moves, []string{"e1g1n", "h1e1n", "e1c1n", "a1e1n", "a1b1n", "N@d4", "P@d4"})
	require.NotContains(t, moves, "a1b1p", "a pawn may not enter on the first rank")
	_, err = p.ParseUCI("a1b1z")
	require.ErrorContains(t, err, `bad promotion or gating piece "z"`)
	m, err := p.ParseUCI("e1c1n")
	require.NoError(t, err)
	require.Equal(t, "O-O-O/Ne1", p.SAN(m))
	p.Make(m)
	require.NoError(t, p.CheckConsistency())
	require.Equal(t, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KRN2R[Pq] b BCDFGHkqabcdefgh - 1 1", p.FEN(), "as Fairy-Stockfish writes it")

	empty, err := v.ParseFEN("rnbqkbnr/pppp1ppp/8/4p3/3N4/8/PPPPPPPP/RNBQKB1R[] w KQABCDEFGHkqabcdefgh - 0 2")
	require.NoError(t, err)
	require.Equal(t, "rnbqkbnr/pppp1ppp/8/4p3/3N4/8/PPPPPPPP/RNBQKB1R[] w KQABCDEFGHkqabcdefgh - 0 2", empty.FEN(), "the gates stay")
	for _, s := range []string{"d4e6", "g8f6"} {
		m, err := empty.ParseUCI(s)
		require.NoError(t, err, s)
		empty.Make(m)
	}
	m, err = empty.ParseUCI("e6f8")
	require.NoError(t, err)
	empty.Make(m) // takes the bishop: it is White's to gate
	m, err = empty.ParseUCI("h8g8")
	require.NoError(t, err)
	empty.Make(m)
	require.Contains(t, uciMoves(empty), "b1c3b", "the captured bishop gates")
}

// FuzzParseFENGating: Seirawan FENs (gate letters in the castling field)
// either fail with an error or round trip with every move consistent.
func FuzzParseFENGating(f *testing.F) {
	v := lookup(f, "seirawan")
	for _, seed := range []string{v.StartFEN, "r3k2r/8/8/8/8/8/8/R3K2R[EHeh] w KQkq - 0 1",
		"r1bqkb1r/ph1p1p1p/np2p3/4P1pe/P1p3n1/1PPPQ1P1/3KNP1P/REB3NR[H] w ACGHkq - 0 15", "4k3/8/8/8/8/8/8/1N2K3[He] w BEe - 0 1",
		"4k3/8/8/8/8/8/8/4K3[EH] w Z - 0 1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, fen string) { roundTrip(t, v, fen) })
}

// TestNoDropChecks: with dropChecks = false a drop may not give check.
func TestNoDropChecks(t *testing.T) {
	c := variants.Builtin()
	require.NoError(t, c.Load("test.ini", []byte("[quiethouse:crazyhouse]\ndropChecks = false\n")))
	v, err := c.Lookup("quiethouse")
	require.NoError(t, err)
	p, err := v.ParseFEN("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
	require.NoError(t, err)
	moves := uciMoves(p)
	require.NotContains(t, moves, "Q@e2", "on the king's file: check")
	require.NotContains(t, moves, "Q@a4", "on its diagonal: check")
	require.Contains(t, moves, "Q@b6")
	zh, err := crazyhouse(t).ParseFEN("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
	require.NoError(t, err)
	require.Contains(t, uciMoves(zh), "Q@e2")
}
