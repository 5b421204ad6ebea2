package explorer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// fenIs is the condition that the page shows a FEN with its answer.
func fenIs(fen string) string {
	return `document.getElementById('fen').value === ` + jsString(fen) + ` && document.querySelectorAll('#moves li').length > 0`
}

// TestBrowserHistoryLinksKeys: every move is a link to its position;
// each position played is a history entry that the page's buttons, the
// browser's Back and Forward and the arrow keys walk; f flips the board;
// the title names the material and the verdict.
func TestBrowserHistoryLinksKeys(t *testing.T) {
	p, srv := newPage(t, "KQvK")
	const fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
	api := probe(t, srv, "chess", fen)
	p.open(fen)
	require.Equal(t, fmt.Sprintf("KQvK: White mates in %d — Chimera tablebases", (*api.DTM+1)/2), eval[string](p, `document.title`))
	hrefs := eval[[]string](p, `[...document.querySelectorAll('#moves li a')].map(a => a.getAttribute('href'))`)
	require.Len(t, hrefs, len(api.Moves))
	for i, m := range api.Moves {
		require.Equal(t, "/?variant=chess&fen="+strings.ReplaceAll(urlEncode(m.FEN), "+", "%20"), hrefs[i], m.UCI)
	}

	first := api.Moves[0]
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf("#moves li[data-uci=%q] a", first.UCI))))
	p.waitFor(fenIs(first.FEN))
	second := probe(t, srv, "chess", first.FEN).Moves[0]
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf("#moves li[data-uci=%q] a", second.UCI))))
	p.waitFor(fenIs(second.FEN))
	require.Equal(t, 3, eval[int](p, `history.length - 1`), "a history entry per position")

	p.do(chromedp.NavigateBack()) // the browser's Back
	p.waitFor(fenIs(first.FEN))
	p.do(chromedp.Click(chromedp.CSS("#back")))
	p.waitFor(fenIs(fen))
	require.True(t, eval[bool](p, `document.getElementById('back').disabled`))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor(fenIs(first.FEN))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor(fenIs(second.FEN))
	require.True(t, eval[bool](p, `document.getElementById('forward').disabled`))
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.waitFor(fenIs(first.FEN))
	require.Contains(t, eval[string](p, `location.search`), "fen=", "the address is the position's")

	a1 := eval[[]float64](p, `(() => { const r = document.querySelector('rect[data-square="a1"]').getBoundingClientRect(); return [r.left, r.top]; })()`)
	p.do(chromedp.KeyEvent("f"))
	a1flipped := eval[[]float64](p, `(() => { const r = document.querySelector('rect[data-square="a1"]').getBoundingClientRect(); return [r.left, r.top]; })()`)
	require.Greater(t, a1flipped[0], a1[0], "flipped: a1 at the top right")
	require.Less(t, a1flipped[1], a1[1])

	// Typing in a box is not a key command.
	p.do(chromedp.Click(chromedp.CSS("#move-input")), chromedp.KeyEvent(kb.ArrowLeft))
	require.Equal(t, first.FEN, eval[string](p, `document.getElementById('fen').value`))

	// "Unknown" is never bold. Five pieces: more than the server builds on
	// request, so the answer stays unknown (a KRvK position would be built
	// while the page polls, and its best moves bolded).
	p.open("8/8/8/4k3/8/8/8/KRRB4 w - - 0 1")
	require.Equal(t, "unknown", eval[string](p, `document.getElementById('verdict').className`))
	require.Zero(t, eval[int](p, `document.querySelectorAll('#moves li.best').length`))
}

// urlEncode is JavaScript's encodeURIComponent for a FEN.
func urlEncode(s string) string {
	r := strings.NewReplacer("/", "%2F", " ", "%20", "+", "%2B")
	return r.Replace(s)
}

// TestBrowserIndex opens a variant's endgame index and a table's page
// from it.
func TestBrowserIndex(t *testing.T) {
	p, _ := newPage(t, "KQvK")
	p.do(chromedp.Navigate(p.url + "/chess/tables"))
	p.waitFor(`document.querySelectorAll('table.index tr').length > 1`)
	rows := eval[[]string](p, `[...document.querySelectorAll('table.index tr')].slice(1, 3).map(tr => tr.textContent)`)
	require.True(t, strings.HasPrefix(rows[0], "KQvK3here"), rows[0])
	require.Contains(t, eval[string](p, `document.getElementById('index-status').textContent`), "1 tables here")
	require.Positive(t, eval[int](p, `[...document.querySelectorAll('table.index tr')].filter(tr => tr.textContent.includes('buildable')).length`))
	href := eval[string](p, `document.querySelector('table.index tr:nth-child(2) a').getAttribute('href')`)
	require.Equal(t, "/chess/KQvK", href)
	p.do(chromedp.Navigate(p.url + href))
	p.waitFor(`document.querySelector('table.stats:not(.index)') !== null`)
}

// darkMode emulates the system's dark colour scheme.
func darkMode(dark bool) chromedp.Action[chromedp.Void] {
	value := "light"
	if dark {
		value = "dark"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}}})
		return err
	})
}

// TestBrowserPhoneAndDark: on a phone (390 px) the verdict and the best
// moves come right under the board, within the first screen; buttons and
// moves are 44 px touch targets; no page scrolls sideways at 360 px; the
// system's dark mode darkens the page.
func TestBrowserPhoneAndDark(t *testing.T) {
	p, _ := newPage(t, "KBNvK")
	const fen = "8/8/8/8/8/2k5/8/KBN5 w - - 0 1"
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.open(fen)
	verdictTop := eval[float64](p, `document.getElementById('verdict').getBoundingClientRect().top`)
	boardBottom := eval[float64](p, `document.getElementById('board').getBoundingClientRect().bottom`)
	firstMove := eval[float64](p, `document.querySelector('#moves li').getBoundingClientRect().bottom`)
	require.Greater(t, verdictTop, boardBottom-1, "the verdict under the board")
	require.Less(t, verdictTop, boardBottom+40, "right under it")
	require.Less(t, firstMove, 844.0, "the best move within the first screen")
	small := eval[[]string](p, `[...document.querySelectorAll('#explorer button, #moves li a, #palette svg')]
		.filter(e => e.checkVisibility()).filter(e => { const r = e.getBoundingClientRect(); return r.height < 43.5 || r.width < 43.5; })
		.map(e => e.id || e.textContent)`)
	require.Empty(t, small, "touch targets under 44 px")

	p.do(chromedp.EmulateViewport(360, 800, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for _, path := range []string{"/?variant=chess&fen=" + urlEncode(fen), "/chess/KBNvK", "/chess/tables", "/?variant=reallybig", "/nosuch/page"} {
		p.do(chromedp.Navigate(p.url + path))
		p.waitFor(`document.readyState === 'complete'`)
		if strings.HasPrefix(path, "/chess/") {
			p.waitFor(`document.querySelector('table') !== null`)
		} else if strings.HasPrefix(path, "/?") {
			p.waitFor(`document.querySelectorAll('#board rect').length > 0`)
		}
		width := eval[float64](p, `document.documentElement.scrollWidth`)
		require.LessOrEqual(t, width, 360.0, "%s scrolls sideways", path)
	}

	p.do(chromedp.EmulateViewport(1280, 900))
	p.do(darkMode(false))
	p.open(fen)
	light := eval[string](p, `getComputedStyle(document.body).backgroundColor`)
	p.do(darkMode(true))
	p.open(fen)
	dark := eval[string](p, `getComputedStyle(document.body).backgroundColor`)
	require.NotEqual(t, light, dark)
	require.Equal(t, "rgb(23, 24, 27)", dark)
}

// TestBrowserUnderscoresAndTablePages: the page reads a FEN with
// underscores for spaces, as the API does (lichess's addresses), and
// draws its board; a table's page and the endgame index, which have no
// board, show none of the board's controls.
func TestBrowserUnderscoresAndTablePages(t *testing.T) {
	p, srv := newPage(t, "KQvK")
	const fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
	api := probe(t, srv, "chess", fen)
	p.do(chromedp.Navigate(p.url + "/?variant=chess&fen=" + strings.ReplaceAll(fen, " ", "_")))
	// The script has read the FEN once the box shows it, or said why not
	// (the moves in the HTML come from the server).
	p.waitFor(`document.getElementById('fen').value !== '' || document.getElementById('status').textContent !== ''`)
	require.Empty(t, eval[string](p, `document.getElementById('status').textContent`), "no complaint about the FEN")
	require.Equal(t, fen, eval[string](p, `document.getElementById('fen').value`), "the FEN with spaces")
	p.waitFor(fenIs(fen))
	require.ElementsMatch(t, []string{"K@a1", "Q@b1", "k@e5"},
		eval[[]string](p, `[...document.querySelectorAll('#board g.piece')].map(g => g.dataset.piece + '@' + g.dataset.square)`))
	require.Contains(t, eval[string](p, `location.search`), urlEncode(fen), "the address has the FEN with spaces")
	require.Len(t, eval[[]string](p, `[...document.querySelectorAll('#moves li')].map(li => li.dataset.uci)`), len(api.Moves))

	boardControls := `['board', 'practice', 'back', 'forward', 'flip', 'side', 'clear', 'fen', 'move-input', 'palette']
		.filter(id => document.getElementById(id).checkVisibility())`
	for path, ready := range map[string]string{
		"/chess/KQvK":   `document.querySelector('table.stats') !== null`,
		"/chess/tables": `document.querySelectorAll('table.index tr').length > 1`,
	} {
		p.do(chromedp.Navigate(p.url + path))
		p.waitFor(ready)
		require.Empty(t, eval[[]string](p, boardControls), "%s has no board, and no board controls", path)
		require.True(t, eval[bool](p, `document.querySelector('table.stats').checkVisibility()`), path)
	}
}
