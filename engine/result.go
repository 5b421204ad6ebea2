package engine

import "fmt"

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
)

var reasonNames = [...]string{"ongoing", "checkmate", "stalemate", "fifty-move rule", "repetition",
	"insufficient material", "extinction", "bare king", "flag reached", "check limit", "royal piece lost"}

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
		if p.InCheck() {
			return Result{Reason: Checkmate, Outcome: v.CheckmateValue.outcome(Loss), Side: p.stm}
		}
		return Result{Reason: Stalemate, Outcome: v.StalemateValue.outcome(Draw), Side: p.stm}
	}
	if p.MoveRuleReached() {
		return Result{Reason: MoveRuleDraw, Side: p.stm}
	}
	if v.RepetitionRule > 0 && p.RepetitionCount() >= v.RepetitionRule {
		return Result{Reason: RepetitionDraw, Side: p.stm}
	}
	if v.InsufficientMaterial && p.insufficientMaterial() {
		return Result{Reason: InsufficientMaterialDraw, Side: p.stm}
	}
	return Result{Side: p.stm}
}

// RepetitionCount returns how many times the current position has occurred
// since the position was set up, this time included. Only positions since
// the last capture or pawn move can repeat.
func (p *Position) RepetitionCount() int {
	n := 1
	stop := max(len(p.history)-p.halfmove, 0)
	for j := len(p.history) - 2; j >= stop; j -= 2 {
		if p.history[j].key == p.key {
			n++
		}
	}
	return n
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
				bishopColours[(s.File()+s.Rank())&1] = true
			default:
				return false
			}
		}
	}
	return minors <= 1 || (knights == 0 && !(bishopColours[0] && bishopColours[1]))
}
