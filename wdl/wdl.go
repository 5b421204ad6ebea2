// Package wdl turns a search's score into the chances of a win, a draw
// and a loss, as UCI's "wdl W D L" reports them (per mille, for the side
// to move): a win-rate model fitted to a variant's own games.
//
// The model is Stockfish's shape, fitted here per variant: the side to
// move wins with probability σ((x − a)/b) and loses with σ((−x − a)/b),
// x being the score in centipawns, and draws otherwise. a is the score at
// which a win is as likely as not, b how quickly the chance grows about
// it; both depend on the material left (m, the share of the start
// position's pieces still in play), as quadratics, because a pawn is
// worth more of a win with few pieces left than with all of them.
// Stockfish fits a and b against the game's ply; the material left says
// more across variants, whose games last very differently.
package wdl

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Model is a variant's win-rate model: a(m) = A[0] + A[1]·m + A[2]·m²
// and b(m) = B[0] + B[1]·m + B[2]·m², in centipawns.
type Model struct {
	A, B [3]float64
}

// maxScore bounds the scores the model is asked about: beyond it a
// result is as good as decided (mates are reported apart).
const maxScore = 4000

// minSpread keeps b positive whatever a fit gives at an unusual material.
const minSpread = 1

// a is kept at zero or above: below zero a win and a loss would both be
// likelier than not at an even score, their chances summing past one. A
// variant whose games are never drawn (janggi counts its material at the
// move limit) fits a = 0: a plain logistic curve with no room for draws.

// maxMaterial bounds the material a model is asked about: its
// quadratics are fitted from 0 to about 1 (a game's start), and drop
// games, whose pieces never leave play, stay near 1.
const maxMaterial = 1.25

// at returns a and b at material m.
func (md Model) at(m float64) (a, b float64) {
	m = max(min(m, maxMaterial), 0)
	a = max(md.A[0]+md.A[1]*m+md.A[2]*m*m, 0)
	b = max(md.B[0]+md.B[1]*m+md.B[2]*m*m, minSpread)
	return a, b
}

// Chances returns the side to move's chances, summing to one, of a win,
// a draw and a loss at score cp (centipawns) with material m left.
func (md Model) Chances(cp int, m float64) (win, draw, loss float64) {
	x := float64(max(min(cp, maxScore), -maxScore))
	a, b := md.at(m)
	win, loss = sigmoid((x-a)/b), sigmoid((-x-a)/b)
	return win, 1 - win - loss, loss
}

// PerMille returns the chances as UCI reports them: whole per mille that
// sum to exactly 1000.
func (md Model) PerMille(cp int, m float64) (win, draw, loss int) {
	w, _, l := md.Chances(cp, m)
	win, loss = int(math.Round(1000*w)), int(math.Round(1000*l))
	return win, 1000 - win - loss, loss
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// String writes the model as its file holds it: "a A0 A1 A2" and
// "b B0 B1 B2" lines.
func (md Model) String() string {
	return fmt.Sprintf("a %.4f %.4f %.4f\nb %.4f %.4f %.4f\n", md.A[0], md.A[1], md.A[2], md.B[0], md.B[1], md.B[2])
}

// Parse reads a model written by String. Lines starting with # are
// comments (how the model was made).
func Parse(text string) (Model, error) {
	var md Model
	seen := map[string]bool{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 || (f[0] != "a" && f[0] != "b") {
			return Model{}, fmt.Errorf("wdl: line %d: want \"a|b C0 C1 C2\", got %q", n+1, line)
		}
		dst := &md.A
		if f[0] == "b" {
			dst = &md.B
		}
		for i := range 3 {
			c, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil || math.IsNaN(c) || math.IsInf(c, 0) {
				return Model{}, fmt.Errorf("wdl: line %d: %q is not a number", n+1, f[i+1])
			}
			dst[i] = c
		}
		seen[f[0]] = true
	}
	if !seen["a"] || !seen["b"] {
		return Model{}, errors.New("wdl: a model needs both an a and a b line")
	}
	return md, nil
}
