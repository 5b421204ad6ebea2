package variants

// ChessFEN is the standard starting position.
const ChessFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
