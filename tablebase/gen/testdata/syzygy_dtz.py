# Reads distances to zeroing from Syzygy's tables with python-chess's
# pure-Python prober, for tablebase/syzygy_test.go. Two modes:
#
#   python3 syzygy_dtz.py hist KPvK     every legal placement (as
#       gaviota_counts.py enumerates them), counted per side to move, WDL50
#       and DTZ: rows of testdata/syzygy/histograms.csv;
#   python3 syzygy_dtz.py sample KBNvK N SEED   N random legal positions
#       (no en passant): lines of testdata/syzygy/sample.txt,
#       FEN;WDL50;DTZ.
#
# WDL50 is Syzygy's: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2
# loss; DTZ is probe_dtz's, in plies (-1 for a checkmated position; the
# tables may round by one ply where it changes no outcome). The table
# files are the copies python-chess keeps as test assets (repository
# niklasf/python-chess, data/syzygy/regular); both paths are below.
import sys, itertools, collections, random
sys.path.insert(0, "/tmp/pychess")
import chess, chess.syzygy
tb = chess.syzygy.open_tablebase("/tmp/pychess/data/syzygy/regular")
mode, name = sys.argv[1], sys.argv[2]
white, black = name.split("v")
pieces = [chess.Piece.from_symbol(c) for c in white] + [chess.Piece.from_symbol(c.lower()) for c in black]
n = len(pieces)
same = [(a, c) for a in range(n) for c in range(a+1, n) if pieces[a] == pieces[c]]

def legal(sq, stm, b):
    if len(set(sq)) < n: return False
    if any(t.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7) for t, s in zip(pieces, sq)): return False
    b.clear_board()
    for t, s in zip(pieces, sq): b.set_piece_at(s, t)
    b.turn = stm
    return not b.is_attacked_by(stm, b.king(not stm))

b = chess.Board(None)
if mode == "hist":
    for stm in (True, False):
        counts = collections.Counter()
        for sq in itertools.product(range(64), repeat=n):
            if any(sq[a] >= sq[c] for a, c in same): continue
            if not legal(sq, stm, b): continue
            counts[(tb.probe_wdl(b), tb.probe_dtz(b))] += 1
        for (wdl, dtz) in sorted(counts):
            print(f"{name},{'w' if stm else 'b'},{wdl},{dtz},{counts[(wdl, dtz)]}", flush=True)
else:
    want, rng = int(sys.argv[3]), random.Random(int(sys.argv[4]))
    got = 0
    while got < want:
        sq = [rng.randrange(64) for _ in range(n)]
        stm = rng.random() < 0.5
        if not legal(sq, stm, b): continue
        print(f"{b.fen()};{tb.probe_wdl(b)};{tb.probe_dtz(b)}", flush=True)
        got += 1
