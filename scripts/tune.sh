#!/bin/sh
# tune.sh OUT VARIANT...: the shipped weights' recipe. For each variant,
# two rounds of chimera tune (the first from the documents' formula and
# its games, the second from the first round's weights and games played
# with them), then a match of the tuned evaluation against the documents'
# formula; everything in OUT/VARIANT-*.
#
#   CHIMERA    the engine (default ./chimera)
#   POSITIONS  positions a round (default 360000)
#   NODES      nodes a move in the games (default 800)
#   GAMES, TC  the match (default 100 games at 2+0.02)
#
# Copy OUT/VARIANT-r2.txt to eval/weights/VARIANT.txt to ship it.
set -eu
OUT=${1:?usage: tune.sh OUT VARIANT...}
shift
CHIMERA=${CHIMERA:-./chimera}
POSITIONS=${POSITIONS:-360000}
NODES=${NODES:-800}
GAMES=${GAMES:-100}
TC=${TC:-2+0.02}
mkdir -p "$OUT"
for v in "$@"; do
	"$CHIMERA" tune --variant "$v" --positions "$POSITIONS" --nodes "$NODES" --seed 1 \
		--out "$OUT/$v-r1.txt" 2>"$OUT/$v-r1.log"
	"$CHIMERA" tune --variant "$v" --from "$OUT/$v-r1.txt" --positions "$POSITIONS" --nodes "$NODES" --seed 2 \
		--out "$OUT/$v-r2.txt" 2>"$OUT/$v-r2.log"
	[ -s "$OUT/$v.epd" ] || "$CHIMERA" openings --variant "$v" --count 300 --depth 5 >"$OUT/$v.epd" || true
	book=""
	[ -s "$OUT/$v.epd" ] && book="--openings $OUT/$v.epd"
	# shellcheck disable=SC2086
	"$CHIMERA" match --variant "$v" --tc "$TC" --games "$GAMES" --concurrency 2 $book \
		--engine tuned=self --engine documents=self \
		--option tuned=Evaluation=tuned --option "tuned=EvalFile=$OUT/$v-r2.txt" \
		--pgn "$OUT/$v-match.pgn" >"$OUT/$v-match.txt" 2>"$OUT/$v-match.log" ||
		echo "$v: match failed, see $OUT/$v-match.log" >&2
	echo "$v: $(sed -n 3p "$OUT/$v-match.txt")"
done
