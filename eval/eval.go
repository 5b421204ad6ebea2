// Package eval holds the evaluations a search can be given, each an
// Evaluator for one variant, chosen per session as the pieces are chosen
// per variant:
//
//   - Documents (documents.go), the default and the reference: material
//     plus mobility, Σ value(piece)·(own − enemy) + 10·(own mobility −
//     enemy mobility), pieces in hand counted with those on the board,
//     drops with the moves. "The documents" are the five source articles
//     of the project (digested in its shared/docs/SEEDS.md), and this
//     formula is document 003's, "A fast, flexible engine for 15 chess
//     variants" (Izaron): f = 20000(K−K′) + 900(Q−Q′) + 500(R−R′) +
//     300(B−B′+N−N′) + 100(P−P′) + 10(M−M′), M the number of available
//     moves; the fairy piece values it gives are the variants package's
//     predefined pieces'. This comment is the one place that names the
//     source: elsewhere "the documents' evaluation" means Documents.
//
// Scores are in centipawns from the side to move's point of view. Piece
// values come from the variant; a piece without one gets an estimate from
// its mobility. Game ends (mate, draws, variant wins) are the search's
// business, decided by the rules core, never by an evaluation.
package eval

import "github.com/chimera-chess/chimera/engine"

// Evaluator evaluates positions of one variant for the side to move, in
// centipawns (a pawn about 100). Implementations are immutable and safe
// for concurrent use: the search's threads share one.
type Evaluator interface {
	// Evaluate returns the static evaluation of p for its side to move.
	Evaluate(p *engine.Position) int
	// Value returns a piece's material value on the same scale (0 for an
	// empty square): the search orders moves and judges exchanges by it.
	Value(pc engine.Piece) int
}

// Incremental is an Evaluator that keeps state along a search's line (a
// network's hidden units) to evaluate each position from its parent's
// cheaply: a search thread asks it for a Tracker of its own.
type Incremental interface {
	Evaluator
	NewTracker() Tracker
}

// Tracker follows one search thread's line: Reset at the root, Push after
// each move made (or pass), Pop after each unmade; Evaluate returns what
// the Evaluator would for the current position.
type Tracker interface {
	Reset(p *engine.Position)
	Push(p *engine.Position)
	Pop()
	Evaluate(p *engine.Position) int
}
