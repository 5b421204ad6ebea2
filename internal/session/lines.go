package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// MaxLine is the longest command line read (1 MiB): far beyond any real
// command (a 1,000-move game is some 5 KB), short enough that a runaway
// writer cannot make the engine hold its output.
const MaxLine = 1 << 20

// errLineTooLong reports a line over MaxLine, which is skipped.
var errLineTooLong = errors.New("line longer than 1 MiB ignored")

// readLines reads lines (without their end, "\r\n" or "\n") from in and
// hands each to line until it returns false or the input ends. A line
// over MaxLine is skipped whole, and reported to bad instead; nothing is
// held beyond MaxLine however long it is.
func readLines(in io.Reader, line func(string) bool, bad func(error) bool) {
	r := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(buf)+len(chunk) > MaxLine+2 {
			tooLong, buf = true, buf[:0]
		}
		if !tooLong {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		text := strings.TrimRight(string(buf), "\r\n")
		more := true
		switch {
		case tooLong || len(text) > MaxLine:
			more = bad(errLineTooLong)
		case len(buf) > 0 || err == nil:
			more = line(text)
		}
		if err != nil || !more {
			return
		}
		buf, tooLong = buf[:0], false
	}
}

// LineWriter writes whole lines under a lock, so that a protocol's
// reports from the search goroutine (info, thinking output) and its
// answers from the command loop never interleave.
type LineWriter struct {
	mu sync.Mutex
	w  io.Writer
	// copied, when set, is told every line written (the debug log).
	copied func(line string)
}

// NewLineWriter returns a line writer on w.
func NewLineWriter(w io.Writer) *LineWriter { return &LineWriter{w: w} }

// Printf writes one line: format with args, then a newline.
func (lw *LineWriter) Printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	line := fmt.Sprintf(format, args...)
	fmt.Fprintln(lw.w, line)
	if lw.copied != nil {
		lw.copied(line)
	}
}

// copyTo has every line written from now on also given to copied (nil:
// to nothing).
func (lw *LineWriter) copyTo(copied func(line string)) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.copied = copied
}
