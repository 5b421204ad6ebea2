package tbplan_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/tbplan"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
)

// plan returns the plan of the named chess tables over dir.
func plan(t *testing.T, dir string, names ...string) []tablebase.PlanEntry {
	t.Helper()
	return planOf(t, variants.Chess(), dir, names...)
}

// planOf returns the plan of the named tables of v over dir.
func planOf(t *testing.T, v *engine.Variant, dir string, names ...string) []tablebase.PlanEntry {
	t.Helper()
	var targets []tablebase.Material
	for _, n := range names {
		m, err := tablebase.ParseMaterial(v, n)
		require.NoError(t, err)
		targets = append(targets, m)
	}
	p, err := gen.NewStore(dir).Plan(v, targets)
	require.NoError(t, err)
	return p
}

// TestPlanLevels: a table comes after every table it needs; the tables
// present are not built.
func TestPlanLevels(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, dir, "KBNvK", "KRvKP")
	level := map[string]int{}
	for _, e := range p {
		level[e.Material.String()] = e.Level
		for _, n := range e.Needs {
			require.Less(t, level[n.String()], e.Level, "%s needs %s", e.Material, n)
			require.Contains(t, level, n.String(), "listed before what needs it")
		}
	}
	require.Equal(t, 0, level["KBvK"])
	require.Equal(t, 1, level["KBNvK"])
	require.Equal(t, 2, level["KRvKP"], "KRvKP needs KRvKQ (a promotion), which needs KRvK")
	levels := tbplan.Levels(p)
	require.Len(t, levels, 3)

	// Once KBvK and KNvK exist, level 0 loses them.
	v := variants.Chess()
	store := gen.NewStore(dir)
	for _, n := range []string{"KBvK", "KNvK"} {
		m, _ := tablebase.ParseMaterial(v, n)
		_, err := store.Build(v, m, tablebase.Hooks{})
		require.NoError(t, err)
	}
	for _, l := range tbplan.Levels(plan(t, dir, "KBNvK", "KRvKP")) {
		require.NotContains(t, l.Materials, "KBvK")
		require.NotContains(t, l.Materials, "KNvK")
	}
}

// TestWriteSlurm: the scripts are valid shell, one job array per level
// with a task per table, the memory from the estimates, and submit.sh
// chains the levels with afterok.
func TestWriteSlurm(t *testing.T) {
	out := t.TempDir()
	p := plan(t, t.TempDir(), "KBNvK", "KRvKP")
	levels, err := tbplan.WriteSlurm(out, p, tbplan.SlurmOptions{Chimera: "/opt/chimera", Tables: "/shared/tables", Variant: "chess", CPUs: 4})
	require.NoError(t, err)
	for _, l := range levels {
		list, err := os.ReadFile(filepath.Join(out, "level-"+itoa(l.Number)+".list"))
		require.NoError(t, err)
		require.Equal(t, strings.Join(l.Materials, "\n")+"\n", string(list))
		script, err := os.ReadFile(filepath.Join(out, "level-"+itoa(l.Number)+".sbatch"))
		require.NoError(t, err)
		s := string(script)
		require.Contains(t, s, "#SBATCH --array=0-"+itoa(len(l.Materials)-1)+"\n")
		require.Contains(t, s, "#SBATCH --cpus-per-task=4\n")
		require.Contains(t, s, "#SBATCH --mem="+itoa(int(l.MemoryMB))+"M\n")
		require.Contains(t, s, "'/opt/chimera' tb generate \"$material\" --variant 'chess' --dir '/shared/tables'")
		require.NoError(t, exec.Command("bash", "-n", filepath.Join(out, "level-"+itoa(l.Number)+".sbatch")).Run())
	}
	submit, err := os.ReadFile(filepath.Join(out, "submit.sh"))
	require.NoError(t, err)
	require.Equal(t, len(levels), strings.Count(string(submit), "sbatch --parsable"))
	require.Contains(t, string(submit), `dependency="--dependency=afterok:$job"`)
	require.NoError(t, exec.Command("bash", "-n", filepath.Join(out, "submit.sh")).Run())
	kbn := levels[1]
	require.Contains(t, kbn.Materials, "KBNvK")
	require.GreaterOrEqual(t, kbn.MemoryMB, int64(70*1.5), "the generation's 70 MiB and more")

	// Nothing to build is an error, not empty scripts.
	_, err = tbplan.WriteSlurm(t.TempDir(), nil, tbplan.SlurmOptions{Tables: "/x"})
	require.ErrorContains(t, err, "nothing to build")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRunLocal builds a plan two generations at once: every table is
// byte-identical to the one built alone. Under -short on Gardner's 5×5
// board: the same plan (KBNvK and KPvK after four three-piece tables) in
// a twentieth of the time.
func TestRunLocal(t *testing.T) {
	v := variants.Chess()
	if testing.Short() {
		var err error
		v, err = variants.Lookup("gardner")
		require.NoError(t, err)
	}
	dir, alone := t.TempDir(), t.TempDir()
	p := planOf(t, v, dir, "KBNvK", "KPvK")
	require.Len(t, tbplan.Levels(p), 2)
	require.Len(t, tbplan.Levels(p)[0].Materials, 4)
	var mu sync.Mutex
	var built []string
	failures := tbplan.RunLocal(context.Background(), gen.NewStore(dir), v, p, 2, 0, func(m tablebase.Material, _ time.Duration, err error) {
		require.NoError(t, err)
		mu.Lock()
		built = append(built, m.String())
		mu.Unlock()
	})
	require.Empty(t, failures)
	require.Len(t, built, len(p))
	single := gen.NewStore(alone)
	for _, e := range p {
		_, err := single.Build(v, e.Material, tablebase.Hooks{})
		require.NoError(t, err)
		name := tablebase.FileName(v, e.Material)
		a, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(alone, name))
		require.NoError(t, err)
		require.Equal(t, b, a, name)
	}
}

// TestRunLocalStopsWhenInterrupted: once the run is interrupted no
// generation starts; none is reported failed for it, neither one stopped
// in the middle (abandoned) nor one never started.
func TestRunLocalStopsWhenInterrupted(t *testing.T) {
	v, err := variants.Lookup("gardner")
	require.NoError(t, err)
	dir := t.TempDir()
	p := planOf(t, v, dir, "KBNvK", "KPvK")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ended []string
	failures := tbplan.RunLocal(ctx, gen.NewStore(dir), v, p, 2, 0, func(m tablebase.Material, _ time.Duration, err error) {
		ended = append(ended, m.String())
	})
	require.Empty(t, failures)
	require.Empty(t, ended, "no generation started")
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, files)
}

// TestRunLocalInterruptedMidway: a generation the interrupt abandons is
// no failure (the next run builds it), and the tables built before it
// stay.
func TestRunLocalInterruptedMidway(t *testing.T) {
	v, err := variants.Lookup("gardner")
	require.NoError(t, err)
	dir := t.TempDir()
	p := planOf(t, v, dir, "KBNvK", "KPvK")
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var ended []string
	failures := tbplan.RunLocal(ctx, gen.NewStore(dir), v, p, 1, 0, func(m tablebase.Material, _ time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		require.NoError(t, err, m.String())
		ended = append(ended, m.String())
		cancel() // after the first table, while the next may be running
	})
	require.Empty(t, failures)
	require.NotEmpty(t, ended)
	require.Less(t, len(ended), len(p))
}
