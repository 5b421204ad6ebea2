package tablebase_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// FuzzParseMaterial: any text is a material or a clear error, never a
// crash; a material reads back as itself.
func FuzzParseMaterial(f *testing.F) {
	for _, seed := range []string{"KBNvK", "KPvK", "kvkp", "KRPvKR", "KQRBNvK", "v", "KK", "KPPPPvK", "KvK", "KXvK", "KPvKPv"} {
		f.Add(seed)
	}
	v := variants.Chess()
	f.Fuzz(func(t *testing.T, s string) {
		m, err := tablebase.ParseMaterial(v, s)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		again, err := tablebase.ParseMaterial(v, m.String())
		require.NoError(t, err, m.String())
		require.Equal(t, m, again)
	})
}

// FuzzLoadFile reads arbitrary bytes as KRvK's table file (header,
// names, packed blocks; the seeds a file of every distance and one of one
// side's): a clear error or a table whose probes answer or fail, never a
// crash.
func FuzzLoadFile(f *testing.F) {
	v := variants.Chess()
	m, err := tablebase.ParseMaterial(v, "KRvK")
	require.NoError(f, err)
	made, err := gen.Generate(v, m, nil, nil)
	require.NoError(f, err)
	for _, save := range []func(string) error{made.Save, made.SaveOneSide} {
		dir := f.TempDir()
		require.NoError(f, save(dir))
		data, err := os.ReadFile(filepath.Join(dir, tablebase.FileName(v, m)))
		require.NoError(f, err)
		f.Add(data)
	}
	var positions []*engine.Position
	for _, fen := range []string{"8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "8/8/8/3k4/8/8/8/R3K3 b - - 0 1", "8/8/8/8/8/8/1k6/1R4K1 b - - 0 1"} {
		p, err := v.ParseFEN(fen)
		require.NoError(f, err)
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, tablebase.FileName(v, m)), data, 0o644))
		if err := tablebase.CheckFile(dir, v, m); err != nil {
			require.NotEmpty(t, err.Error())
		}
		tb, err := tablebase.Load(dir, v, m)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		for _, p := range positions {
			if _, err := tb.Probe(p); err != nil {
				require.NotEmpty(t, err.Error())
			}
			tb.ProbeDTZ(p)
		}
	})
}
