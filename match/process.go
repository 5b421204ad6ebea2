package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// process is an engine's child process and its lines of output, whatever
// its protocol.
type process struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	mu     sync.Mutex // serialises writes
	exited chan struct{}
}

// startProcess starts the engine's program with its output read line by
// line.
func startProcess(spec EngineSpec) (*process, error) {
	if len(spec.Command) == 0 {
		return nil, fmt.Errorf("engine %s: no command", spec.Name)
	}
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", spec.Name, err)
	}
	p := &process{cmd: cmd, in: in, lines: make(chan string, 1024), exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *process) send(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.in, line+"\n")
}

// waitFor reads lines until one starts with one of the prefixes.
func (p *process) waitFor(ctx context.Context, prefix string, deadline time.Time, more ...string) (string, []string, error) {
	var before []string
	var expired <-chan time.Time // never, without a deadline
	if !deadline.IsZero() {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		expired = timer.C
	}
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return "", before, ErrEngineGone
			}
			for _, pre := range append([]string{prefix}, more...) {
				if strings.HasPrefix(l, pre) {
					return l, before, nil
				}
			}
			before = append(before, l)
		case <-expired:
			return "", before, fmt.Errorf("no %q in time", prefix)
		case <-ctx.Done():
			return "", before, ctx.Err()
		}
	}
}

// quit sends the protocol's quit command and kills the process if it
// does not end.
func (p *process) quit(command string) {
	p.send(command)
	p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		p.Kill()
	}
}

// Kill ends the process at once.
func (p *process) Kill() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	<-p.exited
}

// Alive reports whether the process is still running.
func (p *process) Alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}
