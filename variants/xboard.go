package variants

import "strconv"

// XBoardName returns the name XBoard (CECP) knows a variant by: chess is
// its "normal"; other variants keep their name (Fairy-Stockfish's names
// are XBoard's where XBoard knows the game: suicide, giveaway, courier…).
func XBoardName(name string) string {
	if name == "chess" {
		return "normal"
	}
	return name
}

// FromXBoardName returns the variant an XBoard name stands for.
func FromXBoardName(name string) string {
	if name == "normal" {
		return "chess"
	}
	return name
}

// ToXBoardMove writes a move in coordinate notation (as UCI writes it) the
// way XBoard does for the variant: on boards of exactly ten ranks XBoard
// counts ranks from 0 (a0 to j9), elsewhere from 1, as UCI does.
func ToXBoardMove(height int, move string) string { return shiftRanks(height, move, -1) }

// FromXBoardMove reads a move XBoard wrote into UCI's coordinates.
func FromXBoardMove(height int, move string) string { return shiftRanks(height, move, +1) }

// shiftRanks adds by to every rank number that follows a file letter,
// on ten-rank boards only.
func shiftRanks(height int, move string, by int) string {
	if height != 10 {
		return move
	}
	var out []byte
	for i := 0; i < len(move); {
		c := move[i]
		out = append(out, c)
		i++
		if c < 'a' || c > 'p' || i >= len(move) || move[i] < '0' || move[i] > '9' {
			continue
		}
		n := 0
		for ; i < len(move) && move[i] >= '0' && move[i] <= '9'; i++ {
			n = n*10 + int(move[i]-'0')
		}
		out = append(out, []byte(strconv.Itoa(n+by))...)
	}
	return string(out)
}
