package datagen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

// SlurmJob is a data-generation run spread over a Slurm cluster as one
// job array: task i runs the same datagen command with seed Seed+i into a
// file of its own (the output's name with ".i" before its extension), so
// the tasks' games never repeat each other's, and resubmitting the script
// resumes each file where it stands. chimera train reads them all.
type SlurmJob struct {
	// Chimera is the engine's path on the nodes; Args the datagen flags
	// every task shares (variant, nodes, teacher…), without --out,
	// --seed, --positions and --threads, which the script sets.
	Chimera string
	Args    []string
	// Out is the data file's path on the nodes, each task's made from it.
	Out string
	// Tasks, Seed: the array's size and the first task's seed;
	// Positions each task's target; CPUs each task's threads.
	Tasks     int
	Seed      uint64
	Positions int64
	CPUs      int
	// Hours is each task's time limit (it stops cleanly at SIGTERM and
	// resumes when resubmitted); Partition, when set, the partition.
	Hours     int
	Partition string
	// Variant names the job.
	Variant string
}

// TaskFile returns task i's data file.
func (j *SlurmJob) TaskFile(i string) string {
	ext := filepath.Ext(j.Out)
	return strings.TrimSuffix(j.Out, ext) + "." + i + ext
}

// WriteSlurm writes the job's batch script, datagen.sbatch, into dir and
// returns its path.
func WriteSlurm(dir string, j SlurmJob) (string, error) {
	if j.Tasks < 1 || j.CPUs < 1 || j.Hours < 1 || j.Positions < 1 {
		return "", fmt.Errorf("a job array needs tasks, CPUs, hours and positions")
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	args := make([]string, len(j.Args))
	for i, a := range j.Args {
		args[i] = quote(a)
	}
	// Each task's file: the task's number where the placeholder stands.
	out := strings.Replace(quote(j.TaskFile("\x00")), "\x00", `'"$SLURM_ARRAY_TASK_ID"'`, 1)
	var b strings.Builder
	err = slurmScript.Execute(&b, struct {
		SlurmJob
		Dir, Command, Args, OutPattern string
		Last                           int
	}{j, abs, quote(j.Chimera), strings.Join(args, " "), out, j.Tasks - 1})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "datagen.sbatch")
	return path, os.WriteFile(path, []byte(b.String()), 0o755)
}

// quote quotes a word for the shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var slurmScript = template.Must(template.New("datagen").Parse(`#!/bin/bash
#SBATCH --job-name=chimera-datagen-{{.Variant}}
#SBATCH --array=0-{{.Last}}
#SBATCH --cpus-per-task={{.CPUs}}
#SBATCH --time={{.Hours}}:00:00
#SBATCH --signal=B:TERM@120
#SBATCH --output={{.Dir}}/logs/datagen-%a.out
{{- if .Partition}}
#SBATCH --partition={{.Partition}}
{{- end}}
# Chimera datagen of {{.Variant}}: {{.Tasks}} tasks, each its own seed and file.
# Submit with: sbatch {{.Dir}}/datagen.sbatch (again to resume: each file
# continues where it stands until it holds {{.Positions}} positions).
set -u
exec {{.Command}} datagen {{.Args}} --threads {{.CPUs}} --positions {{.Positions}} \
  --seed $(({{.Seed}} + SLURM_ARRAY_TASK_ID)) --out {{.OutPattern}}
`))
