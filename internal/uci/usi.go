package uci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// USI's coordinates, as shogi writes them and Fairy-Stockfish extends
// them to any board: files are numbered from the right (1 is the
// h-file's place on a chess board, 9 the a-file's on shogi's 9×9), ranks
// lettered from the top (a is the far rank of the side that moves first,
// which stands at the bottom). A move is the two squares (7g7f), a drop
// the piece's letter, * and the square (P*5e), and a promotion adds +.
//
// USI text is made from UCI text and read back into it, square by square:
// everything else in a move (promotion and gating letters, the drop's
// piece) is the same in both.

// usiSquare writes square sq of a width×height board in USI coordinates.
func usiSquare(sq engine.Square, width, height int) string {
	return strconv.Itoa(width-sq.File()) + string(rune('a'+height-1-sq.Rank()))
}

// uciSquareText writes sq as UCI does (e4, j10).
func uciSquareText(file, rank int) string {
	return string(rune('a'+file)) + strconv.Itoa(rank+1)
}

// usiMove writes move m of variant v in USI notation.
func usiMove(v *engine.Variant, m engine.Move) string {
	if m == engine.NoMove {
		return "resign" // no legal move: what a USI engine answers
	}
	return usiFromUCI(v.UCI(m), v.Width, v.Height)
}

// usiFromUCI rewrites a move in UCI text (e2e4, P@e4, e7e8q, b2h8+) in
// USI coordinates for a width×height board; what is not a square is kept,
// a drop's @ becoming *.
func usiFromUCI(text string, width, height int) string {
	text = mapSquares(text, height, func(file, rank int) string {
		return usiSquare(engine.SquareAt(file, rank), width, height)
	})
	return strings.ReplaceAll(text, "@", "*") // a launch is already from*to
}

// uciFromUSI rewrites a move in USI text (7g7f, P*5e, 8h2b+) as UCI text
// for a width×height board, or says what is wrong with it.
func uciFromUSI(text string, width, height int) (string, error) {
	var b strings.Builder
	squares := 0
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '*' && squares == 0:
			b.WriteByte('@') // a drop: P*5e
			i++
		case c == '*':
			b.WriteByte('*') // a launch from a square (stratomic): 10i*8b
			i++
		case c >= '0' && c <= '9':
			n := i
			for n < len(text) && text[n] >= '0' && text[n] <= '9' {
				n++
			}
			number, err := strconv.Atoi(text[i:n])
			if err != nil || n-i > 2 || n >= len(text) || text[n] < 'a' || text[n] > 'z' {
				return "", fmt.Errorf("move %q: want squares such as 7g", text)
			}
			rank := height - 1 - int(text[n]-'a')
			if number < 1 || number > width || rank < 0 {
				return "", fmt.Errorf("move %q: %s is off the %d×%d board", text, text[i:n+1], width, height)
			}
			b.WriteString(uciSquareText(width-number, rank))
			squares++
			i = n + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	if squares != 2 && !(squares == 1 && strings.Contains(text, "*")) || squares == 2 && strings.Contains(b.String(), "@") {
		return "", fmt.Errorf("move %q: want two squares (7g7f) or a drop (P*5e)", text)
	}
	return b.String(), nil
}

// parseUSIMove finds the legal move written in USI notation in p.
func parseUSIMove(p *engine.Position, text string) (engine.Move, error) {
	v := p.Variant()
	uciText, err := uciFromUSI(text, v.Width, v.Height)
	if err != nil {
		return engine.NoMove, err
	}
	m, err := p.ParseUCI(uciText)
	if err != nil {
		return engine.NoMove, fmt.Errorf("move %q is not legal in %s", text, sfenOf(p))
	}
	return m, nil
}
