package uci

import (
	"fmt"
	"slices"
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
	d := s.speaks()
	g, err := parseGo(pos, args, goUnits{dialect: d, seconds: s.seconds})
	if err == nil && len(s.banned) > 0 {
		g.limits.SearchMoves, err = withoutBanned(pos, g.limits.SearchMoves, s.banned)
	}
	if err == nil && g.perft > 0 {
		s.sess.Perft(g.perft)
	} else if err == nil {
		// The search before is answered first, in its own way: the flag
		// says how this one is.
		s.sess.Finish()
		s.checkmate.Store(g.checkmate)
		err = s.sess.Go(g.limits, g.ponder)
	}
	if err != nil {
		s.errorf("%v", err)
		switch {
		case g.checkmate:
			s.out.Printf("checkmate notimplemented")
		case d == UCCI:
			s.out.Printf("nobestmove")
		case d == USI:
			s.out.Printf("bestmove resign")
		default:
			s.out.Printf("bestmove 0000")
		}
	}
}

// goUnits says how a dialect's go is read: its clock words, and UCCI's
// unit of time.
type goUnits struct {
	dialect Dialect
	seconds bool // UCCI with usemillisec off
}

// goCommand's parsed parameters.
type goParams struct {
	limits search.Limits
	ponder bool
	perft  int
	// checkmate: USI's go mate, a search for a mate answered with
	// "checkmate ...", not bestmove.
	checkmate bool
}

// withoutBanned returns the root moves a search may play when UCCI's
// banmoves excluded some: those of searchMoves (all legal moves when
// empty) that are not banned. Every move banned is an error.
func withoutBanned(pos *engine.Position, searchMoves, banned []engine.Move) ([]engine.Move, error) {
	if len(searchMoves) == 0 {
		searchMoves = pos.LegalMoves(nil)
	}
	var allowed []engine.Move
	for _, m := range searchMoves {
		if !slices.Contains(banned, m) {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) == 0 {
		return nil, fmt.Errorf("go: banmoves leaves no legal move")
	}
	return allowed, nil
}

// banMoves handles UCCI's "banmoves MOVE...": the moves the next
// searches of this position may not play (a repetition the rules
// forbid). Nothing changes unless every move is legal.
func (s *Server) banMoves(args []string) {
	pos := s.sess.Position()
	if pos == nil {
		pos = s.sess.Variant().StartPosition()
	}
	var banned []engine.Move
	for _, text := range args {
		m, err := s.speaks().parseMove(pos, text)
		if err != nil {
			s.errorf("banmoves: %v", err)
			return
		}
		banned = append(banned, m)
	}
	s.banned = banned
}

// parseGo reads the go parameters in the units' dialect.
func parseGo(pos *engine.Position, args []string, units goUnits) (goParams, error) {
	var g goParams
	err := g.read(pos, args, units)
	return g, err
}

// read fills g from the go parameters. UCI's clock words are by colour
// (wtime is White's); USI's by the shogi names of the sides (btime is
// sente's, the side that moves first, which the engine calls White), with
// byoyomi added to both clocks and given back each move; UCCI's by the
// side to move (time, increment) and its opponent (opptime, oppinc).
func (g *goParams) read(pos *engine.Position, args []string, units goUnits) error {
	l := &g.limits
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
	unit := time.Millisecond
	if units.seconds {
		unit = time.Second
	}
	clock := func(n int64) time.Duration { return time.Duration(max(n, 1)) * unit }
	inc := func(n int64) time.Duration { return time.Duration(max(n, 0)) * unit }
	// The side to move's and its opponent's clocks, for UCCI's words.
	mine, theirs := &l.WTime, &l.BTime
	myInc, theirInc := &l.WInc, &l.BInc
	if pos.SideToMove() == engine.Black {
		mine, theirs, myInc, theirInc = theirs, mine, theirInc, myInc
	}
	byoyomi := time.Duration(0)
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			l.Infinite = true
			continue
		case "ponder":
			g.ponder = true
			continue
		case "draw":
			continue // UCCI: the opponent offers a draw; the engine plays on
		case "searchmoves":
			for i+1 < len(args) {
				m, err := units.dialect.parseMove(pos, args[i+1])
				if err != nil {
					break
				}
				l.SearchMoves = append(l.SearchMoves, m)
				i++
			}
			if len(l.SearchMoves) == 0 {
				return fmt.Errorf("go searchmoves: no legal move given")
			}
			continue
		case "mate":
			if units.dialect == USI {
				// A search for a mate, within a time or until stop.
				g.checkmate = true
				l.Mate = search.MaxPly / 2
				if i+1 < len(args) && args[i+1] == "infinite" {
					i++
					continue
				}
			}
		}
		switch key {
		case "wtime", "btime", "winc", "binc", "byoyomi", "time", "opptime", "increment", "oppinc", "oppincrement",
			"movestogo", "oppmovestogo", "depth", "nodes", "mate", "perft", "movetime":
		default:
			return fmt.Errorf("go: unknown parameter %q", key)
		}
		n, err := num(i)
		if err != nil {
			return err
		}
		i++
		switch key {
		case "wtime", "btime", "winc", "binc":
			white := key[0] == 'w'
			if units.dialect == USI {
				white = !white // b is sente, the side that moves first
			}
			switch {
			case key[1:] == "time" && white:
				l.WTime = clock(n)
			case key[1:] == "time":
				l.BTime = clock(n)
			case white:
				l.WInc = inc(n)
			default:
				l.BInc = inc(n)
			}
		case "byoyomi":
			byoyomi = inc(n)
		case "time":
			*mine = clock(n)
		case "opptime":
			*theirs = clock(n)
		case "increment":
			*myInc = inc(n)
		case "oppinc", "oppincrement":
			*theirInc = inc(n)
		case "movestogo":
			l.MovesToGo = int(max(n, 0))
		case "oppmovestogo":
			// The opponent's moves to its time control: not the engine's.
		case "depth", "nodes", "mate", "perft", "movetime":
			// Clocks may be negative when a GUI is late and are taken as
			// 1 ms; a limit the user chose must be sensible.
			if n < 1 {
				return fmt.Errorf("go %s: %d must be at least 1", key, n)
			}
			switch {
			case key == "depth":
				l.Depth = int(min(n, search.MaxPly-1))
			case key == "nodes":
				l.Nodes = uint64(n)
			case key == "mate" && g.checkmate:
				l.MoveTime = time.Duration(n) * time.Millisecond // USI: the time for the mate search
			case key == "mate":
				l.Mate = int(min(n, search.MaxPly/2))
				l.Depth = max(l.Depth, min(2*l.Mate+1, search.MaxPly-1))
			case key == "perft":
				g.perft = int(min(n, 20))
			case key == "movetime":
				l.MoveTime = time.Duration(n) * unit
			}
		}
	}
	if byoyomi > 0 {
		// Byoyomi is time given each move once the main time is spent: as
		// Fairy-Stockfish reads it, an increment, already on the clock.
		l.WInc, l.BInc = byoyomi, byoyomi
		l.WTime += byoyomi
		l.BTime += byoyomi
	}
	return nil
}
