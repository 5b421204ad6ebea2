package xboard

import "github.com/chimera-chess/chimera/engine"

// game is the game CECP plays: its start position and the moves since,
// so moves can be taken back.
type game struct {
	start *engine.Position
	moves []engine.Move
	pos   *engine.Position // start with moves played
}

// reset starts a game from pos.
func (g *game) reset(pos *engine.Position) {
	g.start, g.moves, g.pos = pos, nil, pos.Clone()
}

// play makes a legal move.
func (g *game) play(m engine.Move) {
	g.moves = append(g.moves, m)
	g.pos.Make(m)
}

// undo takes back n plies (at most as many as were played).
func (g *game) undo(n int) {
	for ; n > 0 && len(g.moves) > 0; n-- {
		g.moves = g.moves[:len(g.moves)-1]
		g.pos.Unmake()
	}
}
