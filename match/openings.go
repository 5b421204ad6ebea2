package match

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// maxOpeningLine bounds one line of an opening book (a PGN's movetext may
// be one long line).
const maxOpeningLine = 1 << 20

// Book is an opening book read for a variant.
type Book struct {
	// Openings are the start positions to play, as FENs.
	Openings []string
	// Finished counts the book's positions left out because their game
	// is already over (checkmate, stalemate, a variant's own end; a PGN
	// of finished games gives those): a game from one would have no move,
	// its result the opening's, not the engines'.
	Finished int
}

// ReadOpenings reads an opening book for v: its start positions as FENs,
// each checked against the variant's rules, less those whose game is
// already over (counted in Finished). Two formats are read, told apart by
// their first non-blank line: PGN (it begins with a tag "[...]" or a move
// number), whose games' final positions are the openings (from the FEN
// tag, or the start position), and one position per line — a FEN, or an
// EPD line whose first four fields are the position and whose operations
// after them are ignored. Lines starting with # are comments in either. A
// book with no position to play is an error.
func ReadOpenings(r io.Reader, v *engine.Variant) (Book, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxOpeningLine)
	var lines []string
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return Book{}, err
	}
	var all []string
	var err error
	if isPGN(lines) {
		all, err = pgnOpenings(lines, v)
	} else {
		all, err = epdOpenings(lines, v)
	}
	if err != nil {
		return Book{}, err
	}
	if len(all) == 0 {
		return Book{}, fmt.Errorf("no positions")
	}
	var book Book
	for _, fen := range all {
		p, err := v.ParseFEN(fen) // read above: it parses
		if err != nil {
			return Book{}, err
		}
		if p.Result().Over() {
			book.Finished++
			continue
		}
		book.Openings = append(book.Openings, fen)
	}
	if len(book.Openings) == 0 {
		return Book{}, fmt.Errorf("no position to play: the games of all %d are already over (checkmate, stalemate, a draw by rule or the variant's end)", book.Finished)
	}
	return book, nil
}

// isPGN tells a PGN from a list of positions by the first line with text.
func isPGN(lines []string) bool {
	for _, l := range lines {
		if l != "" {
			return strings.HasPrefix(l, "[") || moveNumber.MatchString(l)
		}
	}
	return false
}

var moveNumber = regexp.MustCompile(`^\d+\.`)

// epdOpenings reads one FEN or EPD position per line.
func epdOpenings(lines []string, v *engine.Variant) ([]string, error) {
	var out []string
	for i, line := range lines {
		if line == "" {
			continue
		}
		if j := strings.Index(line, ";"); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(line)
		if len(fields) > 6 || (len(fields) > 4 && !isNumber(fields[len(fields)-1])) {
			fields = fields[:4] // EPD: position then operations
		}
		fen := strings.Join(fields, " ")
		if _, err := v.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, fen)
	}
	return out, nil
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// pgnOpenings plays out every game of a PGN and returns the positions
// reached.
func pgnOpenings(lines []string, v *engine.Variant) ([]string, error) {
	var out []string
	var g pgnGame
	flush := func() error {
		if len(g.moves) == 0 && g.fen == "" {
			return nil
		}
		fen, err := g.final(v)
		if err != nil {
			return fmt.Errorf("game %d (ending line %d): %w", len(out)+1, g.lastLine, err)
		}
		out = append(out, fen)
		g = pgnGame{}
		return nil
	}
	for i, line := range lines {
		if strings.HasPrefix(line, "[") {
			if len(g.moves) > 0 { // tags after movetext start the next game
				if err := flush(); err != nil {
					return nil, err
				}
			}
			if m := tagPair.FindStringSubmatch(line); m != nil && m[1] == "FEN" {
				g.fen = m[2]
			}
			continue
		}
		g.lastLine = i + 1
		for _, tok := range movetextTokens(line) {
			if isResult(tok) { // the game's end, tags or not before the next
				if err := flush(); err != nil {
					return nil, err
				}
				continue
			}
			g.moves = append(g.moves, tok)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

var tagPair = regexp.MustCompile(`^\[(\w+)\s+"(.*)"\]$`)

// pgnGame is the part of one PGN game an opening needs.
type pgnGame struct {
	fen      string
	moves    []string
	lastLine int
}

// final plays the game's moves and returns the position reached.
func (g pgnGame) final(v *engine.Variant) (string, error) {
	fen := g.fen
	if fen == "" {
		fen = v.StartFEN
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		return "", err
	}
	for _, san := range g.moves {
		m, err := p.ParseSAN(san)
		if err != nil {
			return "", err
		}
		p.Make(m)
	}
	return p.FEN(), nil
}

func isResult(tok string) bool {
	return tok == "*" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2"
}

// movetextTokens returns the SAN moves and result of a line of movetext:
// without comments, variations, NAGs and move numbers. (Comments and
// variations are taken to close on the line that opens them, as book
// files write them.)
func movetextTokens(line string) []string {
	line = braces.ReplaceAllString(line, " ")
	for parens.MatchString(line) { // innermost first: variations nest
		line = parens.ReplaceAllString(line, " ")
	}
	var moves []string
	for _, tok := range strings.Fields(line) {
		tok = moveNumber.ReplaceAllString(tok, "")
		tok = strings.TrimLeft(tok, ".")
		switch {
		case tok == "", strings.HasPrefix(tok, "$"):
		default:
			moves = append(moves, tok)
		}
	}
	return moves
}

var (
	braces = regexp.MustCompile(`\{[^}]*\}|;.*$`)
	parens = regexp.MustCompile(`\([^()]*\)`)
)
