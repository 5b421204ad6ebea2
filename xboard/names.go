package xboard

// xboardName returns the name XBoard knows a variant by: chess is its
// "normal", antichess (without castling) its "suicide"; other variants
// keep Chimera's name, known to XBoard or not.
func xboardName(name string) string {
	switch name {
	case "chess":
		return "normal"
	case "antichess":
		return "suicide"
	}
	return name
}

// chimeraName returns the variant an XBoard name stands for.
func chimeraName(name string) string {
	switch name {
	case "normal":
		return "chess"
	case "suicide":
		return "antichess"
	}
	return name
}

// knownToXBoard reports whether XBoard draws and checks a game (by its
// XBoard name) by itself, at the size and with the pieces Chimera plays
// it; for every other variant the engine sends setup and piece commands.
func knownToXBoard(name string) bool {
	switch name {
	case "normal", "capablanca", "gothic", "janus", "knightmate", "berolina", "atomic", "losers",
		"suicide", "giveaway", "3check", "twokings", "shatranj", "grand":
		return true
	}
	return false
}
