package session

import (
	"github.com/chimera-chess/chimera/search"
)

// Playing strength: Skill Level (0 to 20) weakens the search directly
// (search.Skill); UCI_LimitStrength with UCI_Elo asks for a rating on
// Fairy-Stockfish 11.1's UCI_Elo scale (1350 to 2850, anchored by
// Stockfish's authors to CCRL ratings at 60+0.6), which a calibration
// turns into a skill level. The calibration was measured in chess, the
// engine at each point playing Fairy-Stockfish 11.1 set to the same
// UCI_Elo (docs/strength.md, "Strength limits"); other variants use
// chess's, and the docs say how far that holds. A limited engine plays
// the strongest evaluation the variant has (a network, else tuned
// weights, else the documents' formula), whatever Evaluation says, so
// that a rating means the same in every setting.

// Elo range of UCI_Elo, Fairy-Stockfish 11.1's and Stockfish 15.1's.
const (
	MinElo = 1350
	MaxElo = 2850
)

// eloPoint is one point of the calibration: the skill level that plays
// at a rating.
type eloPoint struct {
	elo   int
	level float64
}

// chessCalibration maps UCI_Elo to skill levels, rising; between points
// the level is interpolated linearly. The three inner points are levels
// that scored 50% ± 10% against Fairy-Stockfish 11.1 at the same UCI_Elo
// in 60 games at 10+0.1 (1500: 44.2%, 2100: 52.5%, 2700: 48.3%;
// docs/strength.md, "Strength limits"); the ends are extrapolated.
var chessCalibration = []eloPoint{{MinElo, 0}, {1500, 1.5}, {2100, 15.1}, {2700, 16.3}, {MaxElo, 17.3}}

// levelForElo returns the skill level that plays at rating elo.
func levelForElo(elo int) float64 {
	points := chessCalibration
	if elo <= points[0].elo {
		return points[0].level
	}
	for i := 1; i < len(points); i++ {
		if elo <= points[i].elo {
			a, b := points[i-1], points[i]
			return a.level + (b.level-a.level)*float64(elo-a.elo)/float64(b.elo-a.elo)
		}
	}
	return points[len(points)-1].level
}

// skill returns the weakening a search gets from the options (nil: full
// strength), with its own seed.
func (s *Session) skill() *search.Skill {
	level := float64(s.values.skillLevel)
	if s.values.limitStrength {
		level = levelForElo(s.values.elo)
	}
	if level >= search.MaxSkill {
		return nil
	}
	return &search.Skill{Level: level, Seed: s.rng.Uint64()}
}
