package game

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
)

// Record is one game: the start position, the moves, and how it ended.
type Record struct {
	Variant  *engine.Variant
	StartFEN string
	Moves    []engine.Move
	SAN      []string
	// Times is, with clocks, each move's thinking time and the mover's
	// clock after it; empty without clocks.
	Times []MoveTime
	// Result is "1-0", "0-1", "1/2-1/2" or "*".
	Result string
	// Termination says how the game ended.
	Termination Termination
	// Tags are the other PGN tags (Event, White, Black, Round...).
	Tags map[string]string
	Date time.Time
}

// MoveTime is how long a move took and the mover's time left after it
// (increment included).
type MoveTime struct {
	Spent, Left time.Duration
}

// OutcomeFor returns the game's result for side; a game without a result
// counts as a draw.
func (r *Record) OutcomeFor(side engine.Colour) engine.Outcome {
	var white engine.Outcome
	switch r.Result {
	case "1-0":
		white = engine.Win
	case "0-1":
		white = engine.Loss
	default:
		return engine.Draw
	}
	if side == engine.Black {
		return -white
	}
	return white
}

// tagOrder is the PGN seven-tag roster, then Chimera's.
var tagOrder = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "FEN", "SetUp", "Termination", "TimeControl"}

// WritePGN writes the game in PGN: the tags (Variant always; FEN and SetUp
// when the game did not start from the variant's start position), then the
// moves in SAN and the result. With clocks each move is followed by a
// comment with the mover's clock after it and the time it took, in the
// [%clk] and [%emt] commands GUIs read.
func (r *Record) WritePGN(w io.Writer) error {
	tags := map[string]string{"Event": "?", "Site": "?", "Round": "?", "White": "?", "Black": "?"}
	for k, v := range r.Tags {
		tags[k] = v
	}
	tags["Date"] = "????.??.??"
	if !r.Date.IsZero() {
		tags["Date"] = r.Date.Format("2006.01.02")
	}
	tags["Result"] = r.Result
	tags["Variant"] = r.Variant.Name
	if r.StartFEN != r.Variant.StartFEN {
		tags["FEN"], tags["SetUp"] = r.StartFEN, "1"
	}
	tags["Termination"] = r.Termination.String()
	var b strings.Builder
	for _, k := range tagOrder {
		if v, ok := tags[k]; ok {
			fmt.Fprintf(&b, "[%s %q]\n", k, v)
		}
	}
	b.WriteString("\n")
	pos, err := r.Variant.ParseFEN(r.StartFEN)
	if err != nil {
		return err
	}
	line := 0
	for i, san := range r.SAN {
		var tok string
		switch {
		case pos.SideToMove() == engine.White:
			tok = fmt.Sprintf("%d. %s", pos.FullmoveNumber(), san)
		case i == 0:
			tok = fmt.Sprintf("%d... %s", pos.FullmoveNumber(), san)
		default:
			tok = san
		}
		pos.Make(r.Moves[i])
		if i < len(r.Times) {
			tok += fmt.Sprintf(" {[%%clk %s] [%%emt %s]}", pgnDuration(r.Times[i].Left), pgnDuration(r.Times[i].Spent))
		}
		if line+len(tok) > 79 {
			b.WriteString("\n")
			line = 0
		} else if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(tok)
		line += len(tok)
	}
	if line > 0 {
		b.WriteString(" ")
	}
	b.WriteString(r.Result + "\n\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// pgnDuration writes d as the clock commands do: h:mm:ss with
// milliseconds (a fast game's moves take fractions of a second).
func pgnDuration(d time.Duration) string {
	d = max(d, 0).Round(time.Millisecond)
	h, m := d/time.Hour, d%time.Hour/time.Minute
	sec := d % time.Minute
	return fmt.Sprintf("%d:%02d:%06.3f", h, m, sec.Seconds())
}
