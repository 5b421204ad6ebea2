package tbbuild

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Job is one table for a child process to build.
type Job struct {
	Variant  *engine.Variant
	Material tablebase.Material
	// Dir is the table directory the file goes to.
	Dir string
	// VariantFiles are the user variant files the variant may come from
	// (SetVariantFiles).
	VariantFiles []string
}

// Command returns the program and arguments of a child process that
// builds a job's table into its directory and exits 0 once the file is
// saved (for Chimera: its own binary's "tb generate", which cmd/chimera
// writes). The builder runs it at the lowest OS priority.
type Command func(Job) []string

// errGaveWay is the error of a build ended to make way for another.
var errGaveWay = errors.New("gave way")

// buildInChild runs one generation in a child process, waits for it, and
// returns the CPU time it took per CPU: what the build costs at full
// speed, however long a busy machine made it wait.
func (b *Builder) buildInChild(cur *building) (time.Duration, error) {
	b.mu.Lock()
	args := b.Command(Job{Variant: cur.v, Material: cur.m, Dir: b.store.Dir(), VariantFiles: b.variantFiles})
	b.mu.Unlock()
	if len(args) == 0 {
		return 0, errors.New("no command to build with")
	}
	args = lowPriority(args)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.SysProcAttr = childAttributes()
	// The child's death signal follows the thread that started it: keep
	// this goroutine on that thread until the child is done.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, left: 4096}
	b.mu.Lock()
	if b.phase == closed || cur.state == givingWay {
		b.mu.Unlock()
		return 0, errGaveWay
	}
	if err := cmd.Start(); err != nil {
		b.mu.Unlock()
		return 0, err
	}
	cur.child, cur.start = cmd.Process, time.Now()
	b.holdChildLocked()
	b.cond.Broadcast() // an Await may be waiting to take this job over
	b.mu.Unlock()
	err := cmd.Wait()
	b.mu.Lock()
	cur.child = nil
	b.mu.Unlock()
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, lastLine(stderr.String()))
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return cpu / time.Duration(runtime.NumCPU()), nil
}

// limitedWriter keeps the first bytes written to it and drops the rest.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		n := min(len(p), l.left)
		l.w.Write(p[:n])
		l.left -= n
	}
	return len(p), nil
}

// lastLine returns the last non-empty line of a child's messages.
func lastLine(s string) string {
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	if len(lines) == 0 {
		return "no message"
	}
	return lines[len(lines)-1]
}
