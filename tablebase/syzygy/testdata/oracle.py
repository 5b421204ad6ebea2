#!/usr/bin/env python3
"""Writes oracle.txt: python-chess's Syzygy answers for sampled positions,
the reference the Go reader's differential test (oracle_test.go) compares
with.

For every WDL table in regular/ it samples random legal positions of its
material (either side holding either half, either side to move), and for
materials with pawns on both sides also positions with a legal en-passant
capture, and a few where the side to move mates in one (a DTZ file
storing the other side to move answers those by a search whose mates
count apart). Each line is FEN|WDL|DTZ as python-chess's probe_wdl and
probe_dtz answer. Seeds are fixed (per material), so the file is the same
on every run with the same python-chess.

Run from a python-chess checkout (the file was made with python-chess
1.11.2's chess/syzygy.py; the checkout in /tmp/pychess):

    cd /tmp/pychess && PYTHONPATH=. python3 /work/main/tablebase/syzygy/testdata/oracle.py \
        /work/main/tablebase/syzygy/testdata
"""

import os
import random
import sys

import chess
import chess.syzygy

PER_MATERIAL = 200
EN_PASSANT_PER_MATERIAL = 300
MATE_IN_ONE_PER_MATERIAL = 10
MATE_IN_ONE_TRIES = 2000


def place(rng, board, color, piece_type):
    """Puts a piece on a random empty square (pawns on ranks 2 to 7)."""
    while True:
        square = rng.randrange(64)
        if board.piece_at(square) is not None:
            continue
        if piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            continue
        board.set_piece_at(square, chess.Piece(piece_type, color))
        return


def pieces_of(letters):
    return [chess.Piece.from_symbol(c).piece_type for c in letters]


def random_position(rng, white, black):
    """A random legal position with the given piece types per side."""
    while True:
        board = chess.Board(None)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        for color, types in ((chess.WHITE, white), (chess.BLACK, black)):
            for piece_type in types:
                place(rng, board, color, piece_type)
        if board.is_valid():
            return board


def en_passant_position(rng, white, black):
    """A random legal position where the side to move can capture en
    passant: the other side's pawn has just advanced two squares beside
    one of the mover's pawns."""
    while True:
        board = chess.Board(None)
        mover = rng.choice([chess.WHITE, chess.BLACK])
        board.turn = mover
        file = rng.randrange(8)
        beside = file + rng.choice([-1, 1])
        if not 0 <= beside < 8:
            continue
        # The advanced pawn stands on its fourth rank; the mover's beside it.
        rank = 4 if mover == chess.WHITE else 3
        behind = 1 if mover == chess.WHITE else -1
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not mover))
        board.set_piece_at(chess.square(beside, rank), chess.Piece(chess.PAWN, mover))
        kinds = {chess.WHITE: list(white), chess.BLACK: list(black)}
        kinds[not mover].remove(chess.PAWN)
        kinds[mover].remove(chess.PAWN)
        # The squares the pawn passed must be empty.
        passed = [chess.square(file, rank + behind), chess.square(file, rank + 2 * behind)]
        for square in passed:
            board.set_piece_at(square, chess.Piece(chess.KING, chess.WHITE))
        for color in (chess.WHITE, chess.BLACK):
            for piece_type in kinds[color]:
                place(rng, board, color, piece_type)
        for square in passed:
            board.remove_piece_at(square)
        board.ep_square = passed[0]
        if board.is_valid() and board.has_legal_en_passant():
            return board


def mates_in_one(board):
    """Whether the side to move has a move that checkmates."""
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def main():
    testdata = sys.argv[1]
    tables = os.path.join(testdata, "regular")
    names = sorted(f[:-5] for f in os.listdir(tables) if f.endswith(".rtbw"))
    lines = [
        "# python-chess's Syzygy answers: FEN|WDL|DTZ (made by oracle.py)",
    ]
    with chess.syzygy.open_tablebase(tables) as tb:
        for name in names:
            strong, weak = name.split("v")
            rng = random.Random("syzygy-oracle-" + name)
            boards = []
            for _ in range(PER_MATERIAL):
                white, black = pieces_of(strong), pieces_of(weak)
                if rng.random() < 0.5:
                    white, black = black, white
                boards.append(random_position(rng, white, black))
            if "P" in strong and "P" in weak:
                for _ in range(EN_PASSANT_PER_MATERIAL):
                    white, black = pieces_of(strong), pieces_of(weak)
                    if rng.random() < 0.5:
                        white, black = black, white
                    boards.append(en_passant_position(rng, white, black))
            mates = 0
            for _ in range(MATE_IN_ONE_TRIES):
                if mates == MATE_IN_ONE_PER_MATERIAL:
                    break
                white, black = pieces_of(strong), pieces_of(weak)
                if rng.random() < 0.5:
                    white, black = black, white
                board = random_position(rng, white, black)
                if mates_in_one(board):
                    boards.append(board)
                    mates += 1
            for board in boards:
                wdl = tb.probe_wdl(board)
                dtz = tb.probe_dtz(board)
                lines.append(f"{board.fen()}|{wdl}|{dtz}")
    with open(os.path.join(testdata, "oracle.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
