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
