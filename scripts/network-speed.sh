#!/bin/sh
# network-speed.sh [SECONDS]: nodes/s of the three evaluations, as issue 51
# measures them: a one-thread search of SECONDS (default 5) from the chess
# start position and from Kiwipete, in the plain build and in the
# GOEXPERIMENT=simd build, the shipped chess network for "network". Run on
# an idle machine (pause other jobs: kill -STOP); one search at a time.
set -eu
SECONDS_=${1:-5}
MS=$((SECONDS_ * 1000))
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
go build -o "$DIR/plain" ./cmd/chimera
GOEXPERIMENT=simd go build -o "$DIR/simd" ./cmd/chimera
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1"
nps() { # binary evaluation position
  printf 'uci\nsetoption name Hash value 64\nsetoption name Evaluation value %s\nisready\nposition %s\ngo movetime %s\n' \
    "$2" "$3" "$MS" | (cat; sleep $((SECONDS_ + 2)); echo quit) | "$1" |
    awk '/^info depth/ { for (i = 1; i < NF; i++) if ($i == "nps") n = $(i + 1) } END { print n }'
}
printf '%-6s %-10s %-9s %10s\n' build evaluation position nodes/s
for build in plain simd; do
  for e in documents tuned network; do
    for pos in start kiwipete; do
      if [ $pos = start ]; then p=startpos; else p="fen $KIWIPETE"; fi
      printf '%-6s %-10s %-9s %10s\n' $build $e $pos "$(nps "$DIR/$build" $e "$p")"
    done
  done
done
