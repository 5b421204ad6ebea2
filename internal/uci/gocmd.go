package uci

import (
	"fmt"
	"strconv"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/search"
)

// goCommand parses "go ..." and starts the search (or perft) in the
// background, after the running one has been answered (the session
// queues it). A go that cannot be run is answered with an error and
// "bestmove 0000", so a waiting GUI never hangs.
func (s *Server) goCommand(args []string) {
	pos := s.sess.Position()
	if pos == nil {
		pos = s.sess.Variant().StartPosition() // what the session will search
	}
	limits, ponder, perft, err := parseGo(pos, args)
	if err == nil && perft > 0 {
		s.sess.Perft(perft)
	} else if err == nil {
		err = s.sess.Go(limits, ponder)
	}
	if err != nil {
		s.errorf("%v", err)
		s.out.Printf("bestmove 0000")
	}
}

// parseGo reads the go parameters.
func parseGo(pos *engine.Position, args []string) (l search.Limits, ponder bool, perft int, err error) {
	num := func(i int) (int64, error) {
		if i+1 >= len(args) {
			return 0, fmt.Errorf("go %s needs a value", args[i])
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("go %s: %q is not a number", args[i], args[i+1])
		}
		return n, nil
	}
	ms := func(n int64) time.Duration { return time.Duration(max(n, 1)) * time.Millisecond }
	for i := 0; i < len(args); i++ {
		var n int64
		switch args[i] {
		case "infinite":
			l.Infinite = true
			continue
		case "ponder":
			ponder = true
			continue
		case "searchmoves":
			for i+1 < len(args) {
				m, err := pos.ParseUCI(args[i+1])
				if err != nil {
					break
				}
				l.SearchMoves = append(l.SearchMoves, m)
				i++
			}
			if len(l.SearchMoves) == 0 {
				return l, false, 0, fmt.Errorf("go searchmoves: no legal move given")
			}
			continue
		case "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime", "perft":
			if n, err = num(i); err != nil {
				return l, false, 0, err
			}
		default:
			return l, false, 0, fmt.Errorf("go: unknown parameter %q", args[i])
		}
		key := args[i]
		i++
		switch key {
		case "wtime":
			l.WTime = ms(n)
		case "btime":
			l.BTime = ms(n)
		case "winc":
			l.WInc = time.Duration(max(n, 0)) * time.Millisecond
		case "binc":
			l.BInc = time.Duration(max(n, 0)) * time.Millisecond
		case "movestogo":
			l.MovesToGo = int(max(n, 0))
		case "depth", "nodes", "mate", "perft", "movetime":
			// Clocks (wtime, btime) may be negative when a GUI is late and
			// are taken as 1 ms; a limit the user chose must be sensible.
			if n < 1 {
				return l, false, 0, fmt.Errorf("go %s: %d must be at least 1", key, n)
			}
			switch key {
			case "depth":
				l.Depth = int(min(n, search.MaxPly-1))
			case "nodes":
				l.Nodes = uint64(n)
			case "mate":
				l.Mate = int(min(n, search.MaxPly/2))
				l.Depth = max(l.Depth, min(2*l.Mate+1, search.MaxPly-1))
			case "perft":
				perft = int(min(n, 20))
			case "movetime":
				l.MoveTime = ms(n)
			}
		}
	}
	return l, ponder, perft, nil
}
