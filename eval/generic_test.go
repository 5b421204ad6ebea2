package eval_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/variants"
)

// TestGenericProjection: in every built-in variant, generic weights
// projected onto the variant (GenericFor) evaluate a position as the
// generic weights do its projected counts (Projection.Project), but for
// rounding the material shares to whole centipawns; the projected
// weights are symmetric for the colours like any variant's.
func TestGenericProjection(t *testing.T) {
	g := randomWeights(eval.GenericLayout(), 5)
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		w := eval.GenericFor(g, v)
		pr := eval.NewProjection(w.Layout())
		e := eval.NewTuned(w)
		for _, p := range randomPositions(v, 1, 40, 6) {
			tr, white := e.Trace(p)
			var index []uint16
			var count []float32
			pieces := 0.0
			for i, c := range tr.Counts {
				if c != 0 {
					index = append(index, uint16(i))
					count = append(count, float32(c))
					pieces += math.Abs(float64(c))
				}
			}
			gi, gc := pr.Project(index, count)
			mg, eg := 0.0, 0.0
			for k, j := range gi {
				m, e := g.Get(int(j))
				mg += float64(m) * float64(gc[k])
				eg += float64(e) * float64(gc[k])
			}
			phase := float64(tr.Phase) / 256
			want := mg*phase + eg*(1-phase)
			// Each count's weight was rounded by at most half a centipawn.
			require.InDelta(t, want, float64(white), pieces/2+1, "%s: %s", name, p.FEN())
		}
		if q, err := v.ParseFEN(mirrorFEN(v.StartFEN)); err == nil {
			require.Equal(t, e.Evaluate(v.StartPosition()), e.Evaluate(q), name)
		}
	}
}

// TestGenericWeightsOfTheFormula: the documents' generic weights project
// onto each variant's documents' weights.
func TestGenericWeightsOfTheFormula(t *testing.T) {
	for _, name := range []string{"chess", "shogi", "xiangqi", "capablanca", "grand"} {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		got := eval.GenericFor(eval.DocumentsGeneric(), v)
		want := eval.DocumentsWeights(got.Layout())
		for i := range got.Layout().Len() {
			gm, ge := got.Get(i)
			wm, we := want.Get(i)
			require.Equal(t, [2]int{wm, we}, [2]int{gm, ge}, "%s: %s", name, got.Layout().Names()[i])
		}
	}
}

// TestGenericClasses: a piece's features go to its class's generic ones.
func TestGenericClasses(t *testing.T) {
	l := eval.GenericLayout()
	g := eval.NewWeights(l)
	set := func(name string, mg int) {
		for i, n := range l.Names() {
			if n == name {
				g.Set(i, mg, mg)
				return
			}
		}
		t.Fatalf("no generic feature %q", name)
	}
	set("mobility minor", 4)
	set("mobility major", 7)
	set("material piece", 50) // half the documents' values
	set("rank pawn 7", 30)    // the last rank bucket
	set("rank royal 0", 9)
	v := variants.Chess()
	w := eval.GenericFor(g, v)
	weight := func(name string) int {
		for i, n := range w.Layout().Names() {
			if n == name {
				mg, _ := w.Get(i)
				return mg
			}
		}
		t.Fatalf("no feature %q", name)
		return 0
	}
	require.Equal(t, 4, weight("mobility N"))
	require.Equal(t, 4, weight("mobility B"))
	require.Equal(t, 7, weight("mobility R"))
	require.Equal(t, 7, weight("mobility Q"))
	require.Equal(t, 150, weight("material N"))
	require.Equal(t, 450, weight("material Q"))
	require.Equal(t, 0, weight("material P"))
	require.Equal(t, 30, weight("rank P 7"))
	require.Equal(t, 9, weight("rank K 0"))
	// Ten ranks: rank 9 is the last bucket, ranks 4 and 8 others.
	x, err := variants.Lookup("grand")
	require.NoError(t, err)
	wx := eval.GenericFor(g, x)
	for i, n := range wx.Layout().Names() {
		mg, _ := wx.Get(i)
		switch n {
		case "rank P 9":
			require.Equal(t, 30, mg)
		case "rank P 4", "rank P 8":
			require.Zero(t, mg, n)
		}
	}
}

// TestGenericFiles: generic weights round-trip through their file; a
// generic file is not a variant's and a variant's is not generic.
func TestGenericFiles(t *testing.T) {
	g := randomWeights(eval.GenericLayout(), 7)
	g.Scale = 1.25
	var buf bytes.Buffer
	require.NoError(t, g.Write(&buf))
	require.Contains(t, buf.String(), "\nvariant generic * *\n")
	back, err := eval.ParseGeneric(buf.Bytes())
	require.NoError(t, err)
	require.Equal(t, 1.25, back.Scale)
	for i := range g.Layout().Len() {
		a, b := g.Get(i)
		c, d := back.Get(i)
		require.Equal(t, [2]int{a, b}, [2]int{c, d})
	}
	name, err := eval.WeightsVariant(buf.Bytes())
	require.NoError(t, err)
	require.Equal(t, eval.GenericName, name)

	_, err = eval.ParseWeights(variants.Chess(), buf.Bytes())
	require.ErrorContains(t, err, "generic weights, not weights for chess")
	var chess bytes.Buffer
	require.NoError(t, eval.DocumentsWeights(eval.NewLayout(variants.Chess())).Write(&chess))
	_, err = eval.ParseGeneric(chess.Bytes())
	require.ErrorContains(t, err, `want "variant generic * *"`)
	_, err = eval.ParseGeneric([]byte("chimera-weights 1\nvariant generic * *\nmobility N 3 3\n"))
	require.ErrorContains(t, err, `no feature "mobility N" in generic's feature set`)
}
