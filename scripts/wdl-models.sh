#!/bin/sh
# The win-rate models UCI_ShowWDL reports by (wdl/models/VARIANT.txt):
# for each variant with tuned weights, the engine's own games (2000-node
# searches, the tuned evaluation) and the model fitted to them.
# Resumable: datagen continues its file, the fit is redone.
#   DATA=~/.cache/chimera/wdl sh scripts/wdl-models.sh [VARIANT...]
# BIN is the chimera binary (default: chimera on PATH); POSITIONS the
# positions a variant (default 40000, about 8 minutes of a core).
set -eu
BIN=${BIN:-chimera}
DATA=${DATA:-$HOME/.cache/chimera/wdl}
POSITIONS=${POSITIONS:-40000}
MODELS=$(cd "$(dirname "$0")/../wdl/models" && pwd)
mkdir -p "$DATA"
cd "$DATA"
variants=${*:-"chess 3check antichess atomic capablanca crazyhouse horde janggi kingofthehill makruk racingkings seirawan shogi xiangqi"}
for v in $variants; do
  $BIN datagen --variant "$v" --out "$v.data" --positions "$POSITIONS" --nodes 2000 --threads 1 --seed 51 > "$v.log" 2>&1 ||
    { echo "$v: datagen failed, see $DATA/$v.log"; continue; }
  {
    echo "# $v: the engine's own games: chimera datagen --variant $v --out $v.data --positions $POSITIONS --nodes 2000 --threads 1 --seed 51"
    $BIN wdl --variant "$v" --data "$v.data"
  } > "$MODELS/$v.txt.new" && mv "$MODELS/$v.txt.new" "$MODELS/$v.txt"
  echo "$(date -u +%FT%TZ) $v: $(grep -c . "$MODELS/$v.txt") lines"
done
