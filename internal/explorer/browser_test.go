package explorer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/explorer"
)

// browser returns the path of an installed Chromium or Chrome, or "".
func browser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// page is a headless browser tab on the explorer.
type page struct {
	t   *testing.T
	ctx context.Context
	url string
}

func newPage(t *testing.T, tables ...string) (*page, *explorer.Server) {
	path := browser()
	if path == "" {
		t.Skip("no Chromium installed (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("a real browser takes seconds; run without -short")
	}
	srv, _ := newServer(t, tables...)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return &page{t: t, ctx: ctx, url: ts.URL}, srv
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	require.NoError(p.t, chromedp.Do(p.ctx, steps...))
}

// eval evaluates a JavaScript expression and decodes its value.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := retryLostContext(func() (T, error) { return chromedp.Run(p.ctx, chromedp.Evaluate[T](expr)) })
	require.NoError(p.t, err, expr)
	return v
}

// waitFor waits until a JavaScript condition holds: however long a loaded
// machine takes (the test's own deadline bounds it, not a clock here).
func (p *page) waitFor(cond string) {
	p.t.Helper()
	_, err := retryLostContext(func() (chromedp.Void, error) {
		return chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(0)))
	})
	require.NoError(p.t, err, cond)
}

// retryLostContext runs a script again when Chromium dropped the page's
// JavaScript context under it: right after a navigation the DevTools client
// can still name the old document's context ("Cannot find context with
// specified id", "Execution context was destroyed"), which a loaded machine
// makes likelier. It is the browser's race, not the page's fault.
func retryLostContext[T any](run func() (T, error)) (T, error) {
	for try := 0; ; try++ {
		v, err := run()
		if err == nil || try == 50 || !lostContext(err) {
			return v, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func lostContext(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Cannot find context") || strings.Contains(msg, "Execution context was destroyed") ||
		strings.Contains(msg, "context with specified id")
}

// open loads the explorer on a position and waits for its answer.
func (p *page) open(fen string) {
	p.do(chromedp.Navigate(p.url + "/?variant=chess&fen=" + url.QueryEscape(fen)))
	p.waitFor(`document.querySelectorAll('#moves li').length > 0 && document.getElementById('fen').value === ` + jsString(fen))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// centre returns the screen centre of a board square.
func (p *page) centre(square string) (float64, float64) {
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector('rect[data-square=%q]').getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2]; })()`, square))
	return xy[0], xy[1]
}

// drag drags the mouse from one square to another, as a user does.
func (p *page) drag(from, to string) {
	x1, y1 := p.centre(from)
	x2, y2 := p.centre(to)
	p.do(
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (x1+x2)/2, (y1+y2)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x2, y2, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x2, y2, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
}

// TestBrowserExplorer drives the page in a real Chromium: it shows the
// mate distance and the best moves (listed, marked and drawn as arrows),
// a move dragged on the board is played, and in practice the page answers
// the user's move with the longest resistance.
func TestBrowserExplorer(t *testing.T) {
	p, srv := newPage(t, "KQvK")
	const fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
	api := probe(t, srv, "chess", fen)
	p.open(fen)

	verdict := eval[string](p, `document.getElementById('verdict').textContent`)
	require.Equal(t, fmt.Sprintf("White mates in %d (%d plies to zeroing)", (*api.DTM+1)/2, *api.DTZ), verdict)
	var best []string
	for _, m := range api.Moves {
		if m.Category == api.Moves[0].Category && *m.DTM == *api.Moves[0].DTM {
			best = append(best, m.UCI)
		}
	}
	require.ElementsMatch(t, best, eval[[]string](p, `[...document.querySelectorAll('#moves li.best')].map(li => li.dataset.uci)`))
	require.Equal(t, best[:min(3, len(best))], eval[[]string](p, `[...document.querySelectorAll('line.arrow')].map(l => l.dataset.uci)`),
		"arrows for at most three best moves, in the list's order")
	require.Equal(t, len(api.Moves), eval[int](p, `document.querySelectorAll('#moves li').length`))

	// Drag the best move on the board: the page plays it.
	move := api.Moves[0]
	p.drag(move.UCI[:2], move.UCI[2:4])
	p.waitFor(`document.getElementById('fen').value === ` + jsString(move.FEN) + ` && document.querySelectorAll('#moves li').length > 0`)
	after := probe(t, srv, "chess", move.FEN)
	require.Equal(t, fmt.Sprintf("White mates in %d (%d plies to zeroing)", -*after.DTM/2, -*after.DTZ), eval[string](p, `document.getElementById('verdict').textContent`))
	require.True(t, eval[bool](p, `!document.getElementById('back').disabled`))

	// Dragging a piece where it cannot move edits the position instead.
	king := eval[string](p, `document.querySelector('g.piece[data-piece="K"]').dataset.square`)
	target := "h8"
	if eval[bool](p, `document.querySelector('g.piece[data-square="h8"]') !== null`) {
		target = "a8"
	}
	p.drag(king, target)
	p.waitFor(fmt.Sprintf(`document.querySelector('g.piece[data-square=%q]')?.dataset.piece === 'K'`, target))
	require.False(t, eval[bool](p, `document.getElementById('back').disabled`), "an edit is a step Back can undo")
	require.True(t, eval[bool](p, `document.getElementById('forward').disabled`), "an edit ends the line ahead")

	// Practice: play the best move, and the page defends at once with the
	// longest resistance, giving the move back to White.
	// The solution stays hidden until asked for: no list, no arrows.
	p.open(fen)
	p.do(chromedp.Click(chromedp.CSS("#practice")))
	require.False(t, eval[bool](p, `document.getElementById('moves').checkVisibility()`), "the ranked moves are the answer")
	require.Zero(t, eval[int](p, `document.querySelectorAll('line.arrow').length`))
	p.do(chromedp.Click(chromedp.CSS("#solution")))
	require.True(t, eval[bool](p, `document.getElementById('moves').checkVisibility()`))
	require.Positive(t, eval[int](p, `document.querySelectorAll('line.arrow').length`))
	p.do(chromedp.Click(chromedp.CSS("#solution")))
	require.False(t, eval[bool](p, `document.getElementById('moves').checkVisibility()`))
	p.drag(move.UCI[:2], move.UCI[2:4])
	reply := probe(t, srv, "chess", move.FEN).Moves[0]
	p.waitFor(`document.getElementById('fen').value === ` + jsString(reply.FEN))
	p.waitFor(`document.getElementById('practice-report').textContent.startsWith('Move 2:')`)
	require.Equal(t, "White to move", eval[string](p, `document.getElementById('side').textContent`))

	// A move typed in the box is played.
	p.open(fen)
	p.do(chromedp.SendKeys(chromedp.CSS("#move-input"), move.SAN+"\n"))
	p.waitFor(`document.getElementById('fen').value === ` + jsString(move.FEN))
}

// TestBrowserScreenshots saves the page at desktop and phone widths when
// CHIMERA_SCREENSHOTS names a directory (docs/ keeps the published ones).
func TestBrowserScreenshots(t *testing.T) {
	dir := os.Getenv("CHIMERA_SCREENSHOTS")
	if dir == "" {
		t.Skip("set CHIMERA_SCREENSHOTS=DIR to save screenshots")
	}
	p, _ := newPage(t, "KBNvK")
	const fen = "8/8/8/8/8/2k5/8/KBN5 w - - 0 1"
	shot := func(name string) {
		png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
	p.open(fen)
	shot("explorer-desktop.png")
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.open(fen)
	shot("explorer-phone.png")
	p.do(chromedp.EmulateViewport(1280, 900))
	p.do(chromedp.Navigate(p.url + "/chess/KBNvK"))
	p.waitFor(`document.querySelector('table.stats') !== null`)
	shot("explorer-material.png")
	p.do(chromedp.Navigate(p.url + "/chess/tables"))
	p.waitFor(`document.querySelectorAll('table.index tr').length > 1`)
	shot("explorer-index.png")
	p.do(darkMode(true))
	p.open(fen)
	shot("explorer-dark.png")
}
