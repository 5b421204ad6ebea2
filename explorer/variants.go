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
		info := describe(v, s.cfg.Catalogue.Description(name))
		if info.Tables {
			with = append(with, info)
		} else {
			without = append(without, info)
		}
	}
	w.Header().Set("Cache-Control", cacheBrief)
	writeJSON(w, http.StatusOK, append(with, without...))
}

// describe builds a variant's description for the page.
func describe(v *engine.Variant, description string) variantInfo {
	info := variantInfo{Name: v.Name, Description: description, Width: v.Width, Height: v.Height,
		Tables: tablebase.CheckVariant(v) == nil, Example: v.StartFEN}
	for i := range v.Pieces {
		pt := &v.Pieces[i]
		info.Pieces = append(info.Pieces, pieceInfo{Letter: string(pt.Letter), Name: pt.Name, Betza: pt.Betza,
			Royal: pt.Royal, Glyph: glyph(pt)})
	}
	if info.Tables {
		info.Example = example(v)
	}
	return info
}

// example returns an ending to open the variant with: king, bishop and
// knight against king where the variant has them (the KBNK article's
// ending), else the royal piece and the most valuable other piece against
// the royal piece, on the first ranks' corners.
func example(v *engine.Variant) string {
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
	w, h := v.Width, v.Height
	place := []engine.Placement{
		{Square: engine.SquareAt(w/2, h/2), Piece: engine.MakePiece(royal, engine.White)},
		{Square: engine.SquareAt(0, h-1), Piece: engine.MakePiece(royal, engine.Black)},
	}
	if bishop != 0 && knight != 0 {
		place = append(place,
			engine.Placement{Square: engine.SquareAt(w/2-1, h/2-1), Piece: engine.MakePiece(bishop, engine.White)},
			engine.Placement{Square: engine.SquareAt(w/2, h/2-1), Piece: engine.MakePiece(knight, engine.White)})
	} else {
		place = append(place, engine.Placement{Square: engine.SquareAt(w/2-1, h/2-1), Piece: engine.MakePiece(strong, engine.White)})
	}
	p, err := v.SetUp(place, engine.White)
	if err != nil {
		return v.StartFEN
	}
	return p.FEN()
}
