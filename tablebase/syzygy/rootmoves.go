package syzygy

import "github.com/chimera-chess/chimera/engine"

// This file values a position's moves by the tables and chooses among
// them as perfect play does under the fifty-move rule: the engine's root,
// the explorer's move list and compare's defender all start from it.

// MoveValue is one legal move and the position it leads to, valued for
// that position's side to move (the opponent of the mover).
type MoveValue struct {
	Move engine.Move
	// WDL and DTZ are ProbeWDL's and ProbeDTZ's answers after the move,
	// with the move counter at zero.
	WDL WDL
	DTZ int
	// Checkmate and Stalemate: the move ends the game so.
	Checkmate, Stalemate bool
	// Zeroing: the move is a capture or a pawn move (the move counter
	// starts again).
	Zeroing bool
}

// MoveValues values every legal move of pos by the tables. Any table a
// move needs that is missing or damaged makes it an error (the moves
// are then not all known). pos is used to make and unmake moves and is
// as it was on return.
func (t *Tables) MoveValues(pos *engine.Position) ([]MoveValue, error) {
	if err := t.checkPosition(pos); err != nil {
		return nil, err
	}
	var buf [engine.MaxMoves]engine.Move
	moves := pos.LegalMoves(buf[:0])
	values := make([]MoveValue, 0, len(moves))
	for _, m := range moves {
		pos.Make(m)
		mv, err := t.valueAfter(pos, m)
		pos.Unmake()
		if err != nil {
			return nil, err
		}
		values = append(values, mv)
	}
	return values, nil
}

// valueAfter values the position a move m has just led to.
func (t *Tables) valueAfter(pos *engine.Position, m engine.Move) (MoveValue, error) {
	mv := MoveValue{Move: m, Zeroing: pos.HalfmoveClock() == 0}
	var buf [engine.MaxMoves]engine.Move
	if len(pos.LegalMoves(buf[:0])) == 0 {
		// The game is over: no table is asked (ProbeDTZ counts a mated
		// side's −1, which is what a table would say).
		if pos.InCheck() {
			mv.Checkmate, mv.WDL, mv.DTZ = true, Loss, -1
		} else {
			mv.Stalemate = true
		}
		return mv, nil
	}
	var err error
	if mv.WDL, err = t.probeWDL(pos); err != nil {
		return mv, err
	}
	mv.DTZ, err = t.probeDTZ(pos)
	return mv, err
}

// Outcome is a move's result for the mover, best last, as perfect play
// ranks them under the fifty-move rule with the clock as it stands.
type Outcome int8

// The outcomes, in order.
const (
	// OutcomeLoss: the mover loses within the rule.
	OutcomeLoss Outcome = iota
	// OutcomeBlessedLoss: the mover would lose, but the rule draws first.
	OutcomeBlessedLoss
	// OutcomeDraw: a draw whatever the rule.
	OutcomeDraw
	// OutcomeCursedWin: the mover would win, but the rule draws first.
	OutcomeCursedWin
	// OutcomeWin: the mover wins within the rule.
	OutcomeWin
)

// Result returns the outcome as win/draw/loss (1, 0, −1): under the
// rule (rule50) a cursed win and a blessed loss are draws.
// (The outcomes run from loss to win as WDL's values do, from −2 to 2.)
func (o Outcome) Result(rule50 bool) int { return WDL(o - OutcomeDraw).Result(rule50) }

// Judge returns the move's outcome for the mover, with clock the move
// counter before it (plies since the last capture or pawn move), and the
// plies from now until the game's next zeroing move (or mate) under
// perfect play: 1 for a zeroing or mating move itself.
func (mv MoveValue) Judge(clock int) (Outcome, int) {
	if mv.Checkmate {
		return OutcomeWin, 1
	}
	after := clock + 1 // the counter after the move
	if mv.Zeroing {
		after = 0
	}
	plies := 1 + abs(mv.DTZ) // the move, then the opponent's distance
	if mv.Zeroing {
		plies = 1
	}
	switch {
	case mv.DTZ < 0: // the opponent loses
		if after+abs(mv.DTZ) <= 100 {
			return OutcomeWin, plies
		}
		return OutcomeCursedWin, plies
	case mv.DTZ > 0: // the opponent wins
		if after+mv.DTZ <= 100 {
			return OutcomeLoss, plies
		}
		return OutcomeBlessedLoss, plies
	}
	return OutcomeDraw, plies
}

// Choose returns what perfect play does with the valued moves of a
// position whose move counter is clock, under the fifty-move rule or
// (rule50 false) without it, when a cursed win is a win and a blessed
// loss a loss: its outcome; the move to play when the outcome is a win
// (a mate, else the fastest to its next zeroing move) or a loss (the
// slowest), NoMove otherwise; and keep, the moves as good as the best:
// in a win or a loss those tied with move (move first), in a draw every
// move that keeps it, any of which may be played. values must not be
// empty.
func Choose(values []MoveValue, clock int, rule50 bool) (best Outcome, move engine.Move, keep []engine.Move) {
	type judged struct {
		o     Outcome
		plies int
		mate  bool
	}
	// better reports whether a is perfect play's choice over b.
	better := func(a, b judged) bool {
		switch {
		case a.o != b.o:
			return a.o > b.o
		case a.mate != b.mate:
			return a.mate
		case a.o >= OutcomeCursedWin: // a win: sooner
			return a.plies < b.plies
		case a.o <= OutcomeBlessedLoss: // a loss: later
			return a.plies > b.plies
		}
		return false
	}
	judge := func(mv MoveValue) (Outcome, int) {
		o, plies := mv.Judge(clock)
		switch {
		case rule50:
		case o == OutcomeCursedWin:
			o = OutcomeWin
		case o == OutcomeBlessedLoss:
			o = OutcomeLoss
		}
		return o, plies
	}
	judgedOf := func(mv MoveValue) judged {
		o, plies := judge(mv)
		return judged{o, plies, mv.Checkmate}
	}
	var top judged
	for i, mv := range values {
		if j := judgedOf(mv); i == 0 || better(j, top) {
			top, move = j, mv.Move
		}
	}
	decided := top.o == OutcomeWin || top.o == OutcomeLoss
	if decided {
		keep = append(keep, move)
	}
	for _, mv := range values {
		j := judgedOf(mv)
		switch {
		case !decided && j.o == top.o:
			keep = append(keep, mv.Move)
		case decided && mv.Move != move && !better(j, top) && !better(top, j):
			keep = append(keep, mv.Move)
		}
	}
	if !decided {
		move = engine.NoMove
	}
	return top.o, move, keep
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
