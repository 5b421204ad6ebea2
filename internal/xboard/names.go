package xboard

// knownToXBoard reports whether XBoard draws and checks a game (by its
// XBoard name) by itself, at the size and with the pieces Chimera plays
// it; for every other variant the engine sends setup and piece commands.
func knownToXBoard(name string) bool {
	switch name {
	case "normal", "capablanca", "gothic", "janus", "knightmate", "berolina", "atomic", "losers",
		"suicide", "giveaway", "3check", "twokings", "shatranj", "grand", "fischerandom", "crazyhouse", "seirawan",
		"courier", "caparandom", "nocastle", "bughouse":
		return true
	}
	return false
}
