// Package match plays games between UCI engines, with Chimera's rules core
// as the referee: it starts the engines as child processes, keeps their
// clocks, checks every move, and writes PGN and a results table.
package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
)

// EngineSpec says how to start one engine.
type EngineSpec struct {
	Name    string
	Command []string          // program and arguments
	Options map[string]string // options to set
	// Protocol is "uci" (the default) or "xboard" (CECP).
	Protocol string
}

// Engine is a running engine process of either protocol, as a match
// uses it.
type Engine interface {
	game.Player
	// Offers reports whether the engine plays the variant.
	Offers(variant string) error
	Quit()
	Kill()
	Alive() bool
}

// Client is a running UCI engine process.
type Client struct {
	*process
	spec    EngineSpec
	options map[string]string // name → declaration line, from the uci answer
}

// ErrEngineGone is returned when the engine process has ended; it wraps
// game.ErrPlayerGone, so the referee counts it as a crash.
var ErrEngineGone = fmt.Errorf("engine process ended: %w", game.ErrPlayerGone)

// handshakeTimeout bounds how long an engine may take to answer uci and
// isready.
const handshakeTimeout = 10 * time.Second

// Start launches the engine and completes its protocol's handshake.
func Start(ctx context.Context, spec EngineSpec) (Engine, error) {
	switch spec.Protocol {
	case "", "uci":
		return StartUCI(ctx, spec)
	case "xboard":
		return startCECP(ctx, spec)
	}
	return nil, fmt.Errorf("engine %s: unknown protocol %q (want uci or xboard)", spec.Name, spec.Protocol)
}

// StartUCI launches a UCI engine, completes the handshake and sets its
// options.
func StartUCI(ctx context.Context, spec EngineSpec) (*Client, error) {
	p, err := startProcess(spec)
	if err != nil {
		return nil, err
	}
	c := &Client{process: p, spec: spec, options: map[string]string{}}
	c.send("uci")
	_, before, err := c.waitFor(ctx, "uciok", time.Now().Add(handshakeTimeout))
	if err != nil {
		c.Kill()
		return nil, fmt.Errorf("engine %s: uci: %w", spec.Name, err)
	}
	for _, l := range before {
		if rest, ok := strings.CutPrefix(l, "option name "); ok {
			name, _, _ := strings.Cut(rest, " type ")
			c.options[strings.ToLower(name)] = l
		}
	}
	for name, value := range spec.Options {
		if !c.HasOption(name) {
			c.Kill()
			return nil, fmt.Errorf("engine %s has no option %q", spec.Name, name)
		}
		if err := parseUCIOption(c.OptionLine(name)).check(value); err != nil {
			c.Kill()
			return nil, fmt.Errorf("engine %s: option %s: %w", spec.Name, name, err)
		}
		c.send(fmt.Sprintf("setoption name %s value %s", name, value))
	}
	answers, err := c.ready(ctx)
	if err != nil {
		c.Kill()
		return nil, err
	}
	// An engine that refuses a value says so in an info string (Chimera
	// and Stockfish do): a match on settings other than those asked for
	// would measure the wrong thing.
	for _, l := range answers {
		if msg, ok := strings.CutPrefix(l, "info string "); ok && len(spec.Options) > 0 && strings.Contains(strings.ToLower(msg), "error") {
			c.Kill()
			return nil, fmt.Errorf("engine %s refused its options: %s", spec.Name, msg)
		}
	}
	return c, nil
}

// Name returns the engine's name in the match.
func (c *Client) Name() string { return c.spec.Name }

// HasOption reports whether the engine declared the option.
func (c *Client) HasOption(name string) bool {
	_, ok := c.options[strings.ToLower(name)]
	return ok
}

// OptionLine returns the option's declaration.
func (c *Client) OptionLine(name string) string { return c.options[strings.ToLower(name)] }

// Ready sends isready and waits for readyok.
func (c *Client) Ready(ctx context.Context) error {
	_, err := c.ready(ctx)
	return err
}

// ready sends isready and returns what the engine said before readyok.
func (c *Client) ready(ctx context.Context) ([]string, error) {
	c.send("isready")
	_, before, err := c.waitFor(ctx, "readyok", time.Now().Add(handshakeTimeout))
	if err != nil {
		return nil, fmt.Errorf("engine %s: isready: %w", c.spec.Name, err)
	}
	return before, nil
}

// NewGame prepares the engine for a game of the variant. An engine that
// cannot take part is killed: it loses the game, and the match starts it
// afresh for the next one.
func (c *Client) NewGame(ctx context.Context, v *engine.Variant) error {
	err := c.newGame(ctx, v.Name)
	if err != nil {
		c.Kill()
	}
	return err
}

func (c *Client) newGame(ctx context.Context, variant string) error {
	if err := c.Offers(variant); err != nil {
		return err
	}
	if variant != "chess" || c.HasOption("UCI_Variant") {
		c.send("setoption name UCI_Variant value " + variant)
	}
	c.send("ucinewgame")
	return c.Ready(ctx)
}

// Offers reports whether the engine declared the variant (chess needs no
// declaration).
func (c *Client) Offers(variant string) error {
	if variant == "chess" && !c.HasOption("UCI_Variant") {
		return nil
	}
	if !c.HasOption("UCI_Variant") {
		return fmt.Errorf("engine %s does not play variants (no UCI_Variant option)", c.spec.Name)
	}
	if line := c.OptionLine("UCI_Variant"); !strings.Contains(line+" ", " var "+variant+" ") {
		return fmt.Errorf("engine %s does not offer variant %s", c.spec.Name, variant)
	}
	return nil
}

// Move sends the position and a go with the clocks, and waits for the
// bestmove until the turn's deadline. An engine that misses it is killed
// (it may still be thinking) and started afresh for the next game.
func (c *Client) Move(ctx context.Context, t *game.Turn) (string, error) {
	position := "position fen " + t.StartFEN
	if len(t.Moves) > 0 {
		position += " moves " + strings.Join(t.Moves, " ")
	}
	var goArgs string
	if cl := t.Clock; cl != nil {
		goArgs = fmt.Sprintf("wtime %d btime %d winc %d binc %d", cl.WTime.Milliseconds(), cl.BTime.Milliseconds(),
			cl.WInc.Milliseconds(), cl.BInc.Milliseconds())
		if cl.MovesToGo > 0 {
			goArgs += fmt.Sprintf(" movestogo %d", cl.MovesToGo)
		}
	}
	move, _, err := c.Go(ctx, position, goArgs, t.Deadline)
	if err != nil && !errors.Is(err, ErrEngineGone) && ctx.Err() == nil {
		c.Kill()
	}
	return move, err
}

// Go sends the position and a go with goArgs, and waits for the bestmove
// until deadline (none when zero). It returns the move text and the last
// info line with a score.
func (c *Client) Go(ctx context.Context, position, goArgs string, deadline time.Time) (move, info string, err error) {
	c.send(position)
	c.send(strings.TrimSpace("go " + goArgs))
	line, before, err := c.waitFor(ctx, "bestmove", deadline)
	for i := len(before) - 1; i >= 0; i-- {
		if strings.HasPrefix(before[i], "info") && strings.Contains(before[i], " score ") {
			info = before[i]
			break
		}
	}
	if err != nil {
		return "", info, err
	}
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return "", info, fmt.Errorf("malformed %q", line)
	}
	return fields[1], info, nil
}

// Quit asks the engine to quit and kills it if it does not.
func (c *Client) Quit() { c.quit("quit") }
