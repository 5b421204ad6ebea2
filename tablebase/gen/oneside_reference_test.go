package gen_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
)

// TestReferenceSamplesThroughOneSideFiles: the Gaviota KBNvK sample and
// the Syzygy DTZ sample (which TestKBNKSample and TestDTZSyzygySample
// check against the generated tables) probe the same, both metrics,
// through files that store one side's distances, read by a store as the
// engine and the explorer read them.
func TestReferenceSamplesThroughOneSideFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("six four-piece tables; run without -short")
	}
	v := variants.Chess()
	dir := t.TempDir()
	saved := map[string]bool{}
	var save func(m tablebase.Material)
	save = func(m tablebase.Material) {
		if saved[m.String()] {
			return
		}
		saved[m.String()] = true
		require.NoError(t, chessTables.Get(t, m.String()).SaveOneSide(dir))
		needs, err := gen.Needs(v, m)
		require.NoError(t, err)
		for _, n := range needs {
			save(n)
		}
	}
	for _, name := range []string{"KBNvK", "KQvKR", "KRvKP", "KPvKP", "KBBvK", "KNNvK"} {
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		save(m)
	}
	store := tablebase.NewStore(dir)
	searched := 0
	for _, file := range []string{"testdata/sample.txt", "testdata/syzygy/sample.txt"} {
		f, err := os.Open(file)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p, err := v.ParseFEN(strings.Split(line, ";")[0])
			require.NoError(t, err, line)
			m, err := tablebase.TableMaterial(p)
			require.NoError(t, err, line)
			made := chessTables.Get(t, m.String())
			read, err := store.Find(p, tablebase.MemoryOrDisk)
			require.NoError(t, err, line)
			if !read.DistancesStored(int(p.SideToMove())) {
				searched++
			}
			want, err := made.Probe(p)
			require.NoError(t, err, line)
			got, err := read.Probe(p)
			require.NoError(t, err, line)
			require.Equal(t, want, got, line)
			wantDTZ, err := made.ProbeDTZ(p)
			require.NoError(t, err, line)
			gotDTZ, err := read.ProbeDTZ(p)
			require.NoError(t, err, line)
			require.Equal(t, wantDTZ, gotDTZ, line)
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	require.Greater(t, searched, 500, "many of them on the side whose distances are searched")
}
