package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

func TestFENRoundTrip(t *testing.T) {
	v := variants.Chess()
	for _, c := range readPerftEPD(t, "testdata/standard.epd") {
		p, err := v.ParseFEN(c.FEN)
		require.NoError(t, err)
		require.Equal(t, c.FEN, p.FEN())
	}
}

func TestFENDefaultsAndNormalisation(t *testing.T) {
	v := variants.Chess()
	p, err := v.ParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
	require.NoError(t, err)
	require.Equal(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", p.FEN())
	// An en-passant square no pawn can use is dropped.
	p, err = v.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	require.NoError(t, err)
	require.Equal(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", p.FEN())
	// Shredder-FEN castling letters name the rooks.
	p, err = v.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
	require.NoError(t, err)
	require.Equal(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", p.FEN())
}

func TestFENErrors(t *testing.T) {
	v := variants.Chess()
	for fen, want := range map[string]string{
		"":                                     "needs at least the board",
		"8/8/8/8/8/8/8/8":                      "needs at least the board",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w": "board has 7 ranks, variant chess has 8",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w": "rank 6 has 9 files, board is 8 wide",
		"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w": "rank 6 has 7 files, board is 8 wide",
		"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w": "rank 7: unknown piece letter 'x'",
		"rnbqkbnr/pppp0ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w": "empty run of 0",
		"rnbqkbnr/pppp?ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w": "unexpected character '?'",
		"4k3/8/8/8/8/8/8/4K3 x":                         "side to move \"x\"",
		"4k3/8/8/8/8/8/8/4K3 w KQ":                      "needs the white king on e1 and rook on h1",
		"4k3/8/8/8/8/8/8/R3K3 w QQ":                     "given twice",
		"4k3/8/8/8/8/8/8/4K3 w Z":                       "no white castling 'Z'",
		"4k3/8/8/8/8/8/8/4K3 w - e9":                    "rank 9 is off the 8-rank board",
		"4k3/8/8/8/8/8/8/4K3 w - e6":                    "no black pawn has just stepped over it",
		"4k3/8/8/8/8/8/8/4K3 w - - x":                   "halfmove clock",
		"4k3/8/8/8/8/8/8/4K3 w - - 0 y":                 "fullmove number",
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra":           "has 7 fields",
		"4k3/8/8/8/8/8/8/4K2r b - - 0 1":                "white is in check but it is black's move",
		"P3k3/8/8/8/8/8/8/4K3 w - - 0 1":                "white pawn on a8 should have promoted",
	} {
		_, err := v.ParseFEN(fen)
		require.Error(t, err, fen)
		require.Contains(t, err.Error(), want, fen)
	}
}

// TestImpossiblePositions: every variant's own rules decide what a
// position may hold: how many royal pieces, where pawns may stand.
func TestImpossiblePositions(t *testing.T) {
	for _, tc := range []struct {
		variant, fen, want string // want "" when the position is fine
	}{
		{"chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has no king"},
		{"chess", "4k3/8/8/8/8/8/8/8 b - - 0 1", "white has no king"},
		{"chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 king(s), variant chess allows 1"},
		{"chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "white pawn on a1 stands behind the ranks pawns start on"},
		{"chess", "p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "black pawn on a8 stands behind"},
		{"chess", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "black is in check but it is white's move"},
		{"horde", "4k3/8/8/8/8/8/8/PPPP4 w - - 0 1", ""}, // horde pawns start on the first rank
		{"atomic", "8/8/8/8/8/8/3P4/4K3 b - - 0 1", ""},  // Black's king exploded: decided
		{"twokings", "2kkk3/8/8/8/8/8/8/3KK3 w - - 0 1", "black has 3 king(s), variant twokings allows 2"},
		{"twokings", "3kk3/8/8/8/8/8/8/4K3 w - - 0 1", ""},  // one of White's kings was taken
		{"extinction", "4k3/8/8/8/8/8/8/4Q3 w - - 0 1", ""}, // no royal piece: nothing to count
		{"knightmate", "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has no"},
	} {
		v, err := variants.Lookup(tc.variant)
		require.NoError(t, err)
		_, err = v.ParseFEN(tc.fen)
		if tc.want == "" {
			require.NoError(t, err, "%s %s", tc.variant, tc.fen)
			continue
		}
		require.ErrorContains(t, err, tc.want, "%s %s", tc.variant, tc.fen)
	}
}

// TestStartPositionRoyals: NewVariant holds the start position to what a
// FEN is held to later, and to a royal piece a side, which later FENs are
// measured against: a variant with kings cannot start without them, but
// for a side that loses by extinction (horde's pawns) or drops its king
// first (placement).
func TestStartPositionRoyals(t *testing.T) {
	rules := func(name string) engine.Rules {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		return v.Rules
	}
	for _, tc := range []struct {
		name, variant, fen, want string // want "" when the start is fine
	}{
		{"empty board", "chess", "8/8/8/8/8/8/8/8 w - - 0 1", `start position: FEN "8/8/8/8/8/8/8/8 w - - 0 1": white has no king`},
		{"queens only", "chess", "3q4/8/8/8/8/8/8/3Q4 w - - 0 1", "white has no king"},
		{"no black king", "chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has no king"},
		{"no white general", "xiangqi", "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", "white has no general"},
		{"in check", "chess", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "black is in check but it is white's move"},
		{"horde", "horde", "4k3/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1", ""},
		{"kings in hand", "placement", "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQkq] w - - 0 1", ""},
		{"one king in hand", "placement", "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQq] w - - 0 1", "black has no king"},
		{"no royal pieces", "antichess", "3q4/8/8/8/8/8/8/3Q4 w - - 0 1", ""},
	} {
		r := rules(tc.variant)
		r.StartFEN = tc.fen
		_, err := engine.NewVariant(r)
		if tc.want == "" {
			require.NoError(t, err, tc.name)
			continue
		}
		require.ErrorIs(t, err, engine.ErrStartPosition, tc.name)
		require.ErrorContains(t, err, tc.want, tc.name)
	}
	// Without its extinction rule, horde's own start is refused.
	r := rules("horde")
	r.ExtinctionValue = engine.NoValue
	_, err := engine.NewVariant(r)
	require.ErrorContains(t, err, "white has no king")
}

func TestSquareNames(t *testing.T) {
	for _, name := range []string{"a1", "h8", "j10", "p16", "a16"} {
		s, err := engine.ParseSquare(name, 16, 16)
		require.NoError(t, err)
		require.Equal(t, name, s.String())
	}
	for _, bad := range []string{"", "a", "a0", "i1", "a9", "q1", "a01", "1a", "a1x"} {
		_, err := engine.ParseSquare(bad, 8, 8)
		require.Error(t, err, bad)
	}
}

func TestParseUCIErrors(t *testing.T) {
	v := variants.Chess()
	p := v.StartPosition()
	for s, want := range map[string]string{
		"e2e5":   "not legal",
		"e7e5":   "not legal",
		"e2":     "bad square",
		"z2e4":   "bad square",
		"e2e4x":  "bad promotion",
		"e2e4qq": "bad promotion",
		"":       "bad square",
	} {
		_, err := p.ParseUCI(s)
		require.Error(t, err, s)
		require.Contains(t, err.Error(), want, s)
	}
	m, err := p.ParseUCI("e2e4")
	require.NoError(t, err)
	require.Equal(t, engine.DoubleStep, m.Kind())
}

// FuzzParseFEN: any input, in chess or Chess960, either fails with an
// error or gives a position whose FEN parses back to the same FEN, whose moves can all be made and
// unmade, and whose key is consistent.
func FuzzParseFEN(f *testing.F) {
	chess960, err := variants.Lookup("chess960")
	require.NoError(f, err)
	for _, seed := range []string{variants.ChessFEN, "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1",
		"kk6/8/8/8/8/8/8/KK6 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", "10/8/8/8/8/8/8/8 b",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", "1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w BHbg - 0 1"} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, fen string, in960 bool) {
		v := variants.Chess()
		if in960 {
			v = chess960 // Chess960 castling fields, both forms
		}
		p, err := v.ParseFEN(fen)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "FEN "), err.Error())
			return
		}
		out := p.FEN()
		q, err := v.ParseFEN(out)
		require.NoError(t, err, out)
		require.Equal(t, out, q.FEN())
		require.Equal(t, p.Key(), q.Key())
		shredder, err := v.ParseFEN(p.ShredderFEN())
		require.NoError(t, err, p.ShredderFEN())
		require.Equal(t, out, shredder.FEN())
		for _, m := range p.LegalMoves(nil) {
			p.Make(m)
			require.Equal(t, p.ComputeKey(), p.Key())
			p.Result()
			p.Unmake()
			require.Equal(t, out, p.FEN())
		}
	})
}

// FuzzParseMove: UCI and SAN parsing never panic, and whatever they accept
// is a legal move that prints back the same way.
func FuzzParseMove(f *testing.F) {
	// Chess (castling, promotion), kyoto shogi (demotions a1a2-, promoted
	// drops +P@c3) and sittuyin (promotion in place, f6f6f).
	positions := []struct{ variant, fen string }{
		{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{"kyotoshogi", "p+nks+l/5/5/5/+LSK1P[N] w - - 0 1"},
		{"sittuyin", "4k3/8/5P2/8/8/2P5/8/4K3[] w - - 0 40"},
	}
	for _, seed := range []string{"e2e4", "e1g1", "a7a8q", "O-O", "Nxf7+", "0-0-0", "dxe6", "a10a9", "e2e4q",
		"a1a2-", "+N@c3", "N@c3", "e1e2+", "f6f6f", "f6e7f", "+Q@c3"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, pos := range positions {
			v, err := variants.Lookup(pos.variant)
			require.NoError(t, err)
			p, err := v.ParseFEN(pos.fen)
			require.NoError(t, err)
			if m, err := p.ParseUCI(s); err == nil {
				// What it accepts prints as itself, but for castling written
				// as the king taking its rook (e1h1), which prints as e1g1.
				again, err := p.ParseUCI(v.UCI(m))
				require.NoError(t, err)
				require.Equal(t, m, again)
				if m.Kind() != engine.Castle {
					require.Equal(t, s, v.UCI(m))
				}
			}
			if m, err := p.ParseSAN(s); err == nil {
				again, err := p.ParseSAN(p.SAN(m))
				require.NoError(t, err)
				require.Equal(t, m, again)
			}
		}
	})
}

func TestSetUp(t *testing.T) {
	v := variants.Chess()
	k, q := engine.MakePiece(v.TypeByLetter('K'), engine.White), engine.MakePiece(v.TypeByLetter('Q'), engine.White)
	bk := engine.MakePiece(v.TypeByLetter('K'), engine.Black)
	sq := func(s string) engine.Square {
		x, err := engine.ParseSquare(s, 8, 8)
		require.NoError(t, err)
		return x
	}
	p, err := v.SetUp([]engine.Placement{{sq("e1"), k}, {sq("d1"), q}, {sq("e8"), bk}}, engine.Black)
	require.NoError(t, err)
	require.Equal(t, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1", p.FEN())
	for name, pieces := range map[string][]engine.Placement{
		"two on one square":         {{sq("e1"), k}, {sq("e1"), q}, {sq("e8"), bk}},
		"no such piece":             {{sq("e1"), k}, {sq("e8"), bk}, {sq("a1"), engine.MakePiece(30, engine.White)}},
		"off the board":             {{sq("e1"), k}, {sq("e8"), bk}, {engine.SquareAt(9, 0), q}},
		"side not to move in check": {{sq("e1"), k}, {sq("e2"), q}, {sq("e8"), bk}},
	} {
		_, err := v.SetUp(pieces, engine.White)
		require.Error(t, err, name)
	}
}
