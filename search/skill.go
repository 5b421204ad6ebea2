package search

import (
	"math"
	"math/rand/v2"

	"github.com/chimera-chess/chimera/engine"
)

// Skill weakens a search to a player's level (Skill Level, UCI_Elo): the
// search keeps at least four lines (MultiPV) and, once it has finished
// the iteration of depth 1 + level, chooses among them at random, each
// line's chance falling with how much worse than the best it scores
// (a Boltzmann choice whose temperature falls as the level rises). The
// search then goes on as usual, so that the time a move takes looks like
// a player's, but the move played is the one chosen. A fractional level
// is rounded up or down at random, in proportion, so that levels between
// whole ones play between them.
type Skill struct {
	// Level is from 0, the weakest, to MaxSkill, full strength (no
	// weakening).
	Level float64
	// Seed makes the choice (and the rounding) reproducible; a session
	// gives each search its own.
	Seed uint64
}

// MaxSkill is the level that plays at full strength.
const MaxSkill = 20

// skillLines is the fewest lines a weakened search keeps to choose from.
const skillLines = 4

// skillChooser is one weakened search's choice: its level (rounded) and
// what it chose.
type skillChooser struct {
	level  int
	rng    *rand.Rand
	chosen *Info // the line chosen; nil until then
}

// newSkillChooser returns the chooser of a search with skill sk, or nil
// at full strength.
func newSkillChooser(sk *Skill) *skillChooser {
	if sk == nil || sk.Level >= MaxSkill {
		return nil
	}
	rng := rand.New(rand.NewPCG(sk.Seed, 0x5c111))
	level := math.Floor(max(sk.Level, 0))
	if rng.Float64() < max(sk.Level, 0)-level {
		level++
	}
	return &skillChooser{level: int(level), rng: rng}
}

// temperature is the choice's spread in centipawns: a pawn and a quarter
// at level 0, an eighth of one at level 19. A line a pawn worse than the
// best is then played about half as often as the best at level 0, and
// almost never near the top, where the depth of the choice does most of
// the weakening.
func (c *skillChooser) temperature() float64 { return 6 + 6*float64(MaxSkill-c.level) }

// depth is the iteration after which the choice is made.
func (c *skillChooser) depth() int { return 1 + c.level }

// choose picks one of a completed iteration's lines (best first).
func (c *skillChooser) choose(lines []Info) {
	if len(lines) == 0 {
		return
	}
	// Mate scores are clamped: a mate is better than any other line,
	// not thousands of times better.
	clamp := func(s Score) float64 { return float64(max(min(s, 3000), -3000)) }
	top, t := clamp(lines[0].Score), c.temperature()
	weights := make([]float64, len(lines))
	sum := 0.0
	for i, l := range lines {
		weights[i] = math.Exp((clamp(l.Score) - top) / t)
		sum += weights[i]
	}
	x := c.rng.Float64() * sum
	for i := range lines {
		if x -= weights[i]; x <= 0 || i == len(lines)-1 {
			chosen := lines[i]
			c.chosen = &chosen
			return
		}
	}
}

// result returns res with the chosen line's move, reply and score.
func (c *skillChooser) result(res Result) Result {
	if c.chosen == nil || len(c.chosen.PV) == 0 {
		return res
	}
	res.Best, res.Ponder, res.Score = c.chosen.PV[0], engine.NoMove, c.chosen.Score
	if len(c.chosen.PV) > 1 {
		res.Ponder = c.chosen.PV[1]
	}
	return res
}
