package variants_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// moveCount counts the vectors a Betza string gives, by kind.
func atomsOf(t *testing.T, betza string) []engine.Atom {
	t.Helper()
	atoms, err := variants.ParseBetza(betza)
	require.NoError(t, err, betza)
	return atoms
}

func vectors(atoms []engine.Atom) []engine.Vector {
	var out []engine.Vector
	for _, a := range atoms {
		out = append(out, a.Vectors...)
	}
	slices.SortFunc(out, func(a, b engine.Vector) int {
		if a.DX != b.DX {
			return a.DX - b.DX
		}
		return a.DY - b.DY
	})
	return out
}

func TestBetzaAtoms(t *testing.T) {
	for betza, want := range map[string]struct {
		atoms, vecs int
		kind        engine.AtomKind
		rng         int
	}{
		"W": {1, 4, engine.Leap, 0}, "F": {1, 4, engine.Leap, 0}, "N": {1, 8, engine.Leap, 0},
		"C": {1, 8, engine.Leap, 0}, "Z": {1, 8, engine.Leap, 0}, "G": {1, 4, engine.Leap, 0},
		"H": {1, 4, engine.Leap, 0}, "D": {1, 4, engine.Leap, 0}, "A": {1, 4, engine.Leap, 0},
		"K": {2, 8, engine.Leap, 0}, "R": {1, 4, engine.Ride, 0}, "B": {1, 4, engine.Ride, 0},
		"Q": {2, 8, engine.Ride, 0}, "NN": {1, 8, engine.Ride, 0}, "W3": {1, 4, engine.Ride, 3},
		"R4": {1, 4, engine.Ride, 4}, "N0": {1, 8, engine.Ride, 0}, "gQ": {2, 8, engine.Hop, 0},
		"(0,4)": {1, 4, engine.Leap, 0}, "(1,4)": {1, 8, engine.Leap, 0}, "pR": {1, 4, engine.Cannon, 0},
	} {
		atoms := atomsOf(t, betza)
		require.Len(t, atoms, want.atoms, betza)
		require.Len(t, vectors(atoms), want.vecs, betza)
		require.Equal(t, want.kind, atoms[0].Kind, betza)
		require.Equal(t, want.rng, atoms[0].Range, betza)
	}
}

func TestBetzaModifiers(t *testing.T) {
	pawn := atomsOf(t, "fmWfceFifmnD")
	require.Len(t, pawn, 3)
	require.True(t, pawn[0].MoveOnly)
	require.Equal(t, []engine.Vector{{DX: 0, DY: 1}}, pawn[0].Vectors)
	require.True(t, pawn[1].CaptureOnly && pawn[1].EnPassant)
	require.Equal(t, []engine.Vector{{DX: -1, DY: 1}, {DX: 1, DY: 1}}, vectors(pawn[1:2]))
	require.True(t, pawn[2].Initial && pawn[2].Lame && pawn[2].MoveOnly)
	require.Equal(t, []engine.Vector{{DX: 0, DY: 2}}, pawn[2].Vectors)

	for betza, want := range map[string][]engine.Vector{
		"fR":   {{DX: 0, DY: 1}},
		"vR":   {{DX: 0, DY: -1}, {DX: 0, DY: 1}},
		"sW":   {{DX: -1, DY: 0}, {DX: 1, DY: 0}},
		"flF":  {{DX: -1, DY: 1}},
		"bF":   {{DX: -1, DY: -1}, {DX: 1, DY: -1}},
		"ffN":  {{DX: -1, DY: 2}, {DX: 1, DY: 2}},
		"fsN":  {{DX: -2, DY: 1}, {DX: 2, DY: 1}},
		"fhN":  {{DX: -2, DY: 1}, {DX: -1, DY: 2}, {DX: 1, DY: 2}, {DX: 2, DY: 1}},
		"fN":   {{DX: -2, DY: 1}, {DX: -1, DY: 2}, {DX: 1, DY: 2}, {DX: 2, DY: 1}},
		"rvN":  {{DX: 1, DY: -2}, {DX: 1, DY: 2}},
		"fbW":  {{DX: 0, DY: -1}, {DX: 0, DY: 1}},
		"frlF": {{DX: -1, DY: -1}, {DX: -1, DY: 1}, {DX: 1, DY: 1}},
	} {
		require.Equal(t, want, vectors(atomsOf(t, betza)), betza)
	}
	require.True(t, atomsOf(t, "mcN")[0].MoveOnly == false && atomsOf(t, "mcN")[0].CaptureOnly == false)
	require.True(t, atomsOf(t, "nN")[0].Lame)
}

func TestBetzaErrors(t *testing.T) {
	for betza, want := range map[string]string{
		"":        "empty",
		"X":       "unknown atom 'X'",
		"Wé":      "unknown atom 'é' at 2",
		"fm":      "at the end with no atom",
		"qN":      "unknown modifier 'q'",
		"(1,2":    "unclosed (",
		"(a,b)":   "bad leap",
		"(0,0)":   "bad leap",
		"W99":     "bad range",
		"meW":     "en passant on a move-only atom",
		"gN":      "a hop needs",
		"fbrlsvF": "",
	} {
		_, err := variants.ParseBetza(betza)
		if want == "" {
			require.NoError(t, err, betza)
			continue
		}
		require.ErrorContains(t, err, want, betza)
	}
}

// FuzzParseBetza: any string either fails with an error or gives atoms a
// variant can be built from.
func FuzzParseBetza(f *testing.F) {
	for _, s := range []string{"QN", "mfFcfeWimfnA", "fmWfceFifmnD", "gQ", "NN", "W3", "(0,4)", "ffN", "K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		atoms, err := variants.ParseBetza(s)
		if err != nil {
			return
		}
		king := engine.PieceType{Name: "king", Letter: 'K', Royal: true, Role: engine.RoleKing,
			Atoms: []engine.Atom{engine.Leaper(1, 0), engine.Leaper(1, 1)}}
		piece := engine.PieceType{Name: "fuzz", Letter: 'X', Atoms: atoms}
		v, err := engine.NewVariant(engine.Rules{Name: "fuzz", Width: 8, Height: 8,
			Pieces: []engine.PieceType{king, piece}, StartFEN: "k7/8/8/8/3X4/8/8/7K w - - 0 1"})
		if err != nil {
			return // e.g. the piece checks the king from the start
		}
		v.StartPosition().Perft(2)
	})
}
