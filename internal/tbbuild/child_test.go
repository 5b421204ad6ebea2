package tbbuild_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chimera-chess/chimera/internal/tbbuild"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// asChild makes this test binary a table-building child: "MATERIAL DIR
// VARIANT", as the command a builder is given starts it.
const asChild = "TBBUILD_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(asChild) == "1" {
		os.Exit(childMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func childMain(args []string) int {
	if len(args) != 3 {
		return 3
	}
	v, err := variants.Lookup(args[2])
	if err != nil {
		return 4
	}
	m, err := tablebase.ParseMaterial(v, args[0])
	if err != nil {
		return 5
	}
	store := gen.NewStore(args[1])
	store.SaveRequired = true
	if _, err := store.Build(v, m, tablebase.Hooks{}); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

// jobs records the jobs a builder's command was given.
type jobs struct {
	mu   sync.Mutex
	list []tbbuild.Job
}

func (j *jobs) command(job tbbuild.Job) []string {
	j.mu.Lock()
	j.list = append(j.list, job)
	j.mu.Unlock()
	return []string{os.Args[0], job.Material.String(), job.Dir, job.Variant.Name}
}

func (j *jobs) materials() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []string
	for _, job := range j.list {
		out = append(out, job.Material.String())
	}
	return out
}

// TestChildBuilds: with a command, each table is built by a child process
// the command names (given the variant files the session loaded), also
// while the builder is paused when a search hurries the table, and the
// builder reads the file the child saved.
func TestChildBuilds(t *testing.T) {
	t.Setenv(asChild, "1")
	v := variants.Chess()
	dir := t.TempDir()
	store := gen.NewStore(dir)
	b := tbbuild.New(store)
	defer b.Close()
	var log logLines
	b.Log = log.add
	var j jobs
	b.Command = j.command
	b.SetVariantFiles([]string{"my.ini"})
	b.Pause()
	m := tbtest.Material(t, v, "KQvK")
	b.Hurry(v, m)
	tbtest.WaitFor(t, func() bool { return strings.Contains(log.text(), "built chess KQvK") }, "the hurried table was not built while paused")
	require.Equal(t, []string{"KQvK"}, j.materials())
	require.Equal(t, []string{"my.ini"}, j.list[0].VariantFiles)
	require.Equal(t, dir, j.list[0].Dir)
	_, err := store.FindMaterial(v, m, tablebase.MemoryOnly)
	require.NoError(t, err, "the child's file was read")

	// Awaited, a table is built at once in this process, not by a child.
	kr := tbtest.Material(t, v, "KRvK")
	require.NoError(t, b.Await(context.Background(), v, kr))
	require.NotContains(t, j.materials(), "KRvK")
	require.FileExists(t, filepath.Join(dir, tablebase.FileName(v, kr)))

	// A child that fails is reported with its last words.
	bad := tbbuild.New(gen.NewStore(t.TempDir()))
	defer bad.Close()
	var badLog logLines
	bad.Log = badLog.add
	bad.Command = func(job tbbuild.Job) []string {
		return []string{os.Args[0], job.Material.String(), job.Dir, "no-such-variant"}
	}
	bad.Want(v, m)
	tbtest.WaitFor(t, func() bool { return strings.Contains(badLog.text(), "not built: exit status 4") }, "the failure was not reported")
	require.False(t, slices.Contains(strings.Split(badLog.text(), "\n"), "tablebase: built chess KQvK"))
}
