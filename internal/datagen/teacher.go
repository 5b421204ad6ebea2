package datagen

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/match"
)

// Teacher is an external UCI engine that labels the kept positions in
// place of the games' own searches: a stronger engine's score is a better
// target (Fairy-Stockfish for its variants, Stockfish for chess).
type Teacher struct {
	// Command starts the engine: the program and its arguments.
	Command []string
	// Depth each position is searched to.
	Depth int
	// Options are set after the handshake (Threads, Hash, …).
	Options map[string]string
	// Plays: the teacher also chooses every move, its search replacing
	// the game's own, so a ply costs one search instead of two. The games
	// are then as repeatable as the teacher is (one thread, a fresh hash
	// each game: Stockfish's are).
	Plays bool
}

// teacher is one worker's running teacher engine.
type teacher struct {
	spec   *Teacher
	client *match.Client
}

// startTeacher starts the engine and checks that it plays the variant.
func startTeacher(ctx context.Context, spec *Teacher, v *engine.Variant) (*teacher, error) {
	c, err := match.StartUCI(ctx, match.EngineSpec{Name: "teacher", Command: spec.Command, Options: spec.Options})
	if err != nil {
		return nil, err
	}
	if err := c.NewGame(ctx, v); err != nil {
		return nil, err // NewGame checks that it offers the variant
	}
	return &teacher{spec: spec, client: c}, nil
}

// label searches the position (a UCI position command) to the teacher's
// depth and returns its score in centipawns for the side to move, or ok
// false where it found a mate (no centipawn target) or gave no score.
func (t *teacher) label(ctx context.Context, position string) (score int, ok bool, err error) {
	_, s, err := t.search(ctx, position)
	return s.centipawns, s.kind == centipawns, err
}

// search searches the position (a UCI position command) to the teacher's
// depth and returns the move it chose and its score.
func (t *teacher) search(ctx context.Context, position string) (string, teacherScore, error) {
	move, info, err := t.client.Go(ctx, position, "depth "+strconv.Itoa(t.spec.Depth), time.Time{})
	if err != nil {
		return "", teacherScore{}, fmt.Errorf("teacher: %w", err)
	}
	return move, parseScore(info), nil
}

// close ends the teacher's process.
func (t *teacher) close() { t.client.Quit() }

// scoreKind tells what a teacher's score is.
type scoreKind uint8

const (
	noScore    scoreKind = iota // none, or only a bound
	centipawns                  // "score cp N": a label
	mateScore                   // "score mate N": no centipawn target
)

// teacherScore is the score of a teacher's search, for the side to move.
type teacherScore struct {
	kind scoreKind
	// centipawns is the score when kind is centipawns.
	centipawns int
	// mating, when kind is mateScore, says whether the side to move mates.
	mating bool
}

// parseScore reads "score cp N" or "score mate N" from a UCI info line; a
// bound or no score at all is noScore.
func parseScore(info string) teacherScore {
	f := strings.Fields(info)
	for i := 0; i+2 < len(f); i++ {
		if f[i] != "score" {
			continue
		}
		if i+3 < len(f) && (f[i+3] == "lowerbound" || f[i+3] == "upperbound") {
			return teacherScore{}
		}
		n, err := strconv.Atoi(f[i+2])
		switch {
		case err != nil:
			return teacherScore{}
		case f[i+1] == "cp":
			return teacherScore{kind: centipawns, centipawns: n}
		case f[i+1] == "mate":
			return teacherScore{kind: mateScore, mating: n > 0}
		}
		return teacherScore{}
	}
	return teacherScore{}
}

// errNoTeacherScore explains a teacher that never gives a score.
var errNoTeacherScore = errors.New("the teacher gave no centipawn score for many positions in a row: does it search to the depth asked?")

// maxUnscored is how many positions in a row the teacher may leave
// unscored (mates found) before the run stops with errNoTeacherScore.
const maxUnscored = 200
