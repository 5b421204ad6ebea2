// Package engine is Chimera's rules core: board geometry up to 16×16,
// pieces defined by movement atoms (leapers, riders, hoppers and their
// modifiers), positions with exact Make/Unmake and incremental Zobrist keys,
// legal move generation, attack detection, game results, FEN, SAN and perft.
//
// The package knows no particular variant. A Variant is built once from a
// Rules description (see NewVariant); building it validates the rules and
// precomputes per-square move and attack tables so that the hot loops never
// test board edges. Positions then execute whatever the variant describes.
package engine
