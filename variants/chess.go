package variants

import "github.com/chimera-chess/chimera/engine"

// ChessFEN is the standard starting position.
const ChessFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// chessPieces are the six FIDE piece types, built from movement atoms like
// every other piece: the rules core has no special case for any of them.
func chessPieces() []engine.PieceType {
	fwd := []engine.Vector{{DX: 0, DY: 1}}
	return []engine.PieceType{
		{Name: "pawn", Letter: 'P', Value: 100, Role: engine.RolePawn, Atoms: []engine.Atom{
			{Kind: engine.Leap, Vectors: fwd, MoveOnly: true},
			{Kind: engine.Ride, Vectors: fwd, Range: 2, MoveOnly: true, Initial: true},
			{Kind: engine.Leap, Vectors: []engine.Vector{{DX: -1, DY: 1}, {DX: 1, DY: 1}}, CaptureOnly: true, EnPassant: true},
		}},
		{Name: "knight", Letter: 'N', Value: 300, Role: engine.RoleKnight, Atoms: []engine.Atom{engine.Leaper(1, 2)}},
		{Name: "bishop", Letter: 'B', Value: 300, Role: engine.RoleBishop, Atoms: []engine.Atom{engine.Rider(1, 1)}},
		{Name: "rook", Letter: 'R', Value: 500, Role: engine.RoleRook, Atoms: []engine.Atom{engine.Rider(1, 0)}},
		{Name: "queen", Letter: 'Q', Value: 900, Role: engine.RoleQueen, Atoms: []engine.Atom{engine.Rider(1, 0), engine.Rider(1, 1)}},
		{Name: "king", Letter: 'K', Value: 20000, Role: engine.RoleKing, Royal: true, Atoms: []engine.Atom{engine.Leaper(1, 0), engine.Leaper(1, 1)}},
	}
}

// chessRules returns the rules of FIDE chess.
func chessRules() engine.Rules {
	sq := engine.SquareAt
	return engine.Rules{
		Name: "chess", Width: 8, Height: 8,
		Pieces:         chessPieces(),
		StartFEN:       ChessFEN,
		InitialRegion:  [2]engine.SquareSet{engine.RankSet(1, 8), engine.RankSet(6, 8)},
		PromotionZone:  [2]engine.SquareSet{engine.RankSet(7, 8), engine.RankSet(0, 8)},
		PromotionTypes: []byte("QRBN"),
		Castling: []engine.CastlingRule{
			{Colour: engine.White, Letter: 'K', KingFrom: sq(4, 0), KingTo: sq(6, 0), RookFrom: sq(7, 0), RookTo: sq(5, 0)},
			{Colour: engine.White, Letter: 'Q', KingFrom: sq(4, 0), KingTo: sq(2, 0), RookFrom: sq(0, 0), RookTo: sq(3, 0)},
			{Colour: engine.Black, Letter: 'K', KingFrom: sq(4, 7), KingTo: sq(6, 7), RookFrom: sq(7, 7), RookTo: sq(5, 7)},
			{Colour: engine.Black, Letter: 'Q', KingFrom: sq(4, 7), KingTo: sq(2, 7), RookFrom: sq(0, 7), RookTo: sq(3, 7)},
		},
		CastlingKing: 'K', CastlingRook: 'R',
		MoveRule: 50, RepetitionRule: 3, InsufficientMaterial: true,
	}
}

// Chess returns FIDE chess.
func Chess() *engine.Variant { return engine.MustVariant(chessRules()) }
