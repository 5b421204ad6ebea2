// Package perftepd reads perft reference files: one position a line,
// "FEN ;D1 n ;D2 n ...", with # comment lines (the last comment before a
// position names it). Tests of several packages share it.
package perftepd

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Case is one position with its leaf counts by depth.
type Case struct {
	Name   string
	FEN    string
	Counts map[int]uint64
}

// Read parses a perft reference file.
func Read(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []Case
	name := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "#"):
			name = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			continue
		}
		parts := strings.Split(line, ";")
		c := Case{Name: name, FEN: strings.TrimSpace(parts[0]), Counts: map[int]uint64{}}
		for _, p := range parts[1:] {
			fields := strings.Fields(p)
			if len(fields) != 2 || !strings.HasPrefix(fields[0], "D") {
				return nil, fmt.Errorf("%s:%d: bad field %q", path, n, p)
			}
			d, err := strconv.Atoi(fields[0][1:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad depth %q", path, n, fields[0])
			}
			count, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad count %q", path, n, fields[1])
			}
			c.Counts[d] = count
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}
