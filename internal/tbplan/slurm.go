// Package tbplan runs a table set's plan (tablebase.Store.Plan: the
// tables, their levels and their costs) beyond one generation at a time:
// on a cluster, as Slurm batch scripts, one job array per level, each
// level after the one before; or on this machine, several generations at
// once. It knows the generator only through the plan and the command
// line of chimera tb generate.
package tbplan

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/chimera-chess/chimera/tablebase"
)

// SlurmOptions say how the batch scripts run the generations.
type SlurmOptions struct {
	// Chimera is the engine's path on the nodes; Tables the shared
	// table directory; Variant the variant's name, VariantFiles the
	// users' variant files it needs (paths on the nodes).
	Chimera, Tables, Variant string
	VariantFiles             []string
	// CPUs is each task's CPU request (a generation uses them all).
	CPUs int
	// Retries is how many more times a failed task tries (default 2).
	Retries int
	// Partition, when set, is the partition the jobs go to.
	Partition string
}

// Level is one level's job: the tables to build and what a task asks
// the scheduler for (the largest table's memory, a generous time).
type Level struct {
	Number    int
	Materials []string
	MemoryMB  int64
	Minutes   int
}

// Levels groups the tables still to build by level.
func Levels(plan []tablebase.PlanEntry) []Level {
	var out []Level
	for _, e := range plan {
		if e.Exists {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Number != e.Level {
			out = append(out, Level{Number: e.Level})
		}
		l := &out[len(out)-1]
		l.Materials = append(l.Materials, e.Material.String())
		l.MemoryMB = max(l.MemoryMB, (reserve(e.Cost.Memory)+1<<20-1)>>20)
		// Three times the estimate and ten minutes more: a slow node
		// must not be killed at the limit.
		l.Minutes = max(l.Minutes, int(math.Ceil(3*e.Cost.Seconds/60))+10)
	}
	return out
}

// WriteSlurm writes the plan's batch scripts into dir: per level a list
// of materials and a job array (level-N.list, level-N.sbatch), and
// submit.sh, which submits the levels in order, each after the one
// before has succeeded (--dependency=afterok). It returns the levels.
func WriteSlurm(dir string, plan []tablebase.PlanEntry, opts SlurmOptions) ([]Level, error) {
	levels := Levels(plan)
	if len(levels) == 0 {
		return nil, fmt.Errorf("nothing to build: every table of the plan exists in %s", opts.Tables)
	}
	if opts.CPUs <= 0 {
		opts.CPUs = 1
	}
	if opts.Retries <= 0 {
		opts.Retries = 2
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(abs, "logs"), 0o755); err != nil {
		return nil, err
	}
	data := scriptData{SlurmOptions: opts, Dir: abs, Levels: levels}
	for _, f := range opts.VariantFiles {
		data.Extra += " --variant-file " + quote(f)
	}
	for _, l := range levels {
		list := filepath.Join(abs, fmt.Sprintf("level-%d.list", l.Number))
		if err := os.WriteFile(list, []byte(strings.Join(l.Materials, "\n")+"\n"), 0o644); err != nil {
			return nil, err
		}
		data.Level = l
		if err := writeScript(filepath.Join(abs, fmt.Sprintf("level-%d.sbatch", l.Number)), levelScript, data); err != nil {
			return nil, err
		}
	}
	return levels, writeScript(filepath.Join(abs, "submit.sh"), submitScript, data)
}

// scriptData fills the templates.
type scriptData struct {
	SlurmOptions
	Dir    string
	Extra  string // more arguments of tb generate
	Levels []Level
	Level  Level
}

func writeScript(path string, t *template.Template, data scriptData) error {
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o755)
}

// quote quotes a word for the shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var funcs = template.FuncMap{
	"quote": quote,
	"last":  func(n int) int { return n - 1 },
	"hours": func(minutes int) string { return fmt.Sprintf("%02d:%02d:00", minutes/60, minutes%60) },
}

// levelScript is one level's job array: task i builds the level's i-th
// table, trying again after a failure (after 5, 10… seconds;
// CHIMERA_TB_RETRY_DELAY in the submitting environment changes the step), and files a table that fails
// every time in failed.txt; a table already built is read, not redone
// (tb generate's files are written whole and checksummed, so two tasks
// racing on one table cannot leave a broken file).
var levelScript = template.Must(template.New("level").Funcs(funcs).Parse(`#!/bin/bash
#SBATCH --job-name=chimera-tb-{{.Variant}}-level-{{.Level.Number}}
#SBATCH --array=0-{{last (len .Level.Materials)}}
#SBATCH --cpus-per-task={{.CPUs}}
#SBATCH --mem={{.Level.MemoryMB}}M
#SBATCH --time={{hours .Level.Minutes}}
#SBATCH --output={{.Dir}}/logs/level-{{.Level.Number}}-%a.out
{{- if .Partition}}
#SBATCH --partition={{.Partition}}
{{- end}}
# Chimera table plan, level {{.Level.Number}} of {{.Variant}}: {{len .Level.Materials}} tables, independent of each other.
set -u
material=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {{quote .Dir}}/level-{{.Level.Number}}.list)
for attempt in $(seq 1 {{.Retries}}) $(({{.Retries}} + 1)); do
  if {{quote .Chimera}} tb generate "$material" --variant {{quote .Variant}} --dir {{quote .Tables}}{{.Extra}}; then
    exit 0
  fi
  echo "chimera tb plan: $material failed (attempt $attempt of $(({{.Retries}} + 1)))" >&2
  sleep $((attempt * ${CHIMERA_TB_RETRY_DELAY:-5}))
done
echo "level {{.Level.Number}} $material" >> {{quote .Dir}}/failed.txt
exit 1
`))

// submitScript submits the levels in order: each waits for every task of
// the one before to succeed, and is cancelled if one fails for good.
var submitScript = template.Must(template.New("submit").Funcs(funcs).Parse(`#!/bin/bash
# Chimera table plan of {{.Variant}}: {{len .Levels}} levels into {{.Tables}}.
# Run on a Slurm login node: ./submit.sh. Failed tables: {{.Dir}}/failed.txt.
set -eu
cd {{quote .Dir}}
dependency=""
{{- range .Levels}}
job=$(sbatch --parsable --kill-on-invalid-dep=yes $dependency level-{{.Number}}.sbatch)
job=${job%%;*}
echo "level {{.Number}} ({{len .Materials}} tables): job $job"
dependency="--dependency=afterok:$job"
{{- end}}
echo "$job" > last-job
`))
