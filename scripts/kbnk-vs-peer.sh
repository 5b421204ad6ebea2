#!/usr/bin/env bash
# Plays KBN vs K starts (scripts/kbnk-starts.epd: two with White, two with
# Black attacking; each played twice, once with each engine attacking)
# against Debian's fairy-stockfish from an empty table directory, and
# prints, for every game, the attacker and how many moves the mate took
# against the optimal distance (chimera tb probe).
# Usage: scripts/kbnk-vs-peer.sh [TC]      (default 20+0.2)
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${1:-20+0.2}
peer=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
[ -x "$peer" ] || { echo "needs fairy-stockfish (apt-get install fairy-stockfish)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/chimera" ./cmd/chimera
mkdir "$work/tables" "$work/judge"
"$work/chimera" match --engine chimera=self --engine fsf="$peer" --games 8 --tc "$tc" \
	--openings scripts/kbnk-starts.epd --pgn "$work/games.pgn" --option chimera=TablebaseDir="$work/tables"
awk -v chimera="$work/chimera" -v judge="$work/judge" '
	/^\[FEN /   { fen = substr($0, 7, length($0) - 8) }
	/^\[White / { white = substr($0, 9, length($0) - 10) }
	/^\[Black / { black = substr($0, 9, length($0) - 10) }
	/^\[Termination / { term = substr($0, 15, length($0) - 16) }
	!/^\[/ && NF > 0 {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9]+\./) { n = $i; sub(/\..*/, "", n) }
			if ($i ~ /#$/) mate = n
		}
	}
	/^$/ && fen != "" && body++ % 2 == 1 {
		split(fen, f, " ")
		attacker = (f[2] == "w") ? white : black
		cmd = chimera " tb probe --json --dir " judge " --fen \"" fen "\""
		cmd | getline line; close(cmd)
		match(line, /"dtm":[0-9]+/); dtm = substr(line, RSTART + 6, RLENGTH - 6)
		printf "%-8s attacks: %-22s %s moves (optimal %d)\n", attacker, term, (mate == "" ? "-" : mate), (dtm + 1) / 2
		fen = ""; mate = ""
	}
' "$work/games.pgn"
