#!/bin/sh
# Data for the networks shipped beside chess's (issue 51): round robin
# over the variants in growing steps, so that every variant has data early.
# Resumable: run it again and each datagen call continues its file up to
# its step. Data is kept outside the repository:
#   mkdir -p ~/.cache/chimera/data && cd ~/.cache/chimera/data &&
#   nohup nice -n 19 /path/to/scripts/datagen-variants.sh > variants.log 2>&1 &
# BIN is the chimera binary (default: chimera on PATH).
BIN=${BIN:-chimera}
FSF=${FSF:-/usr/games/fairy-stockfish}
for target in 100000 200000 400000 800000 1600000 3200000 6400000; do
  for v in crazyhouse shogi xiangqi capablanca atomic; do
    case $v in
      # Fairy-Stockfish 11.1 is slow at depth 6 in drop games.
      crazyhouse|shogi) teach="--teacher $FSF --teacher-depth 5 --teacher-option Threads=1 --teacher-plays" ;;
      # Debian's Fairy-Stockfish 11.1 does not offer atomic: own labels.
      atomic) teach="--nodes 2000" ;;
      *) teach="--teacher $FSF --teacher-depth 6 --teacher-option Threads=1 --teacher-plays" ;;
    esac
    # shellcheck disable=SC2086 # $teach is a list of arguments
    $BIN datagen --variant $v --out $v.data --positions $target --threads 1 --seed 21 $teach > $v.log 2>&1 ||
      echo "$v: datagen failed, see $v.log"
    echo "$(date -u +%FT%TZ) $v: $target positions"
  done
done
