package syzygy

import (
	"errors"
	"fmt"
)

// The errors a probe may return, for errors.Is; each is wrapped with what
// it concerns (the material, the file, the position).
var (
	// ErrMissing: a table the probe needs is not among the files Open
	// found. The position's value is unknown, never a draw.
	ErrMissing = errors.New("syzygy: table missing")
	// ErrCorrupt: a table file is damaged (a wrong magic number, sizes
	// that do not add up, offsets past its end); its values are not read.
	ErrCorrupt = errors.New("syzygy: damaged table file")
	// ErrCastling: the tables hold no position with castling rights.
	ErrCastling = errors.New("syzygy: positions with castling rights are not in the tables")
	// ErrTooManyPieces: the position has more pieces than the largest
	// Syzygy table (seven) plus the one capture a probe searches.
	ErrTooManyPieces = errors.New("syzygy: too many pieces")
	// ErrNotChess: the position is not of regular chess.
	ErrNotChess = errors.New("syzygy: the tables are of regular chess")
	// ErrClosed: the tables were closed.
	ErrClosed = errors.New("syzygy: tables closed")
)

// damaged wraps ErrCorrupt with the file's path and what is wrong with
// it (the parser's and decoder's own errors say only the latter).
func damaged(path string, why error) error {
	return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, why)
}
