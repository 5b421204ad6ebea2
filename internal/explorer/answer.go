package explorer

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
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

	// sources are the checksums of the tables the answer read, for its
	// ETag; complete says every value in it is known (so it never
	// changes).
	sources  []uint64
	complete bool
}

// etag names an answer's content by the tables it was read from: it
// changes only when one of them is rebuilt.
func (a *Answer) etag() string {
	h := fnv.New64a()
	for _, sum := range a.sources {
		binary.Write(h, binary.LittleEndian, sum)
	}
	return fmt.Sprintf(`"%x"`, h.Sum64())
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
	// captured is the value of the piece the move takes, for the order.
	captured int
}

// Value is a position's value for its side to move, in lichess's terms.
type Value struct {
	// Category is the outcome with the fifty-move rule (the variant's
	// n-move rule) and the FEN's half-move clock counted: win, cursed-win
	// (a win the rule draws), draw, blessed-loss, loss, or unknown
	// (lichess's maybe-win and maybe-loss never arise: the tables'
	// distances are exact).
	Category string `json:"category"`
	// DTM is the signed distance to mate in plies, positive when the side
	// to move wins, 0 for a draw; null for a checkmated position and
	// unknown ones (lichess's convention).
	DTM *int `json:"dtm"`
	// DTZ is the signed distance to zeroing in plies (Syzygy's DTZ50,
	// -1 for a checkmated position) and PreciseDTZ the same: the tables
	// store it exactly, never rounded; null where unknown or where the
	// variant has no move rule.
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

// The categories, in lichess's order from the point of view of the side
// to move after a move: the best move leaves the opponent the first.
const (
	categoryLoss        = "loss"
	categoryUnknown     = "unknown"
	categoryBlessedLoss = "blessed-loss"
	categoryDraw        = "draw"
	categoryCursedWin   = "cursed-win"
	categoryWin         = "win"
)

// categoryOrder ranks a category as lichess sorts moves by the category
// they leave (its maybe- and syzygy- categories sit between).
var categoryOrder = map[string]int{categoryLoss: 0, categoryUnknown: 1, categoryBlessedLoss: 4, categoryDraw: 5,
	categoryCursedWin: 6, categoryWin: 9}

// Opposite is a category for the other side (a move's, which is its
// opponent's after it, as its mover's).
func Opposite(c string) string {
	switch c {
	case categoryWin:
		return categoryLoss
	case categoryLoss:
		return categoryWin
	case categoryCursedWin:
		return categoryBlessedLoss
	case categoryBlessedLoss:
		return categoryCursedWin
	}
	return c
}

// decisive reports whether a category favours the side to move.
func positive(c string) bool { return c == categoryWin || c == categoryCursedWin }

// stateOf reads the game's state, and whether it is over: then its value
// needs no table. before is the half-move clock before the last move
// (lichess's test for a result reached past the rule's end).
func stateOf(p *engine.Position, before int) (st State, over bool, val Value) {
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
	late := tablebase.RuleLimit(p.Variant()) > 0 && before >= tablebase.RuleLimit(p.Variant())
	switch {
	case r.Outcome == engine.Win:
		val = Value{Category: categoryWin}
		if late {
			val.Category = categoryCursedWin
		}
	case r.Outcome == engine.Loss:
		val = Value{Category: categoryLoss}
		if late {
			val.Category = categoryBlessedLoss
		}
		if st.Checkmate {
			val.DTZ, val.PreciseDTZ = ptr(-1), ptr(-1) // Syzygy's number for it
		}
	default:
		val = Value{Category: categoryDraw, DTM: ptr(0), DTZ: ptr(0), PreciseDTZ: ptr(0)}
	}
	return st, true, val
}

// fromTable turns a table's result and distance to zeroing (hasDTZ false
// when the table has none) into a value for a position with that
// half-move clock, reached from one whose clock was before: lichess's
// rules, with exact distances.
func fromTable(v *engine.Variant, r tablebase.Result, dtz int, hasDTZ bool, clock, before int) Value {
	if r.WDL == 0 {
		return Value{Category: categoryDraw, DTM: ptr(0), DTZ: ptr(0), PreciseDTZ: ptr(0)}
	}
	val := Value{Category: categoryWin, DTM: ptr(r.DTM)}
	if r.WDL < 0 {
		val.Category = categoryLoss
	}
	if !hasDTZ {
		return val // no move rule: decided however long it takes
	}
	val.DTZ, val.PreciseDTZ = ptr(dtz), ptr(dtz)
	limit := tablebase.RuleLimit(v)
	if before >= limit {
		// The count had run out before the last move.
		if r.WDL > 0 {
			val.Category = categoryCursedWin
		} else {
			val.Category = categoryBlessedLoss
		}
		return val
	}
	if max(dtz, -dtz)+clock > limit {
		val.Category = map[int]string{1: categoryCursedWin, -1: categoryBlessedLoss}[r.WDL]
	}
	return val
}

func ptr(n int) *int { return &n }

// moveRank orders moves for the side making them, best first, as lichess
// does: by the category they leave the opponent (lost, unknown, blessed,
// drawn, cursed, won), checkmates first, then stalemates; then the
// quickest mate (or the longest resistance); then, winning or drawing,
// zeroing moves first, losing, last; then the distance to zeroing they
// leave, the nearest zeroing first when winning, the furthest when
// losing; then capturing the larger piece.
func moveRank(a, b MoveAnswer) int {
	if c := cmp.Compare(categoryOrder[a.Category], categoryOrder[b.Category]); c != 0 {
		return c
	}
	flags := func(m MoveAnswer) int {
		n := 0
		if !m.Checkmate {
			n += 4
		}
		if !m.Stalemate {
			n += 2
		}
		if !m.InsufficientMaterial {
			n++
		}
		return n
	}
	if c := cmp.Compare(flags(a), flags(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(tightening(a.DTM), tightening(b.DTM)); c != 0 {
		return c
	}
	zeroingLast := func(m MoveAnswer) bool { return m.Zeroing == positive(m.Category) }
	if c := cmp.Compare(boolRank(zeroingLast(a)), boolRank(zeroingLast(b))); c != 0 {
		return c
	}
	if a.DTZ != nil && b.DTZ != nil && *a.DTZ != *b.DTZ {
		return cmp.Compare(*b.DTZ, *a.DTZ)
	}
	if c := cmp.Compare(b.captured, a.captured); c != 0 {
		return c
	}
	return cmp.Compare(a.SAN, b.SAN)
}

// tightening ranks a distance to mate left to the opponent: mated soonest
// first (-1, -2, …), then unknown, then drawn (0), then the opponent's
// wins, the longest first.
func tightening(dtm *int) int {
	switch {
	case dtm == nil:
		return 0
	case *dtm < 0:
		return -1_000_000 - *dtm // -1 before -2
	case *dtm == 0:
		return 1
	}
	return 1_000_000 - *dtm // 30 before 2
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sortMoves puts the moves best first.
func sortMoves(moves []MoveAnswer) { slices.SortStableFunc(moves, moveRank) }
