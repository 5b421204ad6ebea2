package uci

import (
	"fmt"
	"strconv"

	"github.com/chimera-chess/chimera/engine"
)

// Dialect is the protocol of UCI's family a server speaks: UCI, or the
// shogi world's USI, or the xiangqi world's UCCI. They share the session
// and the commands' shape; they differ in their handshake, coordinates,
// position text, clock parameters and a few answers.
type Dialect uint8

// The dialects.
const (
	UCI  Dialect = iota // chess GUIs' protocol (the default)
	USI                 // shogi GUIs': SFEN, 7g7f, P*5e, btime for the side that moves first
	UCCI                // xiangqi GUIs': files a–i and ranks 0–9, go time/increment/opptime
)

// String names the dialect as its handshake command does.
func (d Dialect) String() string {
	switch d {
	case USI:
		return "usi"
	case UCCI:
		return "ucci"
	}
	return "uci"
}

// ParseDialect reads a dialect's name (uci, usi or ucci).
func ParseDialect(name string) (Dialect, error) {
	for _, d := range []Dialect{UCI, USI, UCCI} {
		if d.String() == name {
			return d, nil
		}
	}
	return UCI, fmt.Errorf("protocol %q: want uci, usi or ucci", name)
}

// defaultVariant is the variant a dialect's handshake plays when the
// session still plays UCI's default: what its GUIs expect without a word
// about variants (Fairy-Stockfish does the same).
func (d Dialect) defaultVariant() string {
	switch d {
	case USI:
		return "shogi"
	case UCCI:
		return "xiangqi"
	}
	return "chess"
}

// moveText writes m of variant v in the dialect's notation. No move at
// all is UCI's 0000, USI's resign.
func (d Dialect) moveText(v *engine.Variant, m engine.Move) string {
	switch d {
	case USI:
		return usiMove(v, m)
	case UCCI:
		if m == engine.NoMove {
			return "0000"
		}
		return ucciFromUCI(v.UCI(m), v.Height)
	}
	return v.UCI(m)
}

// parseMove finds the legal move of p written in the dialect's notation.
func (d Dialect) parseMove(p *engine.Position, text string) (engine.Move, error) {
	switch d {
	case USI:
		return parseUSIMove(p, text)
	case UCCI:
		v := p.Variant()
		uciText, err := uciFromUCCI(text, v.Height)
		if err != nil {
			return engine.NoMove, err
		}
		return p.ParseUCI(uciText)
	}
	return p.ParseUCI(text)
}

// UCCI numbers a ten-rank board's ranks from 0 (a0 is UCI's a1), as
// XBoard does for xiangqi; on other boards its squares are UCI's.

// ucciFromUCI rewrites a move in UCI text for a board of height ranks.
func ucciFromUCI(text string, height int) string {
	if height != 10 {
		return text
	}
	return mapSquares(text, height, func(file, rank int) string { return string(rune('a'+file)) + strconv.Itoa(rank) })
}

// uciFromUCCI reads a move in UCCI text for a board of height ranks.
func uciFromUCCI(text string, height int) (string, error) {
	if height != 10 {
		return text, nil
	}
	out := []byte{}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 'a' && c <= 'p' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9' {
			out = append(out, c)
			out = strconv.AppendInt(out, int64(text[i+1]-'0')+1, 10)
			i++
			continue
		}
		out = append(out, c)
	}
	return string(out), nil
}

// mapSquares rewrites every square of a move in UCI text (a file letter
// and its rank's digits, read as on a board of height ranks) by square.
func mapSquares(text string, height int, square func(file, rank int) string) string {
	var out []byte
	for i := 0; i < len(text); {
		c := text[i]
		if c >= 'a' && c <= 'p' && i+1 < len(text) && text[i+1] >= '1' && text[i+1] <= '9' {
			file, rank, n := int(c-'a'), int(text[i+1]-'0'), 2
			if i+2 < len(text) && text[i+2] >= '0' && text[i+2] <= '9' && rank*10+int(text[i+2]-'0') <= height {
				rank, n = rank*10+int(text[i+2]-'0'), 3
			}
			out = append(out, square(file, rank-1)...)
			i += n
			continue
		}
		out = append(out, c)
		i++
	}
	return string(out)
}
