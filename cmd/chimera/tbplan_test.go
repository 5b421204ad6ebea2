package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTBPlan prints a plan as text and JSON.
func TestTBPlan(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCommand("tb", "plan", "KBNvK", "--dir", dir)
	require.Zero(t, code, errOut)
	require.Contains(t, out, "chess: 3 tables in 2 levels, 3 to build")
	require.Regexp(t, `(?m)^1\s+KBNvK\s+2621440\s.*build\s+KNvK KBvK$`, out)

	code, out, errOut = runCommand("tb", "plan", "--pieces", "4", "--json", "--dir", dir)
	require.Zero(t, code, errOut)
	var plan struct {
		Variant string
		Tables  []struct {
			Material string
			Level    int
			Needs    []string
			Memory   int64 `json:"memory_bytes"`
			Exists   bool
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &plan))
	require.Equal(t, "chess", plan.Variant)
	require.Len(t, plan.Tables, 35, "every four-piece chess table and the three-piece ones they need")

	code, _, errOut = runCommand("tb", "plan", "--dir", dir)
	require.NotZero(t, code)
	require.Contains(t, errOut, "name materials")
	code, _, errOut = runCommand("tb", "plan", "KXvK", "--dir", dir)
	require.NotZero(t, code)
	require.Contains(t, errOut, "X")
}

// TestTBPlanSlurmScripts runs the batch scripts tb plan writes, with a
// stand-in for sbatch that runs each job array's tasks at once: the
// tables come out identical to tb generate's, and a task that fails is
// retried, filed in failed.txt, and stops the submission. Under -short
// the same plan on Gardner's 5x5 board, whose KBNvK builds in a
// twentieth of chess's time.
func TestTBPlanSlurmScripts(t *testing.T) {
	variant := "chess"
	if testing.Short() {
		variant = "gardner"
	}
	tables, scripts := t.TempDir(), t.TempDir()
	res, err := exec.Command(binary, "tb", "plan", "KBNvK", "KPvK", "--variant", variant, "--dir", tables, "--slurm", scripts, "--chimera", binary).CombinedOutput()
	require.NoError(t, err, string(res))
	require.Contains(t, string(res), "level 1: 2 tables")

	fake, err := filepath.Abs(filepath.Join("testdata", "fake-sbatch"))
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(fake, filepath.Join(bin, "sbatch")))
	submit := exec.Command("bash", filepath.Join(scripts, "submit.sh"))
	submit.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	res, err = submit.CombinedOutput()
	require.NoError(t, err, string(res))
	require.Contains(t, string(res), "level 0 (4 tables): job ")

	alone := t.TempDir()
	if variant == "chess" {
		alone = readyTables.copyTo(t) // tb generate KBNvK, then KPvK
	} else {
		for _, m := range []string{"KBNvK", "KPvK"} {
			c, _, e := runCommand("tb", "generate", m, "--variant", variant, "--dir", alone)
			require.Zero(t, c, e)
		}
	}
	files, err := filepath.Glob(filepath.Join(alone, "*.ctb"))
	require.NoError(t, err)
	require.Len(t, files, 6)
	for _, f := range files {
		want, err := os.ReadFile(f)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(tables, filepath.Base(f)))
		require.NoError(t, err)
		require.Equal(t, want, got, filepath.Base(f))
	}
	c, _, e := runCommand("tb", "verify", "KPvK", "--variant", variant, "--dir", tables)
	require.Zero(t, c, e)

	// A node whose engine fails: each task tries three times, the tables
	// are filed as failed, and the later levels are not submitted.
	broken := t.TempDir()
	res, err = exec.Command(binary, "tb", "plan", "KBNvK", "--dir", t.TempDir(), "--slurm", broken, "--chimera", "/bin/false").CombinedOutput()
	require.NoError(t, err, string(res))
	submit = exec.Command("bash", filepath.Join(broken, "submit.sh"))
	submit.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "CHIMERA_TB_RETRY_DELAY=0")
	res, err = submit.CombinedOutput()
	require.Error(t, err)
	require.NotContains(t, string(res), "level 1", "level 1 waits for level 0, which failed")
	failed, err := os.ReadFile(filepath.Join(broken, "failed.txt"))
	require.NoError(t, err)
	require.Equal(t, "level 0 KBvK\nlevel 0 KNvK\n", string(failed))
	require.Contains(t, string(res), "KBvK failed (attempt 3 of 3)")
}
