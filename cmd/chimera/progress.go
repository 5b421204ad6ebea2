package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressBar draws a stage's progress on one line with an estimate of
// the time left.
type progressBar struct {
	out   io.Writer
	stage string
	start time.Time
	last  time.Time
}

func newProgressBar(out io.Writer) *progressBar { return &progressBar{out: out} }

// show draws done of total for a stage (at most every 200 ms).
func (b *progressBar) show(stage string, done, total int, detail string) {
	now := time.Now()
	if stage != b.stage {
		if b.stage != "" {
			fmt.Fprintln(b.out)
		}
		b.stage, b.start = stage, now
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
	fmt.Fprintf(b.out, "\r%-5s [%s%s] %3d%%  ETA %-8s %s ", stage, strings.Repeat("#", n), strings.Repeat(".", width-n),
		int(100*frac), eta, detail)
}

// note prints a line of its own after the bar's current line.
func (b *progressBar) note(text string) {
	if b.stage != "" {
		fmt.Fprintln(b.out)
	}
	fmt.Fprintln(b.out, text)
	b.stage = ""
}

// done ends the bar's line.
func (b *progressBar) done() {
	if b.stage != "" {
		fmt.Fprintln(b.out)
	}
}
