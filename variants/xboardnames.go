package variants

// XBoardName returns the name XBoard (CECP) knows a variant by: chess is
// its "normal", antichess (without castling) its "suicide"; other
// variants keep their name.
func XBoardName(name string) string {
	switch name {
	case "chess":
		return "normal"
	case "antichess":
		return "suicide"
	}
	return name
}

// FromXBoardName returns the variant an XBoard name stands for.
func FromXBoardName(name string) string {
	switch name {
	case "normal":
		return "chess"
	case "suicide":
		return "antichess"
	}
	return name
}
