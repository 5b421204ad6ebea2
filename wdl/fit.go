package wdl

import (
	"errors"
	"math"
)

// Sample is one position of a game: its search score (centipawns, side
// to move), the material left and the game's result for the side to move
// (1 won, 0 drawn, −1 lost).
type Sample struct {
	Score    int
	Material float64
	Result   int8
}

// FitOptions bound a fit.
type FitOptions struct {
	// Steps of Adam over every sample (default 2000).
	Steps int
}

// minChance keeps a logarithm finite for a result the model rules out.
const minChance = 1e-9

// Fit returns the model under which the samples' results are likeliest
// (maximum likelihood, Adam over the six coefficients, every sample each
// step: the data are a few hundred thousand positions at most, and the
// fit is made once per variant). Samples without a decided score (beyond
// maxScore) teach nothing about the curve's middle and are left out.
func Fit(samples []Sample, opt FitOptions) (Model, error) {
	kept := make([]Sample, 0, len(samples))
	outcomes := [3]int{}
	for _, s := range samples {
		if s.Score > -maxScore && s.Score < maxScore && s.Result >= -1 && s.Result <= 1 {
			kept = append(kept, s)
			outcomes[s.Result+1]++
		}
	}
	if outcomes[0] == 0 || outcomes[2] == 0 {
		return Model{}, errors.New("wdl: a fit needs won and lost games")
	}
	steps := opt.Steps
	if steps <= 0 {
		steps = 2000
	}
	// Coefficients as one vector: A then B. Start from a plain curve: even
	// at +150, a win five times likelier than a loss by +400 or so.
	theta := [6]float64{150, 0, 0, 100, 0, 0}
	var mom, vel [6]float64
	const rate, beta1, beta2, eps = 2.0, 0.9, 0.999, 1e-8
	for step := 1; step <= steps; step++ {
		grad := gradient(kept, theta)
		for i := range theta {
			mom[i] = beta1*mom[i] + (1-beta1)*grad[i]
			vel[i] = beta2*vel[i] + (1-beta2)*grad[i]*grad[i]
			mHat := mom[i] / (1 - math.Pow(beta1, float64(step)))
			vHat := vel[i] / (1 - math.Pow(beta2, float64(step)))
			theta[i] += rate * mHat / (math.Sqrt(vHat) + eps) // ascent: likelihood
		}
	}
	return Model{A: [3]float64{theta[0], theta[1], theta[2]}, B: [3]float64{theta[3], theta[4], theta[5]}}, nil
}

// gradient returns the mean log-likelihood's gradient at theta.
func gradient(samples []Sample, theta [6]float64) [6]float64 {
	md := Model{A: [3]float64{theta[0], theta[1], theta[2]}, B: [3]float64{theta[3], theta[4], theta[5]}}
	var g [6]float64
	for _, s := range samples {
		x, m := float64(s.Score), max(min(s.Material, maxMaterial), 0) // as at() sees it
		a, b := md.at(m)
		u, v := (x-a)/b, (-x-a)/b
		w, l := sigmoid(u), sigmoid(v)
		// Derivatives of the win and loss chances by a and by b.
		dwda, dwdb := -w*(1-w)/b, -w*(1-w)*u/b
		dlda, dldb := -l*(1-l)/b, -l*(1-l)*v/b
		var p, dpda, dpdb float64
		switch s.Result {
		case 1:
			p, dpda, dpdb = w, dwda, dwdb
		case -1:
			p, dpda, dpdb = l, dlda, dldb
		default:
			p, dpda, dpdb = 1-w-l, -dwda-dlda, -dwdb-dldb
		}
		p = max(p, minChance)
		pow := [3]float64{1, m, m * m}
		for k := range 3 {
			if a > 0 { // at() holds a at zero: no slope below it
				g[k] += dpda / p * pow[k]
			}
			if b > minSpread {
				g[3+k] += dpdb / p * pow[k]
			}
		}
	}
	for i := range g {
		g[i] /= float64(len(samples))
	}
	return g
}
