package variants_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestUserFileMatchesBuiltin: a user variant derived from a built-in, or
// written out in full, plays exactly like it.
func TestUserFileMatchesBuiltin(t *testing.T) {
	file := `
# a user's variants
[cap2:capablanca]

[mychess:chess]
startFen = r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1

[mycapablanca]
maxFile = j
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
archbishop = a
customPiece1 = c:RN
castlingKingsideFile = i
castlingQueensideFile = c
promotionPieceTypes = qrbnac

[mygrass:mycapablanca]
grasshopper = g
`
	c := variants.Builtin()
	require.NoError(t, c.Load("user.ini", []byte(file)))
	// Without a description key the variant says where it comes from.
	require.Equal(t, "a user's variant (user.ini, line 17, derived from mycapablanca)", c.Description("mygrass"))
	perft := func(name, fen string, depth int) uint64 {
		v, err := c.Lookup(name)
		require.NoError(t, err)
		p := v.StartPosition()
		if fen != "" {
			p, err = v.ParseFEN(fen)
			require.NoError(t, err)
		}
		return p.Perft(depth)
	}
	mid := "r1abqkb1nr/p1ppppp1pp/2n3c3/1p5p2/4P5/2PP2P3/PP3P1PPP/RNABQKBCNR w KQkq - 1 5"
	depth, kiwipete, midCount := 4, uint64(4085603), uint64(3239820)
	if testing.Short() {
		// A ply less: the same moves of every piece, half a million
		// nodes where depth 4 counted fourteen million; the
		// middlegame's count is the built-in capablanca's, whose counts
		// TestPerftVariants checks against Fairy-Stockfish's.
		depth, kiwipete, midCount = 3, 97862, perft("capablanca", mid, 3)
	}
	require.Equal(t, perft("capablanca", "", depth), perft("cap2", "", depth))
	require.Equal(t, perft("capablanca", "", depth), perft("mycapablanca", "", depth))
	require.Equal(t, kiwipete, perft("mychess", "", depth))
	require.Equal(t, midCount, perft("mycapablanca", mid, depth))
	require.Equal(t, midCount, perft("mygrass", mid, depth), "an unused piece type changes nothing")
	require.Contains(t, c.Names(), "mygrass")
}

func TestVariantFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
	}{
		{"unknown key", "[a]\nfoo = 1\n", `x.ini:2: unknown key "foo"`},
		{"bad bool", "[a]\ncastling = maybe\n", `x.ini:2: castling: "maybe" is not true or false`},
		{"bad number", "[a]\nmaxRank = 17\n", `x.ini:2: maxRank: "17" is not a number from 1 to 16`},
		{"bad file", "[a]\nmaxFile = z\n", `x.ini:2: maxFile: "z" is not a file`},
		{"bad value", "[a]\nstalemateValue = great\n", `x.ini:2: stalemateValue: "great" is not win, loss, draw or none`},
		{"bad region", "[a]\npromotionRegionWhite = *x\n", `x.ini:2: promotionRegionWhite: region "*x": bad rank`},
		{"letter twice", "[a]\namazon = q\n", `x.ini:2: piece letter 'q' is already used by queen`},
		{"bad betza", "[a]\ncustomPiece1 = x:Y\n", `x.ini:2: betza "Y": unknown atom 'Y'`},
		{"custom without betza", "[a]\ncustomPiece1 = x\n", `x.ini:2: customPiece1 = "x": a custom piece needs letter:BETZA`},
		{"unknown parent", "[a:nosuch]\n", `x.ini:1: [a:nosuch]: unknown parent variant "nosuch"`},
		{"defined twice", "[a]\n[a]\n", `x.ini:2: [a]: defined twice in this file`},
		{"builtin name", "[chess]\n", `x.ini:1: [chess]: a variant of that name exists already`},
		{"bad header", "[a\n", `x.ini:1: section header "[a" has no closing ]`},
		{"bad name", "[a b]\n", `x.ini:1: bad variant name "a b"`},
		{"key outside", "castling = true\n", `x.ini:1: castling: key outside a [section]`},
		{"no equals", "[a]\njunk\n", `x.ini:2: expected key = value, got "junk"`},
		{"fen wrong size", "[a]\nmaxFile = 10\n", `x.ini:1: [a]: the board is 10x8 (maxFile, maxRank) but the start position inherited from chess is 8x8: give startFen`},
		{"given fen wrong size", "[a]\nmaxFile = 10\nstartFen = 8/8/8/8/8/8/8/4K2k w - - 0 1\n", `x.ini:3: [a]: startFen is 8x8 but the board is 10x8`},
		// A start position passes what any FEN passes, and more: each
		// side has a royal piece, since later FENs are held to the
		// start's; the error names the startFen line.
		{"no kings", "[a]\n\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n", `x.ini:3: [a]: start position: FEN "8/8/8/8/8/8/8/8 w - - 0 1": white has no king`},
		{"queens, no kings", "[a:chess]\nstartFen = 3q4/8/8/8/8/8/8/3Q4 w - - 0 1\n", `x.ini:2: [a]: start position: FEN "3q4/8/8/8/8/8/8/3Q4 w - - 0 1": white has no king`},
		{"one king", "[a]\nstartFen = 4k3/8/8/8/8/8/8/3Q4 w - - 0 1\n", `x.ini:2: [a]: start position: FEN "4k3/8/8/8/8/8/8/3Q4 w - - 0 1": white has no king`},
		{"start in check", "[a]\nstartFen = 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1\n", `x.ini:2: [a]: start position: FEN "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1": black is in check`},
		// Inherited, the start position is made wrong by the section's
		// other keys: the header is named.
		{"horde without extinction", "[a:horde]\nextinctionValue = none\n", `x.ini:1: [a]: start position: FEN "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1": white has no king`},
		{"seven fields", "[a]\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1 1\n", `x.ini:2: startFen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1 1" has 7 fields, at most 6`},
		{"eight fields", "[a:3check]\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1 1\n", `x.ini:2: startFen: "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1 1" has 8 fields`},
		{"check count without check counting", "[a]\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1\n", `x.ini:2: [a]: start position: FEN "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1": has 7 fields, at most 6`},
		{"no side to move", "[a]\nstartFen = 4k3/8/8/8/8/8/8/4K3\n", `x.ini:2: startFen: "4k3/8/8/8/8/8/8/4K3" needs at least the board and the side to move`},
		{"bad side to move", "[a]\nstartFen = 4k3/8/8/8/8/8/8/4K3 - w\n", `x.ini:2: startFen: "4k3/8/8/8/8/8/8/4K3 - w": side to move "-": want w or b`},
		{"16 files", "[a]\nmaxFile = 16\n", `the board is 16x8`},
		{"one error for a bad key", "[a]\nmaxFile = 17\n", "x.ini:2: maxFile: \"17\" is not a file (a to p, or 1 to 16)"},
		{"unknown promotion", "[a]\npromotionPieceTypes = qz\n", `x.ini:1: [a]: promotion piece Z is not defined`},
		{"bad limit", "[a]\npromotionLimit = q1\n", `x.ini:2: promotionLimit: promotion limit "q1": want letter:count`},
		{"bad piece value", "[a]\npieceValues = q:lots\n", `x.ini:2: pieceValues: "q:lots": the value must be a number of centipawns`},
		{"bad piece name", "[a]\npieceNames = queen\n", `x.ini:2: pieceNames: "queen": want letter:value`},
		{"gating, nothing to gate", "[a:chess]\ngating = true\n", `gating: no piece can gate: the start position's hand holds none`},
		{"gating, too many kinds", "[a:seirawan]\ncapturesToHand = true\ncustomPiece1 = a:W\ncustomPiece2 = c:F\n", `gating: 8 kinds of piece could gate, at most 7`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := variants.Builtin()
			before := c.Names()
			err := c.Load("x.ini", []byte(tc.file))
			require.ErrorContains(t, err, tc.want)
			require.NotContains(t, err.Error(), "\n", "one problem, one error")
			require.Equal(t, before, c.Names(), "nothing half-loaded")
		})
	}
}

// TestCheckReportsEveryProblem: all problems of a file at once, each with
// its line.
func TestCheckReportsEveryProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.ini")
	require.NoError(t, os.WriteFile(path, []byte("[good:chess]\n[bad]\nfoo = 1\ncastling = x\n[worse:nosuch]\n"), 0o644))
	err := variants.Builtin().Check(path)
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 3)
	require.Contains(t, lines[0], "bad.ini:3:")
	require.Contains(t, lines[1], "bad.ini:4:")
	require.Contains(t, lines[2], "bad.ini:5:")
	require.ErrorContains(t, variants.Builtin().Check(filepath.Join(t.TempDir(), "missing.ini")), "no such file")
}

// TestCheckReportsStartFEN: a startFen the engine could never read is
// reported at its line even when the section fails for another key too
// (and is not built).
func TestCheckReportsStartFEN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.ini")
	require.NoError(t, os.WriteFile(path, []byte("[bad:chess]\nfoo = 1\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1 1\n"), 0o644))
	err := variants.Builtin().Check(path)
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 2, err.Error())
	require.Contains(t, lines[0], `bad.ini:2: unknown key "foo"`)
	require.Contains(t, lines[1], `bad.ini:3: startFen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1 1" has 7 fields, at most 6`)
}

// TestStartPositionsWithoutKings: a side may start without a royal piece
// where extinction is its way to lose (horde), or with it in hand where
// it is dropped first (placement); a variant without royal pieces has
// nothing to count.
func TestStartPositionsWithoutKings(t *testing.T) {
	c := variants.Builtin()
	require.NoError(t, c.Load("ok.ini", []byte(`
[myhorde:horde]
startFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1

[myplacement:placement]
startFen = 8/pppppppp/8/8/8/8/PPPPPPPP/8[KQkq] w - - 0 1

[mygiveaway:giveaway]
startFen = 3q4/8/8/8/8/8/8/3Q4 w - - 0 1
`)))
	for _, name := range []string{"myhorde", "myplacement", "mygiveaway"} {
		v, err := c.Lookup(name)
		require.NoError(t, err, name)
		require.NotZero(t, v.StartPosition().Perft(1), name)
	}
}

// FuzzLoadVariantFile: any file loads completely or not at all, never
// panics, and every loaded variant has a playable start position.
func FuzzLoadVariantFile(f *testing.F) {
	f.Add("[a:capablanca]\nstartFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n")
	f.Add("[b]\nmaxRank = 6\nmaxFile = 6\nstartFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\ncastling = false\n")
	f.Add("[c:atomic]\ncustomPiece1 = g:gQ\nmustCapture = true\n# comment\n")
	f.Add("[d]\npawn = p:mfFcfeWimfnA\nflagPiece = k\nflagRegionWhite = *8\n")
	f.Add("[e:xiangqi]\nmobilityRegionWhiteHorse = *1 *2 *3\nsoldierPromotionRank = 4\nflyingGeneral = false\n")
	f.Add("[f:janggi]\ndiagonalLines = d1 f1 e2\nkingPass = false\nbikjangRule = false\nmaterialCounting = none\n")
	f.Add("[g:makruk]\ncountingRule = none\nmobilityRegionBlackCustomPiece1 = a*\ncustomPiece1 = x:nZ\n")
	f.Add("[h]\nstartFen = 3q4/8/8/8/8/8/8/3Q4 w - - 0 1\n")
	f.Add("[i:chess]\nfoo = 1\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1 1\n")
	f.Add("[j:horde]\nextinctionValue = none\n")
	f.Add("[k:3check]\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 2+3 0 1\n")
	f.Fuzz(func(t *testing.T, file string) {
		c := variants.Builtin()
		before := len(c.Names())
		if err := c.Load("fuzz.ini", []byte(file)); err != nil {
			require.Len(t, c.Names(), before)
			return
		}
		for _, name := range c.Names()[before:] {
			v, err := c.Lookup(name)
			require.NoError(t, err)
			v.StartPosition().Perft(2)
		}
	})
}

// TestUnboundedInput: a huge or endless file is refused without being
// read whole, and a file of garbage lists its first problems and a count.
func TestUnboundedInput(t *testing.T) {
	c := variants.Builtin()
	if _, err := os.Stat("/dev/zero"); err == nil {
		require.ErrorContains(t, c.LoadFile("/dev/zero"), "not a variant file")
		require.ErrorContains(t, c.Check("/dev/zero"), "not a variant file")
	}
	path := filepath.Join(t.TempDir(), "garbage.ini")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("[x]\nnonsense\n", 200)), 0o644))
	err := c.LoadFile(path)
	require.ErrorContains(t, err, "and 379 more problems")
	require.Len(t, strings.Split(err.Error(), "\n"), 21)
}
