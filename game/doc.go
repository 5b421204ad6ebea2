// Package game holds what every game between players shares: the record
// (moves, result, typed termination, PGN), time controls and clocks, and
// the one referee loop that asks two Players for moves, keeps their
// clocks, checks every move with the rules core and ends the game by the
// variant's rules, a fallen flag, an illegal move, a crash, the move limit
// or an adjudicator. It knows no particular player: searchers, engine
// processes and tablebases implement Player in their own packages.
package game
