package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test between two Elo hypotheses
// (logistic Elo, as cutechess-cli states them): H0 "the first engine is
// elo0 stronger" against H1 "it is elo1 stronger". A match with one stops
// as soon as the log-likelihood ratio leaves its bounds.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "elo0=0,elo1=10,alpha=0.05,beta=0.05" (any order; alpha
// and beta default to 0.05).
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return t, fmt.Errorf("sprt: %q: want key=value", kv)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return t, fmt.Errorf("sprt: %s=%q is not a number", k, v)
		}
		switch k {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return t, fmt.Errorf("sprt: unknown key %q (want elo0, elo1, alpha, beta)", k)
		}
		seen[k] = true
	}
	if !seen["elo0"] || !seen["elo1"] {
		return t, fmt.Errorf("sprt: %q: elo0 and elo1 are required", s)
	}
	if t.Elo1 <= t.Elo0 {
		return t, fmt.Errorf("sprt: elo1 (%g) must be above elo0 (%g)", t.Elo1, t.Elo0)
	}
	if t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5 {
		return t, fmt.Errorf("sprt: alpha and beta must lie between 0 and 0.5")
	}
	if math.Abs(t.Elo0) > 1000 || math.Abs(t.Elo1) > 1000 {
		return t, fmt.Errorf("sprt: Elo bounds beyond ±1000 mean nothing")
	}
	return t, nil
}

// String formats the test as ParseSPRT reads it.
func (t SPRT) String() string {
	return fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g", t.Elo0, t.Elo1, t.Alpha, t.Beta)
}

// Bounds returns the log-likelihood ratios at which H0 (lower) and H1
// (upper) are accepted.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the log-likelihood ratio of the results so far, by the
// generalised SPRT's normal approximation (Van den Bergh's, as fishtest
// uses): for n samples of mean score m and variance v, with s0 and s1 the
// scores the hypotheses expect, LLR = n·(s1−s0)·(2m−s0−s1)/(2v). A sample
// is a game pair with colours reversed (pentanomial: pair scores 0, ¼, ½,
// ¾, 1) when the match plays pairs, else one game (trinomial). Pairs cancel
// most of an opening's bias, so their variance is smaller and the test ends
// sooner.
func (t SPRT) LLR(freq Frequencies) float64 {
	n, mean, variance := freq.moments()
	if n == 0 {
		return 0
	}
	s0, s1 := expectedScore(t.Elo0), expectedScore(t.Elo1)
	return n * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// Decide returns "H1" or "H0" once the LLR crosses a bound, else "".
func (t SPRT) Decide(freq Frequencies) string {
	lower, upper := t.Bounds()
	switch llr := t.LLR(freq); {
	case llr >= upper:
		return "H1"
	case llr <= lower:
		return "H0"
	}
	return ""
}

// expectedScore is the logistic Elo model's score for an Elo advantage.
func expectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Frequencies counts samples by score: for pairs, index k holds pairs that
// scored k/2 points (0…2, k = 0…4); for single games, index 0, 2 and 4 hold
// losses, draws and wins.
type Frequencies [5]int

// pseudoCount is added to both extreme outcomes before the moments are
// taken: without it, samples all alike (ten pairs won 2–0) have no
// variance and the test could never decide; with it they decide soon,
// as they should, and many samples are all but unchanged.
const pseudoCount = 0.25

// moments returns the number of samples, the mean score and its variance,
// scores scaled to 0…1.
func (f Frequencies) moments() (n, mean, variance float64) {
	if f == (Frequencies{}) {
		return 0, 0, 0
	}
	var c [5]float64
	for k := range f {
		c[k] = float64(f[k])
	}
	c[0] += pseudoCount
	c[4] += pseudoCount
	for k := range c {
		n += c[k]
		mean += c[k] * float64(k) / 4
	}
	mean /= n
	for k := range c {
		d := float64(k)/4 - mean
		variance += c[k] * d * d
	}
	return n, mean, variance / n
}
