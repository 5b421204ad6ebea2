package explorer

import (
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// servePage serves the page. With ?fen=, the position's verdict and its
// moves come in the HTML already, each move a link to the position it
// leads to, for crawlers and readers without JavaScript (and a title
// naming the material and the verdict); the script takes over from there.
// A table's page (/{variant}/{material}) and the endgame index
// (/{variant}/tables) come with their own part shown and the explorer's
// hidden: they have no board, so no board controls either, not even
// before the script runs.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	data, err := fs.ReadFile(webFiles, "web/index.html")
	if err != nil {
		notFoundPage(w, "the page is missing from this build")
		return
	}
	policy := cacheAsset
	switch material := r.PathValue("material"); {
	case material == "tables":
		data = []byte(showOnly(string(data), "index"))
	case material != "":
		data = []byte(showOnly(string(data), "material"))
	}
	if fen := r.URL.Query().Get("fen"); fen != "" && r.URL.Path == "/" {
		if page, complete, ok := s.render(string(data), r.URL.Query().Get("variant"), fen); ok {
			data = []byte(page)
			if !complete {
				policy = cacheNever
			}
		}
	}
	w.Header().Set("Content-Type", contentTypes[".html"])
	writeContent(w, data, policy)
}

// render puts a position's answer into the page's HTML; false when the
// variant or the FEN is not one (the script then says why).
func (s *Server) render(page, variant, fen string) (string, bool, bool) {
	if variant == "" {
		variant = "chess"
	}
	v, err := s.variant(variant)
	if err != nil {
		return "", false, false
	}
	p, err := lenientFEN(v, strings.ReplaceAll(fen, "_", " "))
	if err != nil {
		return "", false, false
	}
	a := s.answer(p, nil)
	verdict := verdictText(&a, p.SideToMove())
	var moves strings.Builder
	for _, m := range a.Moves {
		words, class := moveText(&m)
		fmt.Fprintf(&moves, `<li class="%s" data-uci="%s"><a href="%s"><span class="san">%s</span><span class="value %s">%s</span></a></li>`,
			class, html.EscapeString(m.UCI), html.EscapeString(positionURL(v, m.FEN)), html.EscapeString(m.SAN), class, html.EscapeString(words))
	}
	title, _, _ := strings.Cut(verdict, " (") // without the distance to zeroing
	if a.Table != nil {
		title = *a.Table + ": " + title
	}
	r := strings.NewReplacer(
		"<title>Chimera tablebase explorer</title>", "<title>"+html.EscapeString(title)+" — Chimera tablebases</title>",
		`<p id="verdict" aria-live="polite"></p>`, `<p id="verdict" aria-live="polite" class="`+a.Category+`">`+html.EscapeString(verdict)+`</p>`,
		`<ol id="moves" aria-label="legal moves, best first"></ol>`, `<ol id="moves" aria-label="legal moves, best first">`+moves.String()+`</ol>`,
	)
	return r.Replace(page), a.complete, true
}

// showOnly shows one part of the page (its <main>: "material" or
// "index") instead of the explorer.
func showOnly(page, part string) string {
	return strings.NewReplacer(
		`<main id="explorer">`, `<main id="explorer" hidden>`,
		`<main id="`+part+`" hidden>`, `<main id="`+part+`">`,
	).Replace(page)
}

// positionURL is the page of a position.
func positionURL(v *engine.Variant, fen string) string {
	return "/?variant=" + url.QueryEscape(v.Name) + "&fen=" + url.QueryEscape(fen)
}

// verdictText says a position's value, as the page's script does.
func verdictText(a *Answer, stm engine.Colour) string {
	me, other := "White", "Black"
	if stm == engine.Black {
		me, other = other, me
	}
	zeroing := ""
	if a.DTZ != nil && *a.DTZ != 0 {
		zeroing = fmt.Sprintf(" (%d plies to zeroing)", abs(*a.DTZ))
	}
	switch {
	case a.Checkmate:
		return "Checkmate: " + other + " wins"
	case a.VariantWin:
		return me + " has won"
	case a.VariantLoss:
		return other + " has won"
	case a.Stalemate:
		return "Stalemate: draw"
	case a.InsufficientMaterial:
		return "Draw: insufficient material"
	}
	switch a.Category {
	case categoryWin:
		if a.DTM != nil {
			return fmt.Sprintf("%s mates in %d%s", me, (*a.DTM+1)/2, zeroing)
		}
		return me + " wins" + zeroing
	case categoryLoss:
		if a.DTM != nil {
			return fmt.Sprintf("%s mates in %d%s", other, -*a.DTM/2, zeroing)
		}
		return other + " wins" + zeroing
	case categoryCursedWin:
		return me + " wins by force, but the fifty-move rule draws it" + zeroing
	case categoryBlessedLoss:
		return other + " wins by force, but the fifty-move rule saves " + me + zeroing
	case categoryDraw:
		return "Draw"
	}
	return "Unknown: no table for this position"
}

// moveText values a move for the side making it, and its class.
func moveText(m *MoveAnswer) (string, string) {
	switch {
	case m.Checkmate:
		return "Checkmate", "win"
	case m.Category == categoryLoss && m.DTM != nil:
		return fmt.Sprintf("Win: mate in %d", (2-*m.DTM)/2), "win"
	case m.Category == categoryWin && m.DTM != nil:
		return fmt.Sprintf("Loss: mated in %d", (*m.DTM+1)/2), "loss"
	case m.Category == categoryDraw && m.Stalemate:
		return "Draw: stalemate", "draw"
	case m.Category == categoryDraw:
		return "Draw", "draw"
	case m.Category == categoryBlessedLoss:
		return "Cursed win: the fifty-move rule draws", "draw"
	case m.Category == categoryCursedWin:
		return "Blessed loss: the fifty-move rule draws", "draw"
	}
	return "Unknown", "unknown"
}

func abs(x int) int { return max(x, -x) }
