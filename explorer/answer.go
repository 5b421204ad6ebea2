package explorer

import (
	"cmp"
	"slices"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Answer is what the API says of a position, in the shape of lichess's
// tablebase API (tablebase.lichess.ovh): the category and distance to
// mate for the side to move, the state of the game, and every legal move
// valued, best first. Chimera adds fen (the position as parsed), table
// (the material of the table that answered, or null) and building (a
// table being generated for it) to the position, and fen (the position
// after the move) to each move.
type Answer struct {
	Value
	State
	// Moves are the legal moves, best first for the side to move.
	Moves []MoveAnswer `json:"moves"`

	FEN      string  `json:"fen"`
	Table    *string `json:"table"`
	Building *Build  `json:"building,omitempty"`
}

// MoveAnswer is one legal move, valued from the point of view of the side
// to move after it (a winning move is a loss with negative dtm).
type MoveAnswer struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	Value
	Zeroing bool `json:"zeroing"` // a capture or pawn move
	State
	FEN string `json:"fen"`
}

// Value is a position's value for its side to move.
type Value struct {
	Category string `json:"category"` // win, draw, loss or unknown
	// DTM is the signed distance to mate in plies, positive when the side
	// to move wins; null for draws and unknown positions.
	DTM *int `json:"dtm"`
	// DTZ and PreciseDTZ are always null: the tables hold distance to
	// mate only.
	DTZ        *int `json:"dtz"`
	PreciseDTZ *int `json:"precise_dtz"`
}

// State is how the game stands by the rules. The n-move rule and
// repetitions are not the tables' business (distance to mate ignores them,
// as lichess's does).
type State struct {
	Checkmate            bool `json:"checkmate"`
	Stalemate            bool `json:"stalemate"`
	VariantWin           bool `json:"variant_win"`
	VariantLoss          bool `json:"variant_loss"`
	InsufficientMaterial bool `json:"insufficient_material"`
}

// The categories.
const (
	categoryWin     = "win"
	categoryDraw    = "draw"
	categoryLoss    = "loss"
	categoryUnknown = "unknown"
)

// stateOf reads the game's state, and whether it is over: then its value
// needs no table.
func stateOf(p *engine.Position) (st State, over bool, val Value) {
	r := p.Result()
	switch r.Reason {
	case engine.Ongoing, engine.MoveRuleDraw, engine.RepetitionDraw:
		return st, false, val
	case engine.Checkmate:
		st.Checkmate = true
	case engine.Stalemate:
		st.Stalemate = true
	case engine.InsufficientMaterialDraw:
		st.InsufficientMaterial = true
	default:
		st.VariantWin, st.VariantLoss = r.Outcome == engine.Win, r.Outcome == engine.Loss
	}
	switch r.Outcome {
	case engine.Win:
		val = Value{Category: categoryWin, DTM: ptr(0)}
	case engine.Loss:
		val = Value{Category: categoryLoss, DTM: ptr(0)}
	default:
		val = Value{Category: categoryDraw}
	}
	return st, true, val
}

// fromResult turns a table's result into a value.
func fromResult(r tablebase.Result) Value {
	switch {
	case r.WDL > 0:
		return Value{Category: categoryWin, DTM: ptr(r.DTM)}
	case r.WDL < 0:
		return Value{Category: categoryLoss, DTM: ptr(r.DTM)}
	}
	return Value{Category: categoryDraw}
}

func ptr(n int) *int { return &n }

// moveRank orders moves for the side making them, best first, by the
// verdict they leave the opponent: mated soonest, unknown, drawn, and
// last the opponent's wins, longest first (lichess's order).
func moveRank(a, b MoveAnswer) int {
	rank := func(m MoveAnswer) int {
		switch m.Category {
		case categoryLoss:
			return 0
		case categoryUnknown:
			return 1
		case categoryDraw:
			return 2
		}
		return 3
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	if a.DTM != nil && b.DTM != nil && *a.DTM != *b.DTM {
		// Loss: -1 (mated next move) beats -15; win: 30 beats 2. Both
		// are the larger dtm first.
		return cmp.Compare(*b.DTM, *a.DTM)
	}
	return cmp.Compare(a.SAN, b.SAN)
}

// sortMoves puts the moves best first.
func sortMoves(moves []MoveAnswer) { slices.SortStableFunc(moves, moveRank) }
