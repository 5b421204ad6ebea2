package variants_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// position sets up a variant position and plays moves in UCI form.
func position(t *testing.T, variant, fen string, moves ...string) *engine.Position {
	t.Helper()
	v, err := variants.Lookup(variant)
	require.NoError(t, err)
	p := v.StartPosition()
	if fen != "" {
		p, err = v.ParseFEN(fen)
		require.NoError(t, err)
	}
	for _, s := range moves {
		m, err := p.ParseUCI(s)
		require.NoError(t, err, s)
		p.Make(m)
		require.NoError(t, p.CheckConsistency())
	}
	return p
}

func legal(p *engine.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, p.Variant().UCI(m))
	}
	slices.Sort(out)
	return out
}

func TestAtomic(t *testing.T) {
	// Rxf7 blows up the black king next to f7: White wins at once.
	p := position(t, "atomic", "4k3/5p2/8/8/8/8/8/4KR2 w - - 0 1", "f1f7")
	require.Equal(t, "4K3 b - - 0 1", p.FEN()[len(p.FEN())-13:])
	r := p.Result()
	require.Equal(t, engine.RoyalLost, r.Reason)
	require.Equal(t, "1-0", r.PGN())
	require.Empty(t, p.LegalMoves(nil))
	p.Unmake()
	require.Equal(t, "4k3/5p2/8/8/8/8/8/4KR2 w - - 0 1", p.FEN())

	// Kings cannot capture; touching kings are not in check.
	p = position(t, "atomic", "8/8/8/8/8/3k4/4p3/4K3 w - - 0 1")
	require.NotContains(t, legal(p), "e1e2")
	require.False(t, p.InCheck())
	// A capture that would blow up one's own king is illegal.
	p = position(t, "atomic", "8/8/8/8/8/3k4/8/q3K2R w - - 0 1")
	require.NotContains(t, legal(p), "e1d1")
}

func TestThreeCheck(t *testing.T) {
	p := position(t, "3check", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 1+3 0 3")
	require.Contains(t, p.FEN(), " 1+3 ")
	p = position(t, "3check", p.FEN(), "f1b5")
	require.Contains(t, p.FEN(), " 0+3 ")
	r := p.Result()
	require.Equal(t, engine.CheckLimit, r.Reason)
	require.Equal(t, "1-0", r.PGN())
	_, err := p.Variant().ParseFEN("8/8/8/8/8/8/8/K6k w - - 4+3 0 1")
	require.ErrorContains(t, err, "check counts")
}

func TestRacingKings(t *testing.T) {
	p := position(t, "racingkings", "")
	for _, m := range legal(p) {
		q := position(t, "racingkings", "", m)
		require.False(t, q.InCheck(), "%s gives check", m)
	}
	// White reaches the eighth rank; Black may still equalise if its
	// king can reach the eighth rank at once, else White has won now
	// (lichess's and python-chess's rule).
	p = position(t, "racingkings", "8/6K1/8/8/8/8/1k6/8 w - - 0 1", "g7g8")
	require.Equal(t, "1-0", p.Result().PGN(), "b2 is too far")
	p = position(t, "racingkings", "8/1k4K1/8/8/8/8/8/8 w - - 0 1", "g7g8")
	require.False(t, p.Result().Over(), "b7 can reach b8")
	q := position(t, "racingkings", p.FEN(), "b7b6")
	require.Equal(t, "1-0", q.Result().PGN(), "b6 is not the eighth rank")
	d := position(t, "racingkings", "8/1k4K1/8/8/8/8/8/8 w - - 0 1", "g7g8", "b7b8")
	require.Equal(t, "1/2-1/2", d.Result().PGN())
	o := position(t, "racingkings", "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1", "c7c8")
	require.Equal(t, "1-0", o.Result().PGN(), "Black's own pieces hold the squares its king would reach")
}

func TestKingOfTheHillAndExtinction(t *testing.T) {
	p := position(t, "kingofthehill", "8/8/8/8/8/3K4/8/7k w - - 0 1", "d3e4")
	require.Equal(t, engine.FlagReached, p.Result().Reason)
	require.Equal(t, "1-0", p.Result().PGN())

	// Extinction: capturing the last queen wins; kings may be captured.
	p = position(t, "extinction", "rnb1kbnr/pppppppp/8/8/4q3/8/PPPPQPPP/RNB1KBNR w KQkq - 0 1", "e2e4")
	r := p.Result()
	require.Equal(t, engine.Extinction, r.Reason)
	require.Equal(t, "1-0", r.PGN())
}

func TestCompulsoryCapture(t *testing.T) {
	p := position(t, "antichess", "", "e2e4", "d7d5")
	require.Equal(t, []string{"e4d5"}, legal(p))
	// Losing everything wins.
	p = position(t, "antichess", "8/8/8/p7/8/8/8/R6K w - - 0 1")
	require.Equal(t, []string{"a1a5"}, legal(p))
	p = position(t, "antichess", "8/8/8/8/8/8/1p6/8 w - - 0 1")
	require.Equal(t, "1-0", p.Result().PGN())
}

func TestStratomicLaunch(t *testing.T) {
	// A black knight is gone: missiles may launch.
	fen := "10/xr1bqkbnrx/pppppppppp/10/10/10/10/PPPPPPPPPP/XRNBQKBNRX/10 w KQkq - 0 1"
	p := position(t, "stratomic", fen)
	moves := legal(p)
	require.Contains(t, moves, "a2*c9")
	require.NotContains(t, moves, "a2*e5", "an empty area hits nothing")
	p = position(t, "stratomic", fen)
	launch, err := p.ParseUCI("a2*c9")
	require.NoError(t, err)
	require.Equal(t, "Xa2*c9", p.SAN(launch))
	back, err := p.ParseSAN("Xa2*c9")
	require.NoError(t, err)
	require.Equal(t, launch, back)
	p = position(t, "stratomic", fen, "a2*c9")
	// b9 rook, d9 bishop, b8 c8 d8 pawns and the missile are gone; kings stay.
	require.Equal(t, "10/x3qkbnrx/p3pppppp/10/10/10/10/PPPPPPPPPP/1RNBQKBNRX/10 b KQk - 0 1", p.FEN())
	p.Unmake()
	require.Equal(t, fen, p.FEN())
	// Without a capture yet, no launch.
	require.NotContains(t, legal(position(t, "stratomic", "")), "a2*c9")
}

func TestPromotionRules(t *testing.T) {
	// Grand: a pawn may stay a pawn on the 8th and 9th ranks, must promote on
	// the 10th, and only to a piece it has lost.
	p := position(t, "grand", "4k5/8P1/10/10/10/10/10/10/1NBQKCA3/R9 w - - 0 1")
	require.Equal(t, []string{"i9i10b", "i9i10n", "i9i10r"}, filter(legal(p), "i9"))
	p = position(t, "grand", "4k5/10/8P1/10/10/10/10/10/1NBQKCA3/R9 w - - 0 1")
	require.Equal(t, []string{"i8i9", "i8i9b", "i8i9n", "i8i9r"}, filter(legal(p), "i8"))
}

func filter(moves []string, from string) []string {
	var out []string
	for _, m := range moves {
		if m[:len(from)] == from && (len(m) == len(from) || m[len(from)] < '0' || m[len(from)] > '9') {
			out = append(out, m)
		}
	}
	return out
}

func TestTwoKingsAndHorde(t *testing.T) {
	// The f1 king is not royal: it may be left attacked and captured.
	p := position(t, "twokings", "4k3/8/8/8/8/8/5r2/4KK2 w - - 0 1")
	require.False(t, p.InCheck())
	p = position(t, "twokings", "4k3/8/8/8/8/8/5r2/4KK2 b - - 0 1", "f2f1")
	require.False(t, p.Result().Over())

	// Horde: a double step from the first rank leaves no en-passant square.
	p = position(t, "horde", "4k3/8/8/8/8/8/3p4/4P3 w - - 0 1", "e1e3")
	require.Equal(t, engine.NoSquare, p.EnPassant())
}

// TestRegionKeys: mobilityRegion confines any piece by colour (a custom
// one too, riding through squares outside to one inside), and the keys of
// the Asian rules are checked.
func TestRegionKeys(t *testing.T) {
	c := variants.Builtin()
	require.NoError(t, c.Load("palace.ini", []byte(`[palace]
customPiece1 = w:R
mobilityRegionWhiteCustomPiece1 = a1 a3 a8 b1
startFen = 4k3/8/8/8/8/8/p7/W3K3 w - - 0 1
`)))
	v, err := c.Lookup("palace")
	require.NoError(t, err)
	var moves []string
	for _, m := range v.StartPosition().LegalMoves(nil) {
		if m.From().String() == "a1" {
			moves = append(moves, v.UCI(m))
		}
	}
	slices.Sort(moves)
	require.Equal(t, []string{"a1b1"}, moves, "a2 blocks a3 and a8; c1 and beyond lie outside")
	for text, want := range map[string]string{
		"mobilityRegionGreenKing = e1":                              "want mobilityRegionWhitePiece",
		"mobilityRegionWhiteDragon = e1":                            "unknown piece",
		"mobilityRegionWhiteKing = z99":                             "region",
		"countingRule = cambodian":                                  "want asean or makruk or none",
		"materialCounting = unweighted":                             "want janggi or none",
		"soldierPromotionRank = 0":                                  "not a number from 1",
		"diagonalLines = d1 q9":                                     "region",
		"customPiece1 = c:pR\nmobilityRegionWhiteCustomPiece1 = *1": "cannot hop",
	} {
		err := variants.Builtin().Load("bad.ini", []byte("[bad]\n"+text+"\n"))
		require.ErrorContains(t, err, want, text)
	}
}

// TestImpossiblePositions: every FEN is checked against its variant's own
// rules — confinement regions, immobility, nifu, the counting limit, hands
// no larger than the game's material — with a specific error.
func TestImpossiblePositions(t *testing.T) {
	for _, c := range []struct{ variant, fen, want string }{
		{"xiangqi", "k8/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "black general on a10 stands outside its region"},
		{"janggi", "k8/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "black general on a10 stands outside its region"},
		{"xiangqi", "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", ""},
		{"shogi", "4k4/9/9/9/9/9/4P4/4P4/4K4[-] w 0 1", "white has two shogipawns on the e-file"},
		{"shogi", "4k4/9/9/9/9/9/4P4/4+P4/4K4[-] w 0 1", ""},
		{"shogi", "P3k4/9/9/9/9/9/9/9/4K4[-] w 0 1", "white shogipawn on a9 could never move"},
		{"shogi", "4k4/9/9/9/9/9/9/9/N3K4[-] b 0 1", ""},
		{"shogi", "4k4/N8/9/9/9/9/9/9/4K4[-] b 0 1", "white shogiknight on a8 could never move"},
		{"makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - 32 99 1", "count 99 is above its limit 32"},
		{"makruk", "4k3/8/8/8/8/8/8/R3K3 b - 32 20 1", ""},
		// Against a bare king the count starts at twice the pieces on the
		// board, past the limit here: reachable, and already drawn.
		{"makruk", "k7/8/8/8/8/8/8/RRNNSSMK b - 16 18 1", ""},
		{"makruk", "k7/8/8/8/8/8/8/RRNNSSMK b - 16 19 1", "count 19 is above its limit 16"},
		{"seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HHHHhe] w KQBCDFGkqbcdfg - 0 1", "white holds 4 hawk(s) in hand, variant seirawan starts with 1"},
		{"crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[" + strings.Repeat("P", 68) + "] w KQkq - 0 1", "68 pawns in hand, variant crazyhouse has 16 in all"},
		{"crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQ] w KQkq - 0 1", "3 queens in hand, variant crazyhouse has 2 in all"},
		{"crazyhouse", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pp] w KQkq - 0 4", ""},
	} {
		v, err := variants.Lookup(c.variant)
		require.NoError(t, err)
		_, err = v.ParseFEN(c.fen)
		if c.want == "" {
			require.NoError(t, err, "%s %s", c.variant, c.fen)
		} else {
			require.ErrorContains(t, err, c.want, "%s %s", c.variant, c.fen)
		}
	}
}
