package search

import "fmt"

// Score is a search score in centipawns from the side to move's view, or a
// mate score: MateScore − n when the side to move mates n plies from the
// root, −(MateScore − n) when it is mated. Every score with |s| ≥ MateBound
// is a mate score.
type Score int

// Score bounds.
const (
	// MaxPly is the deepest the search goes below the root.
	MaxPly = 128
	// MateScore is the score of mating at the root itself.
	MateScore Score = 32000
	// MateBound: scores this large are mates.
	MateBound = MateScore - MaxPly
	// TableWin is the score of a win a table reports without a distance
	// to mate (Syzygy's know the result and the distance to zeroing
	// only): TableWin − n at n plies from the root, below every mate and
	// above every evaluation, so that the search prefers a mate it sees
	// and otherwise heads for the table's win.
	TableWin = MateBound - 1
	// DecisiveBound: scores this large are mates or table results, which
	// the pruning does not treat as margins and the table stores by
	// distance from the node.
	DecisiveBound = TableWin - MaxPly
	// Infinity is beyond every score.
	Infinity Score = 32001
)

// MateIn returns the score of the side to move mating in plies plies.
func MateIn(plies int) Score { return MateScore - Score(plies) }

// MatedIn returns the score of the side to move being mated in plies plies.
func MatedIn(plies int) Score { return -MateScore + Score(plies) }

// TableWinIn returns the score of a table's win (distance to mate
// unknown) for the side to move at ply plies from the root.
func TableWinIn(ply int) Score { return TableWin - Score(ply) }

// TableLossIn is TableWinIn for the side that loses.
func TableLossIn(ply int) Score { return -TableWin + Score(ply) }

// IsDecisive reports whether s is a mate or a table's result.
func (s Score) IsDecisive() bool { return s >= DecisiveBound || s <= -DecisiveBound }

// IsMate reports whether s is a mate score.
func (s Score) IsMate() bool { return s >= MateBound || s <= -MateBound }

// MateMoves returns, for a mate score, the number of moves to mate as UCI
// reports it: positive when the side to move mates, negative when it is
// mated, counting a move begun as a move (so a loss one ply away, when a
// variant ends the game after the loser's own move, is "mate -1", as
// Fairy-Stockfish writes it), and 0 when the game is over now.
func (s Score) MateMoves() int {
	if s > 0 {
		return int(MateScore-s+1) / 2
	}
	return -int(MateScore+s+1) / 2
}

// String formats the score as UCI does: "cp 35" or "mate -2".
func (s Score) String() string {
	if s.IsMate() {
		return fmt.Sprintf("mate %d", s.MateMoves())
	}
	return fmt.Sprintf("cp %d", int(s))
}

// toTT converts a score relative to the root into one relative to the node
// at ply, as the transposition table stores mate scores: a mate found at a
// node is the same distance from that node wherever the node is reached.
func toTT(s Score, ply int) Score {
	switch {
	case s >= DecisiveBound:
		return s + Score(ply)
	case s <= -DecisiveBound:
		return s - Score(ply)
	}
	return s
}

// fromTT undoes toTT.
func fromTT(s Score, ply int) Score {
	switch {
	case s >= DecisiveBound:
		return s - Score(ply)
	case s <= -DecisiveBound:
		return s + Score(ply)
	}
	return s
}
