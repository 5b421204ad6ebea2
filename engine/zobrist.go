package engine

import (
	"math/bits"
	"sync"
)

// zobristKeys are the random numbers whose XOR identifies a position. They
// come from a fixed seed so that keys, and with them search node counts, are
// the same in every run.
type zobristKeys struct {
	piece    [64][NumSquares]uint64 // by piece code and square
	castling [256]uint64            // by castling-rights mask
	ep       [NumSquares]uint64     // by en-passant square
	black    uint64                 // side to move is Black
	checks   [2][MaxCheckCount + 1]uint64
	// hand[pc][n]: n pieces pc in hand (n taken modulo handKeys; zero for
	// none, so positions without hands need no hand key).
	hand     [64][handKeys]uint64
	promoted [NumSquares]uint64 // a promoted piece on the square (see promotedKey)
	gate     [32]uint64         // a gate right, by bit (Variant.gateBit)
}

// promotedKey is the key of a promoted piece on s that was of type t: the
// square's key turned by the type, so a tokin that was a pawn and one
// that was a silver differ.
func (z *zobristKeys) promotedKey(s Square, t uint8) uint64 {
	return bits.RotateLeft64(z.promoted[s], int(t))
}

// handKeys is how many hand counts have keys of their own.
const handKeys = 128

// MaxCheckCount is the largest number of checks a check-counting variant
// may ask for.
const MaxCheckCount = 15

// splitMix64 is a small, well-mixed generator (Vigna's SplitMix64).
type splitMix64 uint64

func (s *splitMix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newZobristKeys returns the keys, the same for every variant: drawn once
// a process (a fifth of a megabyte of random numbers, which every variant
// built drew again) and copied.
func newZobristKeys() zobristKeys { return *drawnZobristKeys() }

// drawnZobristKeys draws the keys, on first use.
var drawnZobristKeys = sync.OnceValue(func() *zobristKeys {
	z := new(zobristKeys)
	rng := splitMix64(0x43484d4552410001) // "CHIMERA" and a version
	for p := range z.piece {
		for s := range z.piece[p] {
			z.piece[p][s] = rng.next()
		}
	}
	// The empty rights mask hashes to zero so that variants without castling
	// need no castling key at all.
	for i := 1; i < len(z.castling); i++ {
		z.castling[i] = rng.next()
	}
	for i := range z.ep {
		z.ep[i] = rng.next()
	}
	z.black = rng.next()
	for c := range z.checks {
		for n := range z.checks[c] {
			z.checks[c][n] = rng.next()
		}
	}
	// Drawn last, so the keys above (and the search's node counts in
	// variants without hands) stay what they were.
	for pc := range z.hand {
		for n := 1; n < handKeys; n++ {
			z.hand[pc][n] = rng.next()
		}
	}
	for s := range z.promoted {
		z.promoted[s] = rng.next()
	}
	for b := range z.gate {
		z.gate[b] = rng.next()
	}
	return z
})
