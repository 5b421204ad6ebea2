package game

import "github.com/chimera-chess/chimera/engine"

// TerminationKind says how a game ended.
type TerminationKind uint8

// The ways a game ends.
const (
	// Unterminated: the game was stopped before it had a result.
	Unterminated TerminationKind = iota
	// ByRule: the variant's rules ended it (Termination.Rule says which).
	ByRule
	// TimeForfeit: a flag fell, or a player did not answer in time.
	TimeForfeit
	// IllegalMove: a player sent a move that is malformed or not legal.
	IllegalMove
	// PlayerCrash: the player could not play on (its process ended).
	PlayerCrash
	// MoveLimit: a draw adjudicated after the referee's move limit.
	MoveLimit
	// Adjudicated: the referee's adjudicator ended the game.
	Adjudicated
)

// Termination is how a game ended: the kind, the rule for ByRule, the side
// that broke a rule (time, illegal move, crash), and a detail such as the
// illegal move's text or the adjudicator's reason.
type Termination struct {
	Kind   TerminationKind
	Rule   engine.Reason
	Side   engine.Colour
	Detail string
}

// String names the termination as the PGN Termination tag of Chimera's
// games does: "checkmate", "time forfeit", "illegal move e2e5", "engine
// crash", "move limit", "unterminated", or the adjudicator's reason.
func (t Termination) String() string {
	switch t.Kind {
	case ByRule:
		return t.Rule.String()
	case TimeForfeit:
		return "time forfeit"
	case IllegalMove:
		if t.Detail != "" {
			return "illegal move " + t.Detail
		}
		return "illegal move"
	case PlayerCrash:
		return "engine crash"
	case MoveLimit:
		return "move limit"
	case Adjudicated:
		return t.Detail
	}
	return "unterminated"
}

// Infraction reports whether a player lost by breaking a rule of play
// rather than of the game: time, an illegal move or a crash.
func (t Termination) Infraction() bool {
	return t.Kind == TimeForfeit || t.Kind == IllegalMove || t.Kind == PlayerCrash
}

// lossFor returns the PGN result of side losing.
func lossFor(side engine.Colour) string {
	if side == engine.White {
		return "0-1"
	}
	return "1-0"
}
