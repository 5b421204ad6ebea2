// Package pipetest drives a protocol server through pipes, as a GUI
// would, for the protocols' tests (UCI and XBoard): commands go in as
// lines, and answers are awaited by prefix.
package pipetest

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Conn is one running server and its pipes.
type Conn struct {
	t        *testing.T
	in       *io.PipeWriter
	lines    chan string
	finished chan struct{} // closed when serve has returned, with err
	err      error
}

// Start runs serve (reading commands from in, writing answers to out)
// until the test ends, when its input is closed and it must return.
// Output lines for which skip reports true (reports that come at any
// time, such as a table being built) are dropped.
func Start(t *testing.T, serve func(in io.Reader, out io.Writer) error, skip func(line string) bool) *Conn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &Conn{t: t, in: inW, lines: make(chan string, 10000), finished: make(chan struct{})}
	go func() {
		c.err = serve(inR, outW)
		outW.Close()
		close(c.finished)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			if !skip(sc.Text()) {
				c.lines <- sc.Text()
			}
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.finished:
		case <-time.After(10 * time.Second): // guards a hang only
			t.Error("server did not stop at end of input")
		}
	})
	return c
}

// Wait waits for the server to return (after quit, say) and returns its
// error. The deadline only guards against a hang.
func (c *Conn) Wait() error {
	c.t.Helper()
	select {
	case <-c.finished:
		return c.err
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not return")
		return nil
	}
}

// CloseInput ends the server's input, as a script's pipe ends.
func (c *Conn) CloseInput() {
	require.NoError(c.t, c.in.Close())
}

// Send writes command lines.
func (c *Conn) Send(lines ...string) {
	for _, l := range lines {
		_, err := io.WriteString(c.in, l+"\n")
		require.NoError(c.t, err)
	}
}

// Expect reads lines until one starts with prefix and returns it, with
// the lines before it. The deadline only guards against a hang.
func (c *Conn) Expect(prefix string) (string, []string) {
	c.t.Helper()
	var before []string
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("output ended waiting for %q after %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-timeout:
			c.t.Fatalf("no %q within the deadline; got %q", prefix, before)
		}
	}
}
