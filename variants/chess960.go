package variants

import (
	"fmt"
	"strings"
)

// Chess960Array returns start array n (0–959) of Chess960 in Scharnagl's
// numbering, as White's back rank from a to h: number 518 is chess's
// RNBQKBNR. The bishops stand on squares of both colours and the king
// between the rooks.
func Chess960Array(n int) (string, error) {
	if n < 0 || n > 959 {
		return "", fmt.Errorf("Chess960 start array %d: want 0 to 959", n)
	}
	var rank [8]byte
	rank[2*(n%4)+1] = 'B' // the light-squared bishop: b, d, f or h
	n /= 4
	rank[2*(n%4)] = 'B' // the dark-squared bishop: a, c, e or g
	n /= 4
	place := func(k int, piece byte) { // on the k-th empty square
		for i := range rank {
			if rank[i] == 0 {
				if k == 0 {
					rank[i] = piece
					return
				}
				k--
			}
		}
	}
	place(n%6, 'Q')
	n /= 6
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}
	// The second knight's index counts the empty squares left once the
	// first is placed.
	place(knights[n][0], 'N')
	place(knights[n][1]-1, 'N')
	for _, piece := range []byte{'R', 'K', 'R'} {
		place(0, piece)
	}
	return string(rank[:]), nil
}

// Chess960FEN returns the start position of array n with all four
// castling rights.
func Chess960FEN(n int) (string, error) {
	white, err := Chess960Array(n)
	if err != nil {
		return "", err
	}
	return strings.ToLower(white) + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1", nil
}

// ShuffledStart returns a start position of a Chess960-style variant other
// than chess (Capablanca random chess): the back rank of fen shuffled with
// the king between the rooks and, when there are two bishops, one on
// each colour, Black's array mirroring White's. A start position without
// one king, two rooks and full, mirrored back ranks comes back unchanged.
// intn(n) picks a number from 0 to n-1.
func ShuffledStart(fen string, intn func(int) int) string {
	board, rest, _ := strings.Cut(fen, " ")
	ranks := strings.Split(board, "/")
	white := ranks[len(ranks)-1]
	if bracket := strings.IndexByte(white, '['); bracket >= 0 {
		white, rest = white[:bracket], white[bracket:]+" "+rest
	} else {
		rest = " " + rest
	}
	if strings.Count(white, "K") != 1 || strings.Count(white, "R") != 2 ||
		strings.ContainsAny(white, "0123456789") || ranks[0] != strings.ToLower(white) {
		return fen
	}
	array := make([]byte, len(white))
	free := func() []int {
		var out []int
		for i, c := range array {
			if c == 0 {
				out = append(out, i)
			}
		}
		return out
	}
	others := strings.NewReplacer("K", "", "R", "").Replace(white)
	if strings.Count(white, "B") == 2 {
		// One bishop on each colour: an even file and an odd one.
		even, odd := (len(array)+1)/2, len(array)/2
		array[2*intn(even)] = 'B'
		array[2*intn(odd)+1] = 'B'
		others = strings.ReplaceAll(others, "B", "")
	}
	for _, piece := range []byte(others) {
		squares := free()
		array[squares[intn(len(squares))]] = piece
	}
	for _, piece := range []byte("RKR") { // left to right: the king between
		array[free()[0]] = piece
	}
	ranks[0], ranks[len(ranks)-1] = strings.ToLower(string(array)), string(array)
	return strings.Join(ranks, "/") + rest
}
