// Package syzygy reads Syzygy endgame tables of regular chess (WDL files,
// .rtbw, and DTZ files, .rtbz, of up to seven pieces) in pure Go and
// probes them with Chimera's rules core: Open finds a directory's tables,
// ProbeWDL answers a position's win, draw or loss under the fifty-move
// rule (cursed wins and blessed losses apart) and ProbeDTZ its distance
// to zeroing, both as python-chess's prober reports them.
//
// The package has two layers, each in files of its own. The raw lookup
// turns the pieces of a position into a table's index and decompresses
// the entry; it knows the file format and nothing of moves: material.go
// (table names), geometry.go (the index's fixed numberings),
// encoding.go (a part's piece order and the index of a placement),
// stream.go (the compressed entries: symbol pairs, the prefix code, the
// sparse index and block lengths), layout.go (a whole file parsed and
// checked, DTZ maps included) and lookup.go (a position's entry). The
// probing adds what a table does not hold, with the rules core's moves:
// board.go (a position as the tables see it), probewdl.go (captures,
// whose entries the tables may leave as "don't care", and en passant,
// which the tables assume impossible) and probedtz.go (the same for
// DTZ, and the side to move a DTZ file does not store, by one ply of
// search). tables.go finds and opens the files (mmap_unix.go maps
// them), wdl.go and errors.go are the values and errors probes return.
//
// Files are memory-mapped (read whole where mapping fails) at the first
// probe that needs them, once, and checked before any value is read: a
// damaged file is refused with an error naming it (ErrCorrupt), and a
// missing table is ErrMissing, never a value. Positions with castling
// rights are not in the tables (ErrCastling).
package syzygy
