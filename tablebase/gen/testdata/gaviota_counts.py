# Enumerates every placement of an ending and reads its value from the
# Gaviota tables (python-chess's pure-Python prober): counts in the
# format of tablebase/gen/testdata/counts.csv and histograms.csv.
import sys, itertools, collections
sys.path.insert(0, "/tmp/pychess")
import chess, chess.gaviota
tb = chess.gaviota.open_tablebase("/tmp/gtb")
name = sys.argv[1]            # e.g. KPK, KQKP
i = name.rindex("K")
white, black = name[:i], name[i:]
pieces = [(chess.Piece.from_symbol(c), True) for c in white] + [(chess.Piece.from_symbol(c.lower()), False) for c in black]
types = [p for p, _ in pieces]
n = len(types)
same = [(a, c) for a in range(n) for c in range(a+1, n) if types[a] == types[c]]
out_counts = open(f"/tmp/gref/{name}.counts.csv", "w")
out_hist = open(f"/tmp/gref/{name}.hist.csv", "w")
b = chess.Board(None)
for stm in (True, False):
    legal = win = draw = loss = mated = stale = 0
    wins = collections.Counter(); losses = collections.Counter()
    for sq in itertools.product(range(64), repeat=n):
        if len(set(sq)) < n: continue
        if any(sq[a] >= sq[c] for a, c in same): continue
        if any(t.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7) for t, s in zip(types, sq)): continue
        b.clear_board()
        for t, s in zip(types, sq): b.set_piece_at(s, t)
        b.turn = stm
        if b.is_attacked_by(stm, b.king(not stm)): continue
        legal += 1
        d = tb.probe_dtm(b)
        if d > 0: win += 1; wins[d] += 1
        elif d < 0: loss += 1; losses[-d] += 1
        elif b.is_checkmate(): loss += 1; losses[0] += 1; mated += 1
        else:
            draw += 1
            if b.is_stalemate(): stale += 1
    s = "w" if stm else "b"
    mw = max(wins) if wins else None; ml = max(losses) if losses else None
    f = lambda x: "" if x is None else str(x)
    out_counts.write(",".join([name, s, "all", str(legal), str(win), str(draw), str(loss), str(mated), str(stale), "", "",
        f(mw), f(None if mw is None else (mw+1)//2), f(wins.get(mw)), f(ml), f(None if ml is None else ml//2), f(losses.get(ml))]) + "\n")
    for d in sorted(wins): out_hist.write(f"{name},{s},all,win,{(d+1)//2},{d},{wins[d]}\n")
    for d in sorted(losses): out_hist.write(f"{name},{s},all,loss,{d//2},{d},{losses[d]}\n")
    out_hist.write(f"{name},{s},all,draw,,,{draw}\n")
    out_counts.flush(); out_hist.flush()
    print(name, s, legal, win, draw, loss, mw, ml, flush=True)
