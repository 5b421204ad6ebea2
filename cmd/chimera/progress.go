package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// isTerminal reports whether w is a terminal: progress redrawn in place
// ("\r") is for people watching, and only litters a log or a pipe.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// liveLine is one line of progress redrawn in place on a terminal, and
// not written at all elsewhere; lines of their own go out either way.
// Its methods may be called from several goroutines (a store's
// generations report from theirs).
type liveLine struct {
	mu    sync.Mutex
	out   io.Writer
	live  bool
	drawn bool // a progress line is on the screen, unended
}

func newLiveLine(out io.Writer) *liveLine { return &liveLine{out: out, live: isTerminal(out)} }

// draw redraws the progress line (on a terminal).
func (l *liveLine) draw(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live {
		fmt.Fprintf(l.out, "\r"+format, args...)
		l.drawn = true
	}
}

// report says an event: redrawn in place on a terminal (the latest
// stands), a line of its own elsewhere (a log keeps them all).
func (l *liveLine) report(format string, args ...any) {
	if l.live {
		l.draw(format, args...)
		return
	}
	l.println(fmt.Sprintf(format, args...))
}

// end ends the progress line, if one is drawn.
func (l *liveLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprintln(l.out)
		l.drawn = false
	}
}

// println writes a line of its own, over the progress line if one is
// drawn (which the next draw brings back).
func (l *liveLine) println(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprint(l.out, "\r\033[K")
		l.drawn = false
	}
	fmt.Fprintln(l.out, text)
}

// progressBar draws a stage's progress on one line with an estimate of
// the time left: redrawn in place on a terminal; elsewhere (a log) a
// line at every tenth of a stage.
type progressBar struct {
	out   io.Writer
	live  bool
	stage string
	// start is when the stage's work began: the bar's making for the
	// first stage (made as the work starts), the last report of the one
	// before for the others.
	start time.Time
	last  time.Time
	tenth int // the last tenth written, where not live
}

// newProgressBar returns a bar for work starting now.
func newProgressBar(out io.Writer) *progressBar {
	return &progressBar{out: out, live: isTerminal(out), start: time.Now()}
}

// show draws done of total for a stage (at most every 200 ms).
func (b *progressBar) show(stage string, done, total int, detail string) {
	now := time.Now()
	if stage != b.stage {
		if b.stage != "" && b.live {
			fmt.Fprintln(b.out)
		}
		if !b.last.IsZero() {
			b.start = b.last // the stage before (or a note after it) ended then
		}
		b.stage, b.tenth = stage, -1
	} else if now.Sub(b.last) < 200*time.Millisecond && done < total {
		return
	}
	b.last = now
	const width = 30
	frac := min(float64(done)/float64(max(total, 1)), 1) // the last games may overshoot
	n := int(frac * width)
	eta := "?"
	if done > 0 {
		left := time.Duration(float64(now.Sub(b.start)) * (1 - frac) / frac)
		eta = left.Round(time.Second).String()
	}
	if !b.live {
		if tenth := int(10 * frac); tenth != b.tenth {
			b.tenth = tenth
			fmt.Fprintf(b.out, "%s %3d%%  ETA %s %s\n", stage, int(100*frac), eta, detail)
		}
		return
	}
	fmt.Fprintf(b.out, "\r%-5s [%s%s] %3d%%  ETA %-8s %s ", stage, strings.Repeat("#", n), strings.Repeat(".", width-n),
		int(100*frac), eta, detail)
}

// note prints a line of its own after the bar's current line.
func (b *progressBar) note(text string) {
	if b.stage != "" && b.live {
		fmt.Fprintln(b.out)
	}
	fmt.Fprintln(b.out, text)
	b.stage = ""
}

// done ends the bar's line.
func (b *progressBar) done() {
	if b.stage != "" && b.live {
		fmt.Fprintln(b.out)
	}
}
