// Package game plays and records whole games: game records with PGN output,
// time controls and clocks, and self-play between configurations of the
// engine. It holds no chess rules of its own: the rules core decides every
// move's legality and every result.
package game
