package engine

import "fmt"

// Outcome is a game result from one side's point of view.
type Outcome int8

// The outcomes.
const (
	Loss Outcome = -1
	Draw Outcome = 0
	Win  Outcome = 1
)

// String returns "loss", "draw" or "win".
func (o Outcome) String() string {
	switch o {
	case Loss:
		return "loss"
	case Win:
		return "win"
	}
	return "draw"
}

// Value is what a game-end rule gives the side it applies to. The zero value
// NoValue switches an optional rule off; for checkmate and stalemate it means
// the chess default (loss, draw).
type Value int8

// The rule values.
const (
	NoValue Value = iota
	LossValue
	DrawValue
	WinValue
)

// Outcome converts a rule value to the outcome it gives, def for NoValue
// (the rule's default).
func (v Value) Outcome(def Outcome) Outcome {
	switch v {
	case LossValue:
		return Loss
	case DrawValue:
		return Draw
	case WinValue:
		return Win
	}
	return def
}

// Reason says why a game ended, or that it goes on.
type Reason uint8

// The reasons. Variant rules add their own as they appear.
const (
	Ongoing Reason = iota
	Checkmate
	Stalemate
	MoveRuleDraw
	RepetitionDraw
	InsufficientMaterialDraw
	Extinction
	BareKing
	FlagReached
	CheckLimit
	RoyalLost
	PerpetualCheck
	CountingDraw
	Bikjang
	DoublePass
	// Niol: shatar's mate without a shak among the checks before it.
	Niol
)

var reasonNames = [...]string{"ongoing", "checkmate", "stalemate", "fifty-move rule", "repetition",
	"insufficient material", "extinction", "bare king", "flag reached", "check limit", "royal piece lost",
	"perpetual check", "counting rule", "bikjang", "both sides passed", "mate without a shak (niol)"}

// String names the reason as a PGN Termination comment would.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", r)
}

// Result is the state of the game: ongoing, or ended with an outcome for
// the side to move and the reason.
type Result struct {
	Reason Reason
	// Outcome is for the side to move (Loss when it is checkmated).
	Outcome Outcome
	// Side is the side to move the outcome belongs to.
	Side Colour
}

// Over reports whether the game has ended.
func (r Result) Over() bool { return r.Reason != Ongoing }

// PGN returns the PGN result token: 1-0, 0-1, 1/2-1/2 or *.
func (r Result) PGN() string {
	switch {
	case !r.Over():
		return "*"
	case r.Outcome == Draw:
		return "1/2-1/2"
	case (r.Outcome == Win) == (r.Side == White):
		return "1-0"
	}
	return "0-1"
}

// String describes the result for people: "0-1 (checkmate)".
func (r Result) String() string {
	if !r.Over() {
		return "*"
	}
	return r.PGN() + " (" + r.Reason.String() + ")"
}

// Result decides whether the game is over by the variant's end rules: no
// legal move (checkmate or stalemate, valued by the variant), the n-move
// rule, n-fold repetition and insufficient material, in that order, so a
// checkmate on the hundredth ply still counts as a mate.
func (p *Position) Result() Result {
	v := p.v
	if r, over := p.immediateEnd(); over {
		return r
	}
	if !p.HasLegalMove() {
		return p.NoMoveResult()
	}
	if p.countingRunOut() {
		return Result{Reason: CountingDraw, Side: p.stm}
	}
	if p.MoveRuleReached() {
		return p.drawOrCount(MoveRuleDraw)
	}
	if v.RepetitionRule > 0 && p.RepetitionCount() >= v.RepetitionRule {
		if r, ok := p.PerpetualCheck(); ok {
			return r
		}
		return p.drawOrCount(RepetitionDraw)
	}
	if v.insufficientMaterial && p.insufficientMaterial() {
		return Result{Reason: InsufficientMaterialDraw, Side: p.stm}
	}
	return Result{Side: p.stm}
}

// RepetitionCount returns how many times the current position has occurred
// since the position was set up, this time included. Only positions since
// the last capture or pawn move can repeat, but in games whose captures
// go to hand any position of the game can.
func (p *Position) RepetitionCount() int {
	n, _ := p.repetitions()
	return n
}

// repetitions returns how many times the current position has occurred
// (see RepetitionCount) and the history index of its first occurrence
// (len(history) when this is the first).
func (p *Position) repetitions() (n, first int) {
	n, first = 1, len(p.history)
	stop := max(len(p.history)-p.halfmove, 0)
	if p.v.CapturesToHand {
		// A capture is not irreversible when the piece comes back from
		// the hand: the whole game counts, as in Fairy-Stockfish.
		stop = 0
	}
	for j := len(p.history) - 2; j >= stop; j -= 2 {
		if p.history[j].key == p.key {
			n, first = n+1, j
		}
	}
	return n, first
}

// PerpetualCheck reports, in a variant with PerpetualCheckIllegal and at a
// position that occurred before, whether one side gave check with every
// one of its moves since then: the result, that side losing. A search
// scores such a repetition so, not as a draw.
func (p *Position) PerpetualCheck() (Result, bool) {
	if !p.v.PerpetualCheckIllegal {
		return Result{}, false
	}
	checker, ok := p.perpetualChecker()
	if !ok {
		return Result{}, false
	}
	o := Win
	if checker == p.stm {
		o = Loss
	}
	return Result{Reason: PerpetualCheck, Outcome: o, Side: p.stm}, true
}

// perpetualChecker returns the side that gave check with every one of its
// moves since the first of the repeated occurrences of the position, if
// exactly one side did (none across a null move). It takes the moves back
// and makes them again.
func (p *Position) perpetualChecker() (Colour, bool) {
	_, first := p.repetitions()
	for _, u := range p.history[first:] {
		if u.move == NoMove {
			return White, false
		}
	}
	checking := [2]bool{true, true}
	var buf [32]Move
	undone := buf[:0]
	for len(p.history) > first {
		mover := p.stm.Other()
		checking[mover] = checking[mover] && p.InCheck()
		undone = append(undone, p.history[len(p.history)-1].move)
		p.Unmake()
	}
	for i := len(undone) - 1; i >= 0; i-- {
		p.Make(undone[i])
	}
	switch {
	case checking[White] && !checking[Black]:
		return White, true
	case checking[Black] && !checking[White]:
		return Black, true
	}
	return White, false
}

// insufficientMaterial applies the chess rule: besides royal kings there are
// no pieces but knights and bishops, and either at most one of them or only
// bishops, all on squares of one colour.
func (p *Position) insufficientMaterial() bool {
	minors, knights := 0, 0
	var bishopColours [2]bool
	for c := White; c <= Black; c++ {
		for _, s := range p.Pieces(c) {
			pc := p.board[s]
			switch pt := p.v.PieceType(pc); {
			case pt.Royal && pt.Role == RoleKing:
			case pt.Role == RoleKnight:
				minors++
				knights++
			case pt.Role == RoleBishop:
				minors++
				bishopColours[s.shade()] = true
			default:
				return false
			}
		}
	}
	return minors <= 1 || (knights == 0 && !(bishopColours[0] && bishopColours[1]))
}

// ImmediateEnd reports whether a variant rule (extinction, a flag reached,
// the last check given, a king blown up...) has already ended the game;
// such a position has no legal moves.
func (p *Position) ImmediateEnd() (Result, bool) { return p.immediateEnd() }

// janggiEnd reports the ends Fairy-Stockfish 11.1 counts among the
// immediate ones (so its perft stops there too): a face-off of the royal
// pieces (bikjang) that stood before the last move as well, or two passes
// running.
func (p *Position) janggiEnd() (Result, bool) {
	v := p.v
	n := len(p.history)
	if n == 0 {
		return Result{}, false
	}
	last := &p.history[n-1]
	switch {
	case v.Bikjang && last.facing && p.generalsFace():
		return p.drawOrCount(Bikjang), true
	case last.move.Kind() == Pass && n >= 2 && p.history[n-2].move.Kind() == Pass:
		return p.drawOrCount(DoublePass), true
	}
	return Result{}, false
}

// drawOrCount is the result of a game the rules would draw for reason: a
// draw, or with MaterialPoints a win for White when its points exceed
// Black's by more than one, else for Black.
func (p *Position) drawOrCount(reason Reason) Result {
	r := Result{Reason: reason, Side: p.stm}
	if len(p.v.MaterialPoints) == 0 {
		return r
	}
	diff := 0
	for _, s := range p.Pieces(White) {
		diff += p.v.points[p.board[s]]
	}
	for _, s := range p.Pieces(Black) {
		diff -= p.v.points[p.board[s]]
	}
	r.Outcome = Win
	if (diff > 1) != (p.stm == White) {
		r.Outcome = Loss
	}
	return r
}

// NoMoveResult is the result when the side to move has no legal move:
// checkmate or stalemate, valued by the variant.
func (p *Position) NoMoveResult() Result {
	if p.InCheck() {
		if len(p.v.ShatarShak) > 0 {
			return p.shatarMate()
		}
		return Result{Reason: Checkmate, Outcome: p.v.CheckmateValue.Outcome(Loss), Side: p.stm}
	}
	o := p.v.StalemateValue.Outcome(Draw)
	if p.v.StalematePieceCount {
		switch us, them := p.count[p.stm], p.count[p.stm.Other()]; {
		case us == them:
			o = Draw
		case us > them:
			o = -o
		}
	}
	return Result{Reason: Stalemate, Outcome: o, Side: p.stm}
}

// MoveRuleReached reports whether the variant's n-move rule has run out
// (no capture or pawn move for n moves), or its counting rule has.
func (p *Position) MoveRuleReached() bool {
	return p.v.MoveRule > 0 && p.halfmove >= 2*p.v.MoveRule || p.countingRunOut()
}

// Repeated reports whether the position occurred before (since the last
// capture or pawn move) in a variant with a repetition rule. A search
// scores such a cycle as a draw at once.
func (p *Position) Repeated() bool {
	return p.v.RepetitionRule > 0 && p.RepetitionCount() >= 2
}
