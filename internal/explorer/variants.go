package explorer

import (
	"net/http"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// variantInfo is what the page needs to draw and set up a variant's
// board.
type variantInfo struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Width       int         `json:"width"`
	Height      int         `json:"height"`
	Pieces      []pieceInfo `json:"pieces"`
	// Tables says whether the generator models the variant's rules;
	// Example is a position to open with (KBNvK in chess).
	Tables  bool   `json:"tables"`
	Example string `json:"example"`
	// StatsPieces is the most pieces whose statistics the server counts
	// on this board (the material page's link is offered up to it).
	StatsPieces int `json:"stats_pieces"`
}

// pieceInfo is one piece type: its FEN letter, name and movement, and a
// chess glyph when it is a standard chess piece.
type pieceInfo struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
	Betza  string `json:"betza"`
	Royal  bool   `json:"royal"`
	Glyph  string `json:"glyph,omitempty"` // White's; the page draws Black's from it
}

// glyph returns the chess glyph (White's) of a standard chess piece, ""
// for a fairy piece, including one borrowing a role but not the letter.
func glyph(pt *engine.PieceType) string {
	for _, g := range []struct {
		role   engine.Role
		letter byte
		glyph  string
	}{
		{engine.RoleKing, 'K', "♔"}, {engine.RoleQueen, 'Q', "♕"}, {engine.RoleRook, 'R', "♖"},
		{engine.RoleBishop, 'B', "♗"}, {engine.RoleKnight, 'N', "♘"}, {engine.RolePawn, 'P', "♙"},
	} {
		if pt.Role == g.role && pt.Letter == g.letter {
			return g.glyph
		}
	}
	return ""
}

// serveVariants lists every variant, those with tables first.
func (s *Server) serveVariants(w http.ResponseWriter, r *http.Request) {
	var with, without []variantInfo
	for _, name := range s.cfg.Catalogue.Names() {
		v, err := s.cfg.Catalogue.Lookup(name)
		if err != nil {
			continue
		}
		info := describe(s.cfg.Store, v, s.cfg.Catalogue.Description(name), s.cfg.BuildMemory)
		if info.Tables {
			with = append(with, info)
		} else {
			without = append(without, info)
		}
	}
	w.Header().Set("Cache-Control", cacheBrief)
	writeJSON(w, http.StatusOK, append(with, without...))
}

// describe builds a variant's description for the page; the example's
// table must be buildable within buildMemory.
func describe(store *tablebase.Store, v *engine.Variant, description string, buildMemory int64) variantInfo {
	info := variantInfo{Name: v.Name, Description: description, Width: v.Width, Height: v.Height,
		Tables: tablebase.CheckVariant(v) == nil, Example: v.StartFEN}
	for i := range v.Pieces {
		pt := &v.Pieces[i]
		info.Pieces = append(info.Pieces, pieceInfo{Letter: string(pt.Letter), Name: pt.Name, Betza: pt.Betza,
			Royal: pt.Royal, Glyph: glyph(pt)})
	}
	if info.Tables {
		info.Example = example(store, v, buildMemory)
	}
	for placements := float64(v.Width * v.Height); placements <= maxStatsPlacements; placements *= float64(v.Width * v.Height) {
		info.StatsPieces++
	}
	return info
}

// example returns an ending to open the variant with: king, bishop and
// knight against king where the variant has them and the server can
// build that table (the KBNK article's ending), else the royal piece and
// the most valuable other piece against the royal piece. The pieces go
// near the centre and the lone king to a corner, trying other squares
// until the position is legal and not check (a bishop on the long
// diagonal of a 10×8 board would check the corner).
func example(store *tablebase.Store, v *engine.Variant, buildMemory int64) string {
	royal, strong, bishop, knight := 0, 0, 0, 0
	for i, pt := range v.Pieces {
		switch {
		case pt.Royal && royal == 0:
			royal = i + 1
		case pt.Royal, pt.Role == engine.RolePawn:
		case pt.Role == engine.RoleBishop && pt.Letter == 'B':
			bishop = i + 1
		case pt.Role == engine.RoleKnight && pt.Letter == 'N':
			knight = i + 1
		}
		if !pt.Royal && pt.Role != engine.RolePawn && (strong == 0 || pt.Value > v.Pieces[strong-1].Value) {
			strong = i + 1
		}
	}
	if royal == 0 || strong == 0 {
		return v.StartFEN
	}
	var sets [][]int // the pieces besides the two royal ones, best first
	if bishop != 0 && knight != 0 {
		sets = append(sets, []int{bishop, knight})
	}
	sets = append(sets, []int{strong})
	w, h := v.Width, v.Height
	for _, set := range sets {
		if !buildable(store, v, royal, set, buildMemory) {
			continue
		}
		for _, corner := range [][2]int{{0, h - 1}, {w - 1, h - 1}, {0, 0}, {w - 1, 0}} {
			for shift := range w {
				if fen, ok := exampleAt(v, royal, set, corner, shift); ok {
					return fen
				}
			}
		}
	}
	return v.StartFEN
}

// buildable reports whether the royal piece with set against the royal
// piece makes a table within the memory cap.
func buildable(store *tablebase.Store, v *engine.Variant, royal int, set []int, buildMemory int64) bool {
	strong := string(v.Pieces[royal-1].Letter)
	for _, t := range set {
		strong += string(v.Pieces[t-1].Letter)
	}
	m, err := tablebase.ParseMaterial(v, strong+"v"+string(v.Pieces[royal-1].Letter))
	if err != nil {
		return false
	}
	cost, err := store.GenerationCost(v, m)
	return err == nil && cost.Memory <= buildMemory
}

// exampleAt places the lone royal piece on corner and the others near the
// centre, shift files to the side, and returns the FEN when the position
// is legal and White is not in check.
func exampleAt(v *engine.Variant, royal int, set []int, corner [2]int, shift int) (string, bool) {
	w, h := v.Width, v.Height
	file := (w/2 + shift) % w
	place := []engine.Placement{
		{Square: engine.SquareAt(file, h/2), Piece: engine.MakePiece(royal, engine.White)},
		{Square: engine.SquareAt(corner[0], corner[1]), Piece: engine.MakePiece(royal, engine.Black)},
	}
	for i, t := range set {
		f := (file - 1 + i + w) % w
		place = append(place, engine.Placement{Square: engine.SquareAt(f, h/2-1), Piece: engine.MakePiece(t, engine.White)})
	}
	p, err := v.SetUp(place, engine.White)
	if err != nil || p.InCheck() {
		return "", false
	}
	return p.FEN(), true
}
