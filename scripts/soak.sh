#!/usr/bin/env bash
# Time-forfeit soak: plays Chimera against itself at a fast time control
# while every core is kept busy by other work (busy loops at normal
# priority), and prints the match table, whose last column counts time
# forfeits. The engines run with default options (tables build in the
# background).
# Usage: scripts/soak.sh [TC] [GAMES] [HOGS]   (default 1+0.01, 200 games,
# one busy loop per core); PGN=FILE keeps the games.
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${1:-1+0.01}
games=${2:-200}
hogs=${3:-$(nproc)}
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/chimera" ./cmd/chimera
for _ in $(seq "$hogs"); do
	(while :; do :; done) &
	pids+=($!)
done
"$work/chimera" match --engine a=self --engine b=self --games "$games" --tc "$tc" \
	--option a=TablebaseDir="$work/tables-a" --option b=TablebaseDir="$work/tables-b" \
	--pgn "${PGN:-$work/games.pgn}" 2>&1 | tr '\r' '\n' | tail -4
