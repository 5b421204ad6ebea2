package variants

import "github.com/chimera-chess/chimera/engine"

// predefinedPiece is a piece a variant file can name with a key such as
// "amazon = a", as in Fairy-Stockfish.
type predefinedPiece struct {
	key   string
	betza string
	role  engine.Role
	value int
}

// predefinedPieces lists the named pieces in the order their types are
// numbered. Values are the documents' (package eval says which document)
// where they give one; fairy pieces without a value get an estimate from
// the evaluation later.
var predefinedPieces = []predefinedPiece{
	{"pawn", "fmWfceF", engine.RolePawn, 100},
	{"knight", "N", engine.RoleKnight, 300},
	{"bishop", "B", engine.RoleBishop, 300},
	{"rook", "R", engine.RoleRook, 500},
	{"queen", "Q", engine.RoleQueen, 900},
	{"king", "K", engine.RoleKing, 20000},
	{"fers", "F", engine.RoleOther, 150},
	{"alfil", "A", engine.RoleOther, 100},
	{"fersAlfil", "FA", engine.RoleOther, 0},
	{"wazir", "W", engine.RoleOther, 0},
	{"commoner", "K", engine.RoleOther, 150},
	{"silver", "FfW", engine.RoleOther, 0},
	{"gold", "WfF", engine.RoleOther, 0},
	{"bers", "RF", engine.RoleOther, 0},
	{"dragonHorse", "BW", engine.RoleOther, 0},
	{"archbishop", "BN", engine.RoleOther, 900},
	{"chancellor", "RN", engine.RoleOther, 900},
	{"amazon", "QN", engine.RoleOther, 1300},
	{"centaur", "KN", engine.RoleOther, 0},
	{"camel", "C", engine.RoleOther, 0},
	{"zebra", "Z", engine.RoleOther, 300},
	{"wildebeest", "NC", engine.RoleOther, 0},
	{"nightrider", "NN", engine.RoleOther, 0},
	{"grasshopper", "gQ", engine.RoleOther, 200},
	{"lance", "fR", engine.RoleOther, 0},
	{"shogiPawn", "fW", engine.RoleOther, 0},
	{"shogiKnight", "ffN", engine.RoleOther, 0},
	// The pieces of xiangqi and janggi: lame leapers (blocked on their
	// walk's first squares), cannons, the soldier (its sideways step
	// waits for soldierPromotionRank).
	{"horse", "nN", engine.RoleOther, 0},
	{"elephant", "nA", engine.RoleOther, 0},
	{"soldier", "fsW", engine.RoleOther, 0},
	{"cannon", "mRcpR", engine.RoleOther, 0},
	{"janggiCannon", "pR", engine.RoleOther, 0},
	{"janggiElephant", "nZ", engine.RoleOther, 0},
	// Fairy-Stockfish 11.1's other pieces: the ai-wok (makruk's queen in
	// ai-wok), pieces that move one way and capture another (Hoppel-Poppel,
	// New Zealand), the euroshogi knight, the banner (manchu: rook, cannon
	// capture and horse), the stones of clobber and breakthrough.
	{"aiwok", "RNF", engine.RoleOther, 0},
	{"knibis", "mNcB", engine.RoleOther, 0},
	{"biskni", "mBcN", engine.RoleOther, 0},
	{"kniroo", "mNcR", engine.RoleOther, 0},
	{"rookni", "mRcN", engine.RoleOther, 0},
	{"euroshogiKnight", "ffNsW", engine.RoleOther, 0},
	{"banner", "RcpRnN", engine.RoleOther, 0},
	{"clobber", "cW", engine.RoleOther, 0},
	{"breakthrough", "mfWfF", engine.RoleOther, 0},
}

func findPredefined(key string) (predefinedPiece, bool) {
	for _, p := range predefinedPieces {
		if p.key == key {
			return p, true
		}
	}
	return predefinedPiece{}, false
}
