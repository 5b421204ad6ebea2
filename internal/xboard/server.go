// Package xboard makes Chimera an XBoard/WinBoard engine (the Chess Engine
// Communication Protocol, version 2). Like package uci it parses the
// protocol's commands into calls on a session (the engine service both
// protocols share: one option table, one search lifecycle) and prints the
// session's reports in the protocol's words. Unlike UCI, the engine keeps
// the game (CECP sends moves, not positions) and decides when to think.
package xboard

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/variants"
)

// Config sets up a server: its name, and the session it drives (see
// session.Config). The session's callbacks are the server's own: any set
// here are replaced.
type Config struct {
	Name string
	session.Config
}

// runKind says what a search is for, so its answer is used rightly.
type runKind uint8

const (
	moveRun     runKind = iota // the engine's move: played and printed
	ponderRun                  // thinking on the opponent's time: dropped
	analysisRun                // analyze mode: only its thinking output counts
)

// Server is one CECP session.
type Server struct {
	cfg  Config
	out  *session.LineWriter
	sess *session.Session

	game    game          // the game being played
	clocks  clocks        // time control and clock readings
	force   bool          // force mode: the engine plays neither side
	side    engine.Colour // the side the engine plays outside force mode
	post    bool          // print thinking output
	ponder  bool          // hard: think on the opponent's time
	analyze bool          // analyze mode
	depth   int           // sd: a depth limit, 0 for none
	// runs are the kinds of the searches started and not yet answered, in
	// order (a new search waits for the one before it to answer).
	runs []runKind
	// pongs wait for the engine's move: a ping that comes while it
	// thinks on its move is answered after the move.
	pongs []string
	// lastScore is the engine's last score for its own side, for draw
	// offers.
	lastScore search.Score
	handlers  map[string]func(string) bool
}

// NewServer returns a server writing to out.
func NewServer(out io.Writer, cfg Config) *Server {
	if cfg.Name == "" {
		cfg.Name = "Chimera"
	}
	s := &Server{cfg: cfg, out: session.NewLineWriter(out), side: engine.Black}
	sc := cfg.Config
	sc.OnInfo, sc.OnResult, sc.OnPerft = s.sendThinking, s.answered, nil
	sc.Output = s.out
	sc.OnMessage = func(msg string) { s.out.Printf("# %s", msg) }
	s.sess = session.New(sc)
	s.game.reset(s.sess.Variant().StartPosition())
	s.handlers = s.commands()
	return s
}

// Run reads commands until quit or the end of input.
func (s *Server) Run(in io.Reader) error {
	return s.sess.Serve(in, s.handle, func(err error) { s.out.Printf("Error (%v): line", err) }, urgent)
}

// handle runs one command; it returns false on quit.
func (s *Server) handle(line string) bool {
	cmd, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	rest = strings.TrimSpace(rest)
	if h, ok := s.handlers[cmd]; ok {
		return h(rest)
	}
	if cmd == "" {
		return true
	}
	if looksLikeMove(cmd) {
		s.userMove(cmd) // a move without "usermove" (protocol version 1)
		return true
	}
	s.errorf("unknown command", line)
	return true
}

// commands maps each command to its handler; a handler returns false only
// for quit.
func (s *Server) commands() map[string]func(string) bool {
	ok := func(f func(string)) func(string) bool { return func(a string) bool { f(a); return true } }
	ignore := func(string) bool { return true }
	return map[string]func(string) bool{
		"xboard": ignore, "accepted": ignore, "rejected": ignore, "random": ignore, "computer": ignore,
		"name": ignore, "rating": ignore, "ics": ignore, "hint": ignore, "bk": ignore, "otim": ok(s.otim),
		"protover": ok(s.protover), "new": ok(s.newGame), "variant": ok(s.variant), "force": ok(s.forceMode),
		"go": ok(s.goCommand), "playother": ok(s.playOther), "usermove": ok(s.userMove), "?": ok(s.moveNow),
		"ping": ok(s.ping), "draw": ok(s.drawOffer), "result": ok(s.result), "setboard": ok(s.setBoard),
		"undo": ok(func(string) { s.takeBack(1) }), "remove": ok(func(string) { s.takeBack(2) }),
		"hard": ok(func(string) { s.ponder = true }), "easy": ok(s.easy),
		"post": ok(func(string) { s.post = true }), "nopost": ok(func(string) { s.post = false }),
		"analyze": ok(s.startAnalysis), "exit": ok(s.exitAnalysis), ".": ignore,
		"level": ok(s.level), "st": ok(s.st), "sd": ok(s.sd), "time": ok(s.time),
		"memory": ok(func(a string) { s.setOption("Hash", a) }), "cores": ok(func(a string) { s.setOption("Threads", a) }),
		"option": ok(s.option), "egtpath": ok(s.egtPath), "white": ignore, "black": ignore,
		"quit": func(string) bool { return false },
	}
}

// parseMove reads a move in XBoard's coordinates, or castling written
// O-O / O-O-O (as XBoard sends it in Fischer random chess).
func (s *Server) parseMove(text string) (engine.Move, error) {
	if strings.HasPrefix(text, "O-O") || strings.HasPrefix(text, "0-0") || text == "pass" || text == "@@@@" {
		return s.game.pos.ParseSAN(text) // SAN reads a pass as pass or @@@@
	}
	return s.game.pos.ParseUCI(variants.FromXBoardMove(s.game.pos.Variant().Height, text))
}

// moveText writes a move in XBoard's coordinates; castling in Chess960 is
// O-O or O-O-O, as XBoard expects it in Fischer random chess.
func (s *Server) moveText(m engine.Move) string {
	v := s.sess.Variant()
	if m.Kind() == engine.Castle && v.Chess960 {
		san := s.game.pos.SAN(m)
		return strings.TrimRight(san, "+#")
	}
	return coordinates(v, m)
}

// coordinates writes a move in XBoard's coordinates; a pass (janggi) is
// "pass", as Fairy-Stockfish writes it over CECP.
func coordinates(v *engine.Variant, m engine.Move) string {
	if m.Kind() == engine.Pass {
		return "pass"
	}
	return variants.ToXBoardMove(v.Height, v.UCI(m))
}

// looksLikeMove reports whether a word is shaped like a coordinate move
// (so an illegal one is answered as an illegal move, not an unknown
// command).
func looksLikeMove(w string) bool {
	return len(w) >= 4 && len(w) <= 8 && w[0] >= 'a' && w[0] <= 'p' && w[1] >= '1' && w[1] <= '9'
}

// urgent tells the command that acts at once, whatever is queued before
// it: quit.
func urgent(line string) bool { return strings.TrimSpace(line) == "quit" }

func (s *Server) errorf(kind, command string) {
	s.out.Printf("Error (%s): %s", kind, echo(strings.TrimSpace(command)))
}

// maxEcho bounds the part of a bad command echoed back.
const maxEcho = 200

// echo makes input safe to write back in a line: control bytes and
// invalid UTF-8 are escaped (a NUL would end the GUI's string, a newline
// would forge a second reply), and a long input is cut.
func echo(text string) string {
	var b strings.Builder
	for i, r := range text {
		if b.Len() >= maxEcho {
			b.WriteString("…")
			break
		}
		switch {
		case r == utf8.RuneError && strings.HasPrefix(text[i:], "\uFFFD"):
			b.WriteRune(r)
		case r == utf8.RuneError:
			fmt.Fprintf(&b, "\\x%02x", text[i])
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r < utf8.RuneSelf:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// uciOnly are the session's options CECP has no use for: its thinking
// output has no win chances, and its analyze command is its analysis
// mode.
var uciOnly = map[string]bool{"UCI_ShowWDL": true, "UCI_AnalyseMode": true}

// protover answers with the feature list.
func (s *Server) protover(string) {
	var opts []string
	for _, o := range s.sess.Options() {
		if uciOnly[o.Name] {
			continue
		}
		opts = append(opts, "option=\""+optionFeature(o)+"\"")
	}
	s.out.Printf("feature ping=1 setboard=1 usermove=1 playother=1 san=0 analyze=1 colors=0 sigint=0 sigterm=0 "+
		"reuse=1 memory=1 smp=1 time=1 draw=1 egt=\"syzygy\" myname=\"%s\" variants=\"%s\" %s",
		s.cfg.Name, s.variantList(), strings.Join(opts, " "))
	s.out.Printf("feature done=1")
}

// variantList is the feature's variants list: XBoard's names where it
// knows the game.
func (s *Server) variantList() string {
	var names []string
	for _, n := range s.sess.Catalogue().Names() {
		// chess and its other name, normal, are one entry
		if name := variants.XBoardName(n); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return strings.Join(names, ",")
}

// stop ends any search under way; its answer is dropped.
func (s *Server) stop() {
	for i := range s.runs {
		if s.runs[i] == moveRun {
			s.runs[i] = ponderRun // abandoned: not played
		}
	}
	s.sess.Stop()
}

// newGame is "new": chess from its start position (a variant command may
// follow), White to move, the engine playing Black, no depth limit.
func (s *Server) newGame(string) {
	s.stop()
	if err := s.sess.SetOption("UCI_Variant", "chess"); err != nil {
		s.out.Printf("# %v", err)
	}
	s.sess.NewGame()
	s.game.reset(s.sess.Variant().StartPosition())
	s.force, s.side, s.depth, s.analyze = false, engine.Black, 0, false
	s.clocks.newGame()
}

// variant switches the game to a variant (after new).
func (s *Server) variant(name string) {
	v, err := s.sess.Catalogue().Lookup(variants.FromXBoardName(name))
	if err != nil {
		s.errorf("unknown variant", name)
		return
	}
	s.stop()
	s.sess.SetVariant(v)
	s.game.reset(v.StartPosition())
	if !knownToXBoard(variants.XBoardName(v.Name)) {
		for _, l := range setupLines(v) {
			s.out.Printf("%s", l)
		}
	}
}

func (s *Server) forceMode(string) {
	s.stop()
	s.force = true
}

// goCommand: the engine plays the side to move, from now.
func (s *Server) goCommand(string) {
	s.force = false
	s.side = s.game.pos.SideToMove()
	s.think()
}

// playOther: the engine plays the side not to move.
func (s *Server) playOther(string) {
	s.force = false
	s.side = s.game.pos.SideToMove().Other()
	s.ponderIfAsked()
}

// userMove plays the opponent's move, then thinks if it is the engine's
// turn.
func (s *Server) userMove(text string) {
	m, err := s.parseMove(text)
	if err != nil {
		s.out.Printf("Illegal move: %s", echo(text))
		return
	}
	// A move sent while the engine thinks on its own move (a script that
	// does not wait for it) takes the turn: that search is abandoned, or
	// its answer would be played on top of the user's move.
	s.stop()
	s.game.play(m)
	switch {
	case s.analyze:
		s.analyse()
	case s.gameOver():
	case !s.force && s.game.pos.SideToMove() == s.side:
		s.think()
	}
}

// moveNow is "?": move at once with the best found so far.
func (s *Server) moveNow(string) {
	if len(s.runs) > 0 && s.runs[len(s.runs)-1] == moveRun {
		s.sess.Stop()
	}
}

// ping answers at once, unless the engine is thinking on its move: then
// after the move.
func (s *Server) ping(n string) {
	for _, k := range s.runs {
		if k == moveRun {
			s.pongs = append(s.pongs, "pong "+n)
			return
		}
	}
	s.out.Printf("pong %s", n)
}

// drawOffer accepts when the engine thinks it stands worse, or the game
// is long and level; otherwise the offer is left unanswered (declined).
func (s *Server) drawOffer(string) {
	level := s.lastScore > -10 && s.lastScore < 10 && len(s.game.moves) >= 80
	if s.lastScore < -150 || level {
		s.out.Printf("offer draw")
	}
}

// result: the game is over; the engine stops and plays no more moves.
func (s *Server) result(string) {
	s.stop()
	s.force = true
}

func (s *Server) setBoard(fen string) {
	pos, err := s.sess.Variant().ParseFEN(fen)
	if err != nil {
		s.out.Printf("tellusererror Illegal position: %v", err)
		return
	}
	s.stop()
	s.game.reset(pos)
	if s.analyze {
		s.analyse()
	}
}

// takeBack undoes n plies (undo: 1, remove: 2).
func (s *Server) takeBack(n int) {
	if len(s.game.moves) < n {
		s.errorf("command not legal now", map[int]string{1: "undo", 2: "remove"}[n])
		return
	}
	s.stop()
	s.game.undo(n)
	if s.analyze {
		s.analyse()
	}
}

// easy turns pondering off, and stops a ponder search under way.
func (s *Server) easy(string) {
	s.ponder = false
	s.stopPondering()
}

func (s *Server) startAnalysis(string) {
	s.stop()
	s.analyze = true
	s.analyse()
}

func (s *Server) exitAnalysis(string) {
	s.stop()
	s.analyze = false
}

// setOption sets a session option, reporting an error in the protocol's
// words.
func (s *Server) setOption(name, value string) {
	if err := s.sess.SetOption(name, value); err != nil {
		s.errorf(err.Error(), "option "+name)
		return
	}
	if strings.EqualFold(name, "VariantPath") {
		s.out.Printf("feature variants=\"%s\"", s.variantList())
	}
}

// egtPath is "egtpath TYPE PATH": XBoard's way of pointing an engine at
// endgame tables. Syzygy's (the type the features offer) set SyzygyPath.
func (s *Server) egtPath(arg string) {
	kind, path, _ := strings.Cut(strings.TrimSpace(arg), " ")
	if !strings.EqualFold(kind, "syzygy") {
		s.errorf("unsupported table type "+strconv.Quote(kind)+" (syzygy only)", "egtpath "+arg)
		return
	}
	s.stop()
	s.setOption("SyzygyPath", strings.TrimSpace(path))
}

// option is "option NAME=VALUE" (or "option NAME" for a button).
func (s *Server) option(arg string) {
	name, value, _ := strings.Cut(arg, "=")
	s.stop()
	s.setOption(strings.TrimSpace(name), strings.TrimSpace(value))
}

// think starts the search for the engine's move.
func (s *Server) think() {
	if s.gameOver() {
		return
	}
	s.start(moveRun, s.clocks.limits(s.game.pos, s.side, len(s.game.moves), s.depth))
}

// analyse (re)starts the analysis of the current position.
func (s *Server) analyse() {
	s.stop()
	if s.game.pos.Result().Over() {
		return
	}
	s.start(analysisRun, search.Limits{Infinite: true, Analysis: true})
}

// ponderIfAsked thinks on the opponent's time, when pondering is on and
// the game goes on: the search fills the transposition table for the
// move after the opponent's.
func (s *Server) ponderIfAsked() {
	if s.ponder && !s.force && !s.analyze && !s.game.pos.Result().Over() && s.game.pos.SideToMove() != s.side {
		s.start(ponderRun, search.Limits{Infinite: true})
	}
}

// stopPondering ends a ponder search; its answer is dropped.
func (s *Server) stopPondering() {
	for _, k := range s.runs {
		if k == ponderRun {
			s.sess.Stop()
			return
		}
	}
}

// start runs a search of the current position.
func (s *Server) start(kind runKind, l search.Limits) {
	s.sess.SetPosition(s.game.pos.Clone())
	s.runs = append(s.runs, kind)
	if err := s.sess.Go(l, false); err != nil {
		s.runs = s.runs[:len(s.runs)-1]
		s.out.Printf("Error (%v): go", err)
	}
}

// answered receives every search's answer, in order.
func (s *Server) answered(r search.Result) {
	if len(s.runs) == 0 {
		return
	}
	kind := s.runs[0]
	s.runs = s.runs[1:]
	if kind != moveRun {
		return
	}
	if r.Best == engine.NoMove {
		s.gameOver()
		return
	}
	s.lastScore = r.Score
	s.out.Printf("move %s", s.moveText(r.Best))
	s.game.play(r.Best)
	for _, p := range s.pongs {
		s.out.Printf("%s", p)
	}
	s.pongs = nil
	if !s.gameOver() {
		s.ponderIfAsked()
	}
}

// gameOver prints the result when the game has ended, and reports it.
func (s *Server) gameOver() bool {
	r := s.game.pos.Result()
	if !r.Over() {
		return false
	}
	s.out.Printf("%s {%s}", r.PGN(), r.Reason)
	return true
}

// sendThinking prints one iteration (called from the search goroutine).
func (s *Server) sendThinking(info search.Info) {
	if !s.post || info.CurrMove != engine.NoMove {
		return // XBoard's thinking output has no line for the move being searched
	}
	v := s.sess.Variant()
	var pv []string
	for _, m := range info.PV {
		pv = append(pv, coordinates(v, m))
	}
	s.out.Printf("%d %d %d %d %s", info.Depth, thinkingScore(info.Score), info.Time.Milliseconds()/10, info.Nodes,
		strings.Join(pv, " "))
}

// thinkingScore is a score as XBoard reads it: centipawns, or 100000 + N
// for mate in N moves and −100000 − N for mated in N.
func thinkingScore(sc search.Score) int {
	if !sc.IsMate() {
		return int(sc)
	}
	if sc > 0 {
		return 100000 + sc.MateMoves()
	}
	return -100000 + sc.MateMoves()
}

// level, st, sd, time and otim set the clocks.
func (s *Server) level(arg string) {
	if err := s.clocks.level(arg); err != nil {
		s.errorf(err.Error(), "level "+arg)
	}
}

func (s *Server) st(arg string) {
	if err := s.clocks.moveTime(arg); err != nil {
		s.errorf(err.Error(), "st "+arg)
	}
}

func (s *Server) sd(arg string) {
	var d int
	if _, err := fmt.Sscan(arg, &d); err != nil || d < 1 {
		s.errorf("want a depth of at least 1", "sd "+arg)
		return
	}
	s.depth = min(d, search.MaxPly-1)
}

func (s *Server) time(arg string) {
	if err := s.clocks.reading(arg, &s.clocks.own); err != nil {
		s.errorf(err.Error(), "time "+arg)
	}
}

func (s *Server) otim(arg string) {
	if err := s.clocks.reading(arg, &s.clocks.other); err != nil {
		s.errorf(err.Error(), "otim "+arg)
	}
}
