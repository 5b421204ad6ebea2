package uci

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// SFEN is USI's FEN: the board as FEN writes it (shogi's letters, +P for
// a promoted piece), the side to move (b for the side that moves first,
// sente, which FEN calls white: the colours are swapped), the pieces in
// hand (2P for two pawns, the first side's in capitals first, - for
// none) and the ply number counted from 1. Fairy-Stockfish writes a hand
// in the order of its piece types, highest first; the same order is
// kept here, so that its SFEN and Chimera's are the same text.

// fsfTypeOrder is Fairy-Stockfish 11.1's numbering of its piece types, by
// their variants.ini keys (src/types.h, enum PieceType): a hand is written
// from the last to the first. Keys it does not know (customPieceN, and
// pieces Chimera names that 11.1 lacks) rank between centaur and king,
// as its later versions number custom pieces.
var fsfTypeOrder = []string{"pawn", "knight", "bishop", "rook", "queen", "fers", "alfil", "fersAlfil", "silver",
	"aiwok", "bers", "archbishop", "chancellor", "amazon", "knibis", "biskni", "kniroo", "rookni", "shogiPawn",
	"lance", "shogiKnight", "euroshogiKnight", "gold", "dragonHorse", "clobber", "breakthrough", "immobile", "cannon",
	"janggiCannon", "soldier", "horse", "elephant", "janggiElephant", "banner", "wazir", "commoner", "centaur"}

// fsfRank returns where a piece of variants.ini key key comes in
// Fairy-Stockfish's numbering.
func fsfRank(key string) int {
	if key == "king" {
		return len(fsfTypeOrder) + 100
	}
	if i := slices.Index(fsfTypeOrder, key); i >= 0 {
		return i
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(key, "customPiece"))
	return len(fsfTypeOrder) + n // a custom piece, or one 11.1 lacks (0)
}

// sfenOf writes p as an SFEN.
func sfenOf(p *engine.Position) string {
	v := p.Variant()
	board, _, _ := strings.Cut(p.FEN(), " ")
	board, _, _ = strings.Cut(board, "[")
	side := "b"
	if p.SideToMove() == engine.Black {
		side = "w"
	}
	// Types from Fairy-Stockfish's highest to its lowest.
	types := make([]int, len(v.Pieces))
	for i := range types {
		types[i] = i + 1
	}
	slices.SortStableFunc(types, func(a, b int) int { return fsfRank(v.Pieces[b-1].Key) - fsfRank(v.Pieces[a-1].Key) })
	var hand strings.Builder
	for _, c := range []engine.Colour{engine.White, engine.Black} {
		for _, t := range types {
			n := p.InHand(c, t)
			if n == 0 {
				continue
			}
			if n > 1 {
				hand.WriteString(strconv.Itoa(n))
			}
			letter := v.Pieces[t-1].Letter
			if c == engine.Black {
				letter = letter - 'A' + 'a'
			}
			hand.WriteByte(letter)
		}
	}
	if hand.Len() == 0 {
		hand.WriteString("-")
	}
	ply := 2*(p.FullmoveNumber()-1) + 1
	if p.SideToMove() == engine.Black {
		ply++
	}
	return fmt.Sprintf("%s %s %s %d", board, side, hand.String(), ply)
}

// parseSFEN reads an SFEN of variant v: the board, the side to move, the
// hand (- or omitted: none) and the ply number (omitted: 1).
func parseSFEN(v *engine.Variant, text string) (*engine.Position, error) {
	f := strings.Fields(text)
	if len(f) < 2 || len(f) > 4 {
		return nil, fmt.Errorf("SFEN %q: want the board, the side to move (b or w), the hand and the ply number", text)
	}
	var stm string
	switch f[1] {
	case "b":
		stm = "w"
	case "w":
		stm = "b"
	default:
		return nil, fmt.Errorf("SFEN %q: the side to move is b or w, not %q", text, f[1])
	}
	hand := ""
	if len(f) > 2 && f[2] != "-" {
		count := 0
		for i := 0; i < len(f[2]); i++ {
			c := f[2][i]
			if c >= '0' && c <= '9' {
				count = count*10 + int(c-'0')
				if count > engine.MaxSize*engine.MaxSize {
					return nil, fmt.Errorf("SFEN %q: too many pieces in hand", text)
				}
				continue
			}
			hand += strings.Repeat(string(c), max(count, 1))
			count = 0
		}
		if count != 0 {
			return nil, fmt.Errorf("SFEN %q: a number in the hand names no piece", text)
		}
	}
	ply := 1
	if len(f) > 3 {
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("SFEN %q: the ply number %q is not a whole number from 1", text, f[3])
		}
		ply = n
	}
	fullmove := (ply-1)/2 + 1
	if stm == "b" {
		fullmove = max((ply-2)/2+1, 1)
	}
	board := f[0]
	if v.HasHands() {
		board += "[" + hand + "]"
	} else if hand != "" {
		return nil, fmt.Errorf("SFEN %q: %s has no pieces in hand", text, v.Name)
	}
	pos, err := v.ParseFEN(fmt.Sprintf("%s %s - - 0 %d", board, stm, fullmove))
	if err != nil {
		return nil, fmt.Errorf("SFEN %q: %w", text, err)
	}
	return pos, nil
}
