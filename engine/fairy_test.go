package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
)

// fairyVariant is a test game on a width×height board with pieces from
// every atom kind: nightrider Z, camel C, amazon A (queen+knight), xiangqi
// horse H (lame knight), grasshopper G, and pawns with an initial ride of
// up to three squares.
func fairyVariant(t testing.TB, width, height int, withHoppers bool, fen string) *engine.Variant {
	t.Helper()
	fwd := []engine.Vector{{DX: 0, DY: 1}}
	pieces := []engine.PieceType{
		{Name: "king", Letter: 'K', Royal: true, Role: engine.RoleKing, Atoms: []engine.Atom{engine.Leaper(1, 0), engine.Leaper(1, 1)}},
		{Name: "pawn", Letter: 'P', Role: engine.RolePawn, Atoms: []engine.Atom{
			{Kind: engine.Leap, Vectors: fwd, MoveOnly: true},
			{Kind: engine.Ride, Vectors: fwd, Range: 3, MoveOnly: true, Initial: true},
			{Kind: engine.Leap, Vectors: []engine.Vector{{DX: -1, DY: 1}, {DX: 1, DY: 1}}, CaptureOnly: true, EnPassant: true},
		}},
		{Name: "knight", Letter: 'N', Role: engine.RoleKnight, Atoms: []engine.Atom{engine.Leaper(1, 2)}},
		{Name: "nightrider", Letter: 'Z', Atoms: []engine.Atom{engine.Rider(1, 2)}},
		{Name: "camel", Letter: 'C', Atoms: []engine.Atom{engine.Leaper(3, 1)}},
		{Name: "amazon", Letter: 'A', Atoms: []engine.Atom{engine.Rider(1, 0), engine.Rider(1, 1), engine.Leaper(1, 2)}},
		{Name: "rook", Letter: 'R', Role: engine.RoleRook, Atoms: []engine.Atom{engine.Rider(1, 0)}},
	}
	if withHoppers {
		lame := engine.Leaper(1, 2)
		lame.Lame = true
		hop := engine.Rider(1, 0)
		hop.Vectors = append(hop.Vectors, engine.Symmetric(1, 1)...)
		hop.Kind = engine.Hop
		cannonMove := engine.Rider(1, 0)
		cannonMove.MoveOnly = true
		cannonCapture := engine.Rider(1, 0)
		cannonCapture.Kind, cannonCapture.CaptureOnly = engine.Cannon, true
		pieces = append(pieces,
			engine.PieceType{Name: "horse", Letter: 'H', Atoms: []engine.Atom{lame}},
			engine.PieceType{Name: "grasshopper", Letter: 'G', Atoms: []engine.Atom{hop}},
			engine.PieceType{Name: "cannon", Letter: 'O', Atoms: []engine.Atom{cannonMove, cannonCapture}})
	}
	v, err := engine.NewVariant(engine.Rules{
		Name: "fairy-test", Width: width, Height: height, Pieces: pieces, StartFEN: fen,
		InitialRegion:  [2]engine.SquareSet{engine.RankSet(1, width), engine.RankSet(height-2, width)},
		PromotionZone:  [2]engine.SquareSet{engine.RankSet(height-1, width), engine.RankSet(0, width)},
		PromotionTypes: []byte("AZ"),
		MoveRule:       50, RepetitionRule: 3,
	})
	require.NoError(t, err)
	return v
}

func TestFairyMovesOnEmptyBoard(t *testing.T) {
	for _, tc := range []struct {
		fen   string
		from  string
		moves int
	}{
		{"7k/8/8/8/8/8/8/Z6K w - - 0 1", "a1", 6},   // nightrider: b3 c5 d7, c2 e3 g4
		{"7k/8/8/8/8/8/2N5/Z6K w - - 0 1", "a1", 3}, // an own piece on c2 blocks the (2,1) line
		{"7k/8/8/8/3C4/8/8/7K w - - 0 1", "d4", 8},  // camel
		{"7k/8/8/8/8/8/8/C6K w - - 0 1", "a1", 2},   // camel in the corner: b4 d2
		{"k7/8/8/8/3A4/8/8/7K w - - 0 1", "d4", 35}, // amazon: 27 queen + 8 knight
	} {
		v := fairyVariant(t, 8, 8, false, tc.fen)
		p := v.StartPosition()
		n := 0
		for _, m := range p.LegalMoves(nil) {
			if m.From().String() == tc.from {
				n++
			}
		}
		require.Equal(t, tc.moves, n, tc.fen)
	}
}

func TestHoppersAndLameLeapers(t *testing.T) {
	// Grasshopper on d4: hurdles d6 (lands d7), f6 (lands g7), b4 (lands a4);
	// the hurdle on d2 would land on d1, a white king: no move there.
	v := fairyVariant(t, 8, 8, true, "7k/8/3p1p2/8/1p1G4/8/3P4/3K4 w - - 0 1")
	p := v.StartPosition()
	var got []string
	for _, m := range p.LegalMoves(nil) {
		if m.From().String() == "d4" {
			got = append(got, v.UCI(m))
		}
	}
	slices.Sort(got)
	require.Equal(t, []string{"d4a4", "d4d7", "d4g7"}, got)

	// A grasshopper checks over a hurdle next to the king.
	p, err := v.ParseFEN("3k4/3p4/8/8/3G4/8/8/K7 b - - 0 1")
	require.NoError(t, err)
	require.True(t, p.InCheck())
	// Moving the hurdle away answers the check: d7d6 keeps the line (the
	// grasshopper then lands on d7, next to nothing), d7d5 too.
	for _, s := range []string{"d7d6", "d7d5", "d8e8", "d8c8", "d8c7", "d8e7"} {
		_, err := p.ParseUCI(s)
		require.NoError(t, err, s)
	}

	// The xiangqi horse is blocked by a piece on its first orthogonal step.
	p, err = v.ParseFEN("7k/8/8/8/3P4/3H4/8/7K w - - 0 1")
	require.NoError(t, err)
	var horse []string
	for _, m := range p.LegalMoves(nil) {
		if m.From().String() == "d3" {
			horse = append(horse, v.UCI(m))
		}
	}
	slices.Sort(horse)
	require.Equal(t, []string{"d3b2", "d3b4", "d3c1", "d3e1", "d3f2", "d3f4"}, horse)
}

func TestCannon(t *testing.T) {
	// Cannon on d1 (moves as a rook, captures by jumping one piece): over the
	// hurdle on d3 it takes d6, not d7; it cannot take the hurdle itself.
	v := fairyVariant(t, 8, 8, true, "7k/3p4/3p4/8/8/3P4/8/3O3K w - - 0 1")
	p := v.StartPosition()
	var got []string
	for _, m := range p.LegalMoves(nil) {
		if m.From().String() == "d1" {
			got = append(got, v.UCI(m))
		}
	}
	slices.Sort(got)
	require.Equal(t, []string{"d1a1", "d1b1", "d1c1", "d1d2", "d1d6", "d1e1", "d1f1", "d1g1"}, got)
	// It gives check over a screen, from afar.
	p, err := v.ParseFEN("3k4/8/8/3p4/8/8/8/3O3K b - - 0 1")
	require.NoError(t, err)
	require.True(t, p.InCheck())
}

func TestBigBoards(t *testing.T) {
	fen16 := "z6k8/p15/16/16/16/16/16/16/16/16/16/16/16/16/P15/7K8 w - - 0 1"
	v := fairyVariant(t, 16, 16, true, fen16)
	p := v.StartPosition()
	require.Equal(t, fen16, p.FEN())
	for _, s := range []string{"a2a3", "a2a4", "a2a5", "h1g1"} {
		m, err := p.ParseUCI(s)
		require.NoError(t, err, s)
		require.Equal(t, s, v.UCI(m))
	}
	_, err := p.ParseUCI("a2a6")
	require.Error(t, err)
	_, err = p.ParseUCI("h1h2") // on the nightrider's line from a16
	require.ErrorContains(t, err, "not legal")
	m, err := p.ParseUCI("a2a5")
	require.NoError(t, err)
	p.Make(m)
	m, err = p.ParseUCI("a15a13") // two steps from the 15th rank
	require.NoError(t, err)
	require.Equal(t, "a15a13", v.UCI(m))
	m, err = p.ParseUCI("a15a14")
	require.NoError(t, err)
	p.Make(m)
	require.Equal(t, "z6k8/16/p15/16/16/16/16/16/16/16/16/P15/16/16/16/7K8 w - - 0 2", p.FEN())

	_, err = v.ParseFEN("17/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 w")
	require.ErrorContains(t, err, "rank 16 has 17 files, board is 16 wide")

	v10 := fairyVariant(t, 10, 10, false, "4k5/10/10/10/10/10/10/10/p9/4K5 b - - 0 1")
	p = v10.StartPosition()
	m, err = p.ParseUCI("a2a1a")
	require.NoError(t, err)
	require.Equal(t, "a2a1a", v10.UCI(m))
	require.Equal(t, "a1=A+", p.SAN(m)) // the amazon checks along the first rank
}

// TestFastLegalityMatchesMaking: the pin-and-check analysis and the general
// make-and-test path agree on random fairy games, with and without hoppers.
func TestFastLegalityMatchesMaking(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 8
	}
	for _, tc := range []struct {
		size    int
		hoppers bool
		fen     string
	}{
		{10, false, "rnzcakczrn/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNZCAKCZRN w - - 0 1"},
		{10, true, "onzgakhzro/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/ONZGAKHZRO w - - 0 1"},
		{8, true, "ozgakhzr/pppppppp/8/8/8/8/PPPPPPPP/OZGAKHZR w - - 0 1"},
	} {
		v := fairyVariant(t, tc.size, tc.size, tc.hoppers, tc.fen)
		rng := rand.New(rand.NewPCG(5, 6))
		for g := 0; g < games; g++ {
			p := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				fast := p.LegalMoves(nil)
				slow := p.LegalMovesByMaking(nil)
				tactical := []engine.Move{}
				for _, m := range fast {
					if p.IsCapture(m) || m.Promotion() != 0 {
						tactical = append(tactical, m)
					}
				}
				captures := p.LegalCaptures([]engine.Move{})
				w, b := p.Mobilities()
				lw, lb := p.MobilitiesByLoop()
				require.Equal(t, [2]int{lw, lb}, [2]int{w, b}, "mobility of %s", p.FEN())
				slices.Sort(tactical)
				slices.Sort(captures)
				require.Equal(t, tactical, captures, "captures of %s", p.FEN())
				slices.Sort(fast)
				slices.Sort(slow)
				require.Equal(t, slow, fast, p.FEN())
				if len(fast) == 0 {
					break
				}
				m := fast[rng.IntN(len(fast))]
				p.Make(m)
				require.Equal(t, p.ComputeKey(), p.Key())
			}
		}
	}
}
