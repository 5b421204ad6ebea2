package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/variants"
)

// cecpClient is a running XBoard (CECP) engine process. It keeps the
// engine in force mode and, for each move, sends the moves since its
// last one, the clocks and go: the same referee loop as for UCI.
type cecpClient struct {
	*process
	spec     EngineSpec
	features map[string]string     // from the feature commands
	options  map[string]optionType // the options the engine declared, by lower-case name
	variant  *engine.Variant
	sent     int  // plies of the game the engine knows
	started  bool // the game's position and level were sent
}

// featureTimeout is how long an engine that never says done=1 gets to
// send its features (protocol version 1 engines send none).
const featureTimeout = 2 * time.Second

// startCECP launches an XBoard engine and reads its features.
func startCECP(ctx context.Context, spec EngineSpec) (*cecpClient, error) {
	p, err := startProcess(spec)
	if err != nil {
		return nil, err
	}
	c := &cecpClient{process: p, spec: spec, features: map[string]string{}, options: map[string]optionType{}}
	c.send("xboard")
	c.send("protover 2")
	deadline := time.Now().Add(featureTimeout)
	for done := false; !done; {
		line, _, err := c.waitFor(ctx, "feature ", deadline)
		if errors.Is(err, ErrEngineGone) || ctx.Err() != nil {
			c.Kill()
			return nil, fmt.Errorf("engine %s: %w", spec.Name, err)
		}
		if err != nil {
			break // no done=1: a version 1 engine, or a slow one
		}
		for _, kv := range parseFeatures(strings.TrimPrefix(line, "feature ")) {
			switch kv[0] {
			case "done":
				if kv[1] == "0" {
					deadline = time.Now().Add(time.Hour) // the protocol's longer wait
				} else {
					done = true
				}
			case "option":
				name, _, _ := strings.Cut(kv[1], " -")
				c.options[strings.ToLower(strings.TrimSpace(name))] = parseCECPOption(kv[1])
			default:
				c.features[kv[0]] = kv[1]
			}
			c.send("accepted " + kv[0])
		}
	}
	for name, value := range spec.Options {
		t, ok := c.options[strings.ToLower(name)]
		if !ok {
			c.Kill()
			return nil, fmt.Errorf("engine %s has no option %q", spec.Name, name)
		}
		if err := t.check(value); err != nil {
			c.Kill()
			return nil, fmt.Errorf("engine %s: option %s: %w", spec.Name, name, err)
		}
		c.send(fmt.Sprintf("option %s=%s", name, t.cecpValue(value)))
	}
	return c, nil
}

// parseFeatures splits "a=1 b=\"x y\"" into name/value pairs.
func parseFeatures(s string) [][2]string {
	var out [][2]string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		name, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				end = len(rest) - 1
			}
			value, s = rest[1:1+end], rest[min(len(rest), end+2):]
		} else {
			value, s, _ = strings.Cut(rest, " ")
		}
		out = append(out, [2]string{strings.TrimSpace(name), value})
	}
	return out
}

// Name returns the engine's name in the match.
func (c *cecpClient) Name() string { return c.spec.Name }

// Offers reports whether the engine listed the variant (chess needs no
// listing).
func (c *cecpClient) Offers(variant string) error {
	name := variants.XBoardName(variant)
	list, ok := c.features["variants"]
	if name == "normal" && !ok {
		return nil
	}
	for _, v := range strings.Split(list, ",") {
		if strings.TrimSpace(v) == name {
			return nil
		}
	}
	return fmt.Errorf("engine %s does not offer variant %s", c.spec.Name, variant)
}

// NewGame starts a game of the variant with the engine in force mode.
func (c *cecpClient) NewGame(ctx context.Context, v *engine.Variant) error {
	if err := c.Offers(v.Name); err != nil {
		c.Kill()
		return err
	}
	c.send("new")
	if name := variants.XBoardName(v.Name); name != "normal" {
		c.send("variant " + name)
	}
	c.send("easy") // no pondering: the referee's clock runs only on the mover
	c.send("post")
	c.send("force")
	c.variant, c.sent, c.started = v, 0, false
	return c.sync(ctx)
}

// sync waits for the engine to have done everything sent (ping/pong),
// when it speaks ping.
func (c *cecpClient) sync(ctx context.Context) error {
	if c.features["ping"] != "1" {
		return nil
	}
	c.send("ping 1")
	if _, _, err := c.waitFor(ctx, "pong", time.Now().Add(handshakeTimeout)); err != nil {
		return fmt.Errorf("engine %s: ping: %w", c.spec.Name, err)
	}
	return nil
}

// Move brings the engine's game up to the turn, sends the clocks and go,
// and waits for its move until the turn's deadline.
func (c *cecpClient) Move(ctx context.Context, t *game.Turn) (string, error) {
	side := t.Position.SideToMove()
	c.send("force")
	if !c.started {
		if t.StartFEN != c.variant.StartFEN {
			if err := c.setUp(t.StartFEN); err != nil {
				c.Kill()
				return "", err
			}
		}
		if cl := t.Clock; cl != nil {
			base, inc := cl.WTime, cl.WInc
			if side == engine.Black {
				base, inc = cl.BTime, cl.BInc
			}
			c.send(fmt.Sprintf("level %d %d:%02d %g", cl.MovesToGo, int(base.Minutes()), int(base.Seconds())%60, inc.Seconds()))
		}
		c.started = true
	}
	for i, m := range t.Moves[min(c.sent, len(t.Moves)):] {
		if c.variant.Chess960 {
			m = frcCastling(c.variant, t.StartFEN, t.Moves[:min(c.sent, len(t.Moves))+i], m)
		}
		m = variants.ToXBoardMove(c.variant.Height, m)
		if c.features["usermove"] == "1" {
			m = "usermove " + m
		}
		c.send(m)
	}
	if cl := t.Clock; cl != nil {
		own, other := cl.WTime, cl.BTime
		if side == engine.Black {
			own, other = other, own
		}
		c.send(fmt.Sprintf("time %d", own.Milliseconds()/10))
		c.send(fmt.Sprintf("otim %d", other.Milliseconds()/10))
	}
	c.send("go")
	line, _, err := c.waitFor(ctx, "move ", t.Deadline, "resign", "Illegal move")
	switch {
	case err != nil:
		if !errors.Is(err, ErrEngineGone) && ctx.Err() == nil {
			c.Kill()
		}
		return "", err
	case !strings.HasPrefix(line, "move "):
		c.Kill() // its game is not ours any more, or it gave up
		return "", fmt.Errorf("engine %s: %s", c.spec.Name, line)
	}
	c.sent = len(t.Moves) + 1 // the engine played its move in its own game
	return cecpMove(t.Position, strings.TrimSpace(strings.TrimPrefix(line, "move "))), nil
}

// frcCastling writes a Chess960 castling move (UCI: the king takes its
// rook) as O-O or O-O-O, the way CECP engines read castling in Fischer
// random chess; other moves stay as they are. The position before the
// move is replayed from the start.
func frcCastling(v *engine.Variant, startFEN string, before []string, move string) string {
	p, err := v.ParseFEN(startFEN)
	if err != nil {
		return move
	}
	for _, u := range before {
		m, err := p.ParseUCI(u)
		if err != nil {
			return move
		}
		p.Make(m)
	}
	m, err := p.ParseUCI(move)
	if err != nil || m.Kind() != engine.Castle {
		return move
	}
	return strings.TrimRight(p.SAN(m), "+#")
}

// cecpMove turns an engine's move into UCI notation. CECP lets an engine
// answer in coordinates or in SAN (many send castling as "O-O" even in
// coordinate mode): coordinates are tried first, then SAN; a move that is
// neither is passed on as it is, for the referee to reject by name.
func cecpMove(p *engine.Position, text string) string {
	uci := variants.FromXBoardMove(p.Variant().Height, text)
	if _, err := p.ParseUCI(uci); err == nil {
		return uci
	}
	if m, err := p.ParseSAN(text); err == nil {
		return p.Variant().UCI(m)
	}
	return uci
}

// setUp gives the engine the game's start position: by setboard when it
// offers it, else by edit mode.
func (c *cecpClient) setUp(fen string) error {
	if c.features["setboard"] == "1" {
		c.send("setboard " + fen)
		return nil
	}
	cmds, err := editCommands(c.variant, fen, c.features["usermove"] == "1")
	if err != nil {
		return fmt.Errorf("engine %s: cannot set up %s: %w", c.spec.Name, fen, err)
	}
	for _, cmd := range cmds {
		c.send(cmd)
	}
	return nil
}

// Quit asks the engine to quit and kills it if it does not.
func (c *cecpClient) Quit() { c.quit("quit") }
