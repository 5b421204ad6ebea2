package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/sysmem"
	"github.com/chimera-chess/chimera/internal/tbplan"
	"github.com/chimera-chess/chimera/tablebase"
)

func newTBPlanCommand() *cobra.Command {
	var (
		f           tbFlags
		pieces      int
		asJSON      bool
		slurmDir    string
		chimeraPath string
		partition   string
		jobs, cpus  int
		memoryMB    int
	)
	cmd := &cobra.Command{
		Use:   "plan [MATERIAL...] [--pieces N] [--json] [--slurm DIR | --jobs N]",
		Short: "Plan a table set: what it needs, level by level; run it on a Slurm cluster or here",
		Long: `Plan lists the tables the named materials need (and every table of
--pieces pieces of the variant), themselves included: each table's level (0 needs
no other table; the tables of one level are independent of each other),
the tables its captures and promotions lead into, its entries, the
estimated memory and time of its generation (on two cores) and the size of
its file, and whether it is in --dir already. --json prints the same as
JSON.

--slurm DIR writes batch scripts that build the plan on a Slurm cluster
into --dir, which the nodes share: per level a job array (one task per
table; memory, CPUs and time requested from the estimates) and submit.sh,
which submits the levels in order, each after the one before has
succeeded. A failed task tries again and is reported in DIR/failed.txt; a
table already built is never redone.

--jobs N builds the plan here instead, level by level, up to N
generations at once, as many as their estimated memory and half again
(the runtime, the smaller tables each reads) fit in --memory (default:
the memory available when the plan starts); a table already
built is never redone, so an interrupted run goes on where it stopped
when started again.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, store, err := f.open(cmd, jobs > 0)
			if err != nil {
				return err
			}
			targets, err := planTargets(v, args, pieces)
			if err != nil {
				return err
			}
			plan, err := store.Plan(v, targets)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch {
			case slurmDir != "":
				return writeSlurm(out, v, store, plan, slurmDir, tbplan.SlurmOptions{Chimera: chimeraPath, Tables: store.Dir(),
					Variant: v.Name, VariantFiles: f.vf.files, CPUs: cpus, Partition: partition})
			case jobs > 0:
				memory := int64(memoryMB) << 20
				if memoryMB == 0 {
					if mb, ok := sysmem.AvailableMB(); ok {
						memory = int64(mb) << 20
					}
				}
				if !f.force {
					if err := checkPlanMemory(v, plan, memory, memoryMB > 0); err != nil {
						return err
					}
				}
				return runPlan(cmd, v, store, plan, jobs, memory)
			case asJSON:
				return printPlanJSON(out, v, store, plan)
			}
			printPlan(out, v, store, plan)
			return nil
		},
	}
	f.register(cmd)
	f.registerForce(cmd)
	intFlag(cmd.Flags(), &pieces, "pieces", 0, 0, tablebase.MaxPieces, "plan every table of this many pieces (kings included), besides the named ones")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as JSON")
	cmd.Flags().StringVar(&slurmDir, "slurm", "", "write Slurm batch scripts for the plan into this directory")
	cmd.Flags().StringVar(&chimeraPath, "chimera", "", "the engine's path on the cluster's nodes (default: this binary's path)")
	cmd.Flags().StringVar(&partition, "partition", "", "the Slurm partition the jobs go to (default: the cluster's)")
	intFlag(cmd.Flags(), &cpus, "cpus", 2, 1, 1024, "CPUs each Slurm task asks for (a generation uses them all)")
	intFlag(cmd.Flags(), &jobs, "jobs", 0, 0, 64, "build the plan here, this many generations at once")
	intFlag(cmd.Flags(), &memoryMB, "memory", 0, 0, 1<<24, "MiB the generations of --jobs may take together (0: the memory available)")
	return cmd
}

// planTargets are the named materials and every material of pieces.
func planTargets(v *engine.Variant, args []string, pieces int) ([]tablebase.Material, error) {
	if len(args) == 0 && pieces == 0 {
		return nil, errors.New("plan: name materials (KBNvK KRvKP) or give --pieces N")
	}
	var out []tablebase.Material
	if pieces > 0 {
		out = tablebase.Materials(v, pieces)
		if len(out) == 0 {
			return nil, fmt.Errorf("plan: %s has no tables of %d pieces the generator takes", v.Name, pieces)
		}
	}
	for _, a := range args {
		m, err := tablebase.ParseMaterial(v, a)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// printPlan prints the plan as a table, level by level.
func printPlan(out io.Writer, v *engine.Variant, store *tablebase.Store, plan []tablebase.PlanEntry) {
	var build int
	var files, memory int64
	var seconds float64
	levels := 0
	for _, e := range plan {
		levels = max(levels, e.Level+1)
		if !e.Exists {
			build++
			files += e.Cost.File
			memory = max(memory, e.Cost.Memory)
			seconds += e.Cost.Seconds
		}
	}
	fmt.Fprintf(out, "%s: %d tables in %d levels, %d to build into %s (about %s of files, %s of work on two cores; the largest generation takes about %s of memory)\n",
		v.Name, len(plan), levels, build, store.Dir(), mebibytes(files), duration(seconds), mebibytes(memory))
	fmt.Fprintf(out, "%-5s %-10s %12s %10s %10s %9s  %-7s %s\n", "level", "table", "entries", "memory", "file", "time", "state", "needs")
	for _, e := range plan {
		state := "build"
		if e.Exists {
			state = "present"
		}
		needs := make([]string, len(e.Needs))
		for i, n := range e.Needs {
			needs[i] = n.String()
		}
		fmt.Fprintf(out, "%-5d %-10s %12d %10s %10s %9s  %-7s %s\n", e.Level, e.Material, e.Cost.Entries,
			mebibytes(e.Cost.Memory), mebibytes(e.Cost.File), duration(e.Cost.Seconds), state, strings.Join(needs, " "))
	}
}

// duration writes an estimate of seconds for people.
func duration(s float64) string {
	return (time.Duration(s*float64(time.Second)) + time.Second/2).Truncate(time.Second).String()
}

// planJSON is a plan entry as --json prints it.
type planJSON struct {
	Material string   `json:"material"`
	Level    int      `json:"level"`
	Needs    []string `json:"needs"`
	Entries  int      `json:"entries"`
	Memory   int64    `json:"memory_bytes"`
	File     int64    `json:"file_bytes"`
	Seconds  float64  `json:"seconds"`
	Exists   bool     `json:"exists"`
}

func printPlanJSON(out io.Writer, v *engine.Variant, store *tablebase.Store, plan []tablebase.PlanEntry) error {
	tables := make([]planJSON, len(plan))
	for i, e := range plan {
		needs := make([]string, len(e.Needs))
		for j, n := range e.Needs {
			needs[j] = n.String()
		}
		tables[i] = planJSON{Material: e.Material.String(), Level: e.Level, Needs: needs, Entries: e.Cost.Entries,
			Memory: e.Cost.Memory, File: e.Cost.File, Seconds: e.Cost.Seconds, Exists: e.Exists}
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"variant": v.Name, "dir": store.Dir(), "tables": tables})
}

// writeSlurm writes the batch scripts and says how to submit them.
func writeSlurm(out io.Writer, v *engine.Variant, store *tablebase.Store, plan []tablebase.PlanEntry, dir string, opts tbplan.SlurmOptions) error {
	if opts.Chimera == "" {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("plan: --chimera: %w", err)
		}
		opts.Chimera = self
	}
	for i, f := range opts.VariantFiles {
		if abs, err := filepath.Abs(f); err == nil {
			opts.VariantFiles[i] = abs
		}
	}
	levels, err := tbplan.WriteSlurm(dir, plan, opts)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	for _, l := range levels {
		fmt.Fprintf(out, "level %d: %d tables, %d MiB and %d minutes a task (level-%d.sbatch)\n", l.Number, len(l.Materials), l.MemoryMB, l.Minutes, l.Number)
	}
	fmt.Fprintf(out, "submit with %s (the nodes need %s and the shared directory %s)\n", filepath.Join(dir, "submit.sh"), opts.Chimera, store.Dir())
	return nil
}

// checkPlanMemory refuses a plan with a table to build whose generation
// alone needs more than memory bytes (0: unknown, not refused); given
// says whether --memory set it.
func checkPlanMemory(v *engine.Variant, plan []tablebase.PlanEntry, memory int64, given bool) error {
	what := "is available"
	if given {
		what = "is the plan's memory (--memory)"
	}
	for _, e := range plan {
		if !e.Exists {
			if err := checkMemory(v, e.Material, e.Cost.Memory, memory, what); err != nil {
				return err
			}
		}
	}
	return nil
}

// runPlan builds the plan here, up to jobs generations at once within
// memory bytes (0: unbounded), until done or interrupted.
func runPlan(cmd *cobra.Command, v *engine.Variant, store *tablebase.Store, plan []tablebase.PlanEntry, jobs int, memory int64) error {
	ctx, stop := interruptible(cmd, syscall.SIGTERM)
	defer stop()
	store.Progress = nil // several generations at once: a line per table instead
	defer generationMemory(memory)()
	out := cmd.OutOrStdout()
	start := time.Now()
	built := 0
	failures := tbplan.RunLocal(ctx, store, v, plan, jobs, memory, func(m tablebase.Material, took time.Duration, err error) {
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: failed: %v\n", m, err)
			return
		}
		built++
		fmt.Fprintf(out, "%s %s built in %s (%s since the start%s)\n", v.Name, m, took.Round(time.Second), time.Since(start).Round(time.Second), peakSoFar())
	})
	if len(failures) > 0 {
		return fmt.Errorf("plan: %d of %d tables failed", len(failures), built+len(failures))
	}
	if ctx.Err() != nil {
		return interrupted("tb plan", "%d tables built; the same command goes on where it stopped", built)
	}
	fmt.Fprintf(out, "%d tables built into %s in %s%s\n", built, store.Dir(), time.Since(start).Round(time.Second), peakSoFar())
	return nil
}

// peakSoFar says the process's peak memory and processor time so far,
// for a plan's log: with one job at a time, where the peak grows is the
// table that took it; on a busy machine the processor time, not the wall
// time, is what the generations cost (an interrupted run's last line
// says what its finished tables took).
func peakSoFar() string {
	var s string
	if mb, ok := sysmem.PeakMB(); ok {
		s += "; peak memory " + mebibytes(int64(mb)<<20)
	}
	if cpu, ok := sysmem.CPUTime(); ok {
		s += "; processor time " + cpu.Round(time.Second).String()
	}
	return s
}
