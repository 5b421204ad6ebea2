package match

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// editCommands returns what sets a start position up on a CECP engine
// without setboard (feature setboard=0, as Fairy-Max): edit mode, which
// places pieces but cannot change the side to move. For Black to move a
// dummy move (the first legal one from the variant's start) is played
// first, as XBoard itself does. The FEN's castling, en-passant and clock
// fields have no counterpart; the engine infers castling rights from
// where the kings and rooks stand.
func editCommands(v *engine.Variant, fen string, usermove bool) ([]string, error) {
	fields := strings.Fields(fen)
	if len(fields) < 2 {
		return nil, fmt.Errorf("FEN %q has no side to move", fen)
	}
	var cmds []string
	if fields[1] == "b" {
		start, err := v.ParseFEN(v.StartFEN)
		if err != nil {
			return nil, err
		}
		moves := start.LegalMoves(nil)
		if len(moves) == 0 {
			return nil, fmt.Errorf("variant %s has no move from its start to hand Black the move", v.Name)
		}
		m := variants.ToXBoardMove(v.Height, v.UCI(moves[0]))
		if usermove {
			m = "usermove " + m
		}
		cmds = append(cmds, m)
	}
	white, black, err := placements(v, fields[0])
	if err != nil {
		return nil, err
	}
	cmds = append(cmds, "edit", "#")
	cmds = append(cmds, white...)
	cmds = append(cmds, "c")
	cmds = append(cmds, black...)
	return append(cmds, "."), nil
}

// placements lists the pieces of a FEN's board field as edit mode takes
// them ("Pe2"), White's and Black's apart.
func placements(v *engine.Variant, board string) (white, black []string, err error) {
	ranks := strings.Split(board, "/")
	if len(ranks) != v.Height {
		return nil, nil, fmt.Errorf("board %q has %d ranks, want %d", board, len(ranks), v.Height)
	}
	for i, row := range ranks {
		rank, file := v.Height-i, 0 // FEN ranks run from the top
		for j := 0; j < len(row); j++ {
			c := rune(row[j])
			if unicode.IsDigit(c) {
				n := 0
				for ; j < len(row) && unicode.IsDigit(rune(row[j])); j++ {
					n = n*10 + int(row[j]-'0')
				}
				j--
				file += n
				continue
			}
			if !unicode.IsLetter(c) {
				return nil, nil, fmt.Errorf("board %q: edit mode cannot place %q", board, c)
			}
			square := variants.ToXBoardMove(v.Height, fmt.Sprintf("%c%d", 'a'+file, rank))
			if unicode.IsUpper(c) {
				white = append(white, string(c)+square)
			} else {
				black = append(black, string(unicode.ToUpper(c))+square)
			}
			file++
		}
	}
	return white, black, nil
}
