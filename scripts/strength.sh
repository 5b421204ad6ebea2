#!/bin/sh
# strength.sh OUT [GAMES]: the strength matches of docs/strength.md, one
# thread per engine, two games at once (this 2-core machine), each
# engine's results in OUT/NAME.txt (table), .log (live progress) and .pgn.
#
#   SECTIONS  which to run (default "regress sjaak fairymax fsf-elo fsf")
#   CHIMERA   the engine under test (default ./chimera)
#   BASE      the previous binary, for the per-variant regression check
#   ELOS      Fairy-Stockfish UCI_Elo points (default "2400 2700")
#
# Sjaak II and Fairy-Max are driven over CECP: Sjaak II's UCI mode loses
# on time at 5+0.05 under both chimera match and cutechess-cli.
set -eu
OUT=${1:?usage: strength.sh OUT [GAMES]}
GAMES=${2:-100}
CHIMERA=${CHIMERA:-./chimera}
SECTIONS=${SECTIONS:-regress sjaak fairymax fsf-elo fsf}
ELOS=${ELOS:-2400 2700}
mkdir -p "$OUT/books"

book() { # book VARIANT COUNT DEPTH [BALANCE]: a partial book will do
	[ -s "$OUT/books/$1.epd" ] ||
		"$CHIMERA" openings --variant "$1" --count "$2" --depth "$3" --balance "${4:-80}" >"$OUT/books/$1.epd" ||
		[ -s "$OUT/books/$1.epd" ]
}
run() { # run NAME VARIANT TC GAMES MATCH-ARGS... (no book: the start position)
	name=$1 variant=$2 tc=$3 games=$4
	shift 4
	[ -s "$OUT/books/$variant.epd" ] && set -- --openings "$OUT/books/$variant.epd" "$@"
	"$CHIMERA" match --variant "$variant" --tc "$tc" --games "$games" --concurrency 2 \
		--pgn "$OUT/$name.pgn" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.log" ||
		echo "$name: match failed, see $OUT/$name.log" >&2
	echo "$name: $(sed -n 3p "$OUT/$name.txt")"
}

for section in $SECTIONS; do
	case $section in
	regress) # new vs BASE in every built-in variant: no loss beyond noise
		: "${BASE:?regress needs BASE=previous binary}"
		for v in $("$CHIMERA" variants list | awk '{print $1}'); do
			# Lopsided variants (light brigade) have few balanced lines.
			book "$v" 40 3 400 || echo "$v: no book, start position only" >&2
			run "regress-$v" "$v" 1+0.01 16 --engine new="$CHIMERA" --engine old="$BASE"
		done ;;
	sjaak)
		for v in chess capablanca knightmate; do
			book "$v" 300 5
			run "sjaak-$v" "$v" 5+0.05 "$GAMES" --engine chimera="$CHIMERA" --engine "sjaak=/usr/games/sjaakii:xboard"
		done ;;
	fairymax)
		for v in chess capablanca; do
			book "$v" 300 5
			run "fairymax-$v" "$v" 5+0.05 "$GAMES" --engine chimera="$CHIMERA" --engine "fairymax=/usr/games/fairymax:xboard"
		done ;;
	fsf-elo)
		book chess 300 5
		for elo in $ELOS; do
			run "fsf-elo-$elo" chess 10+0.1 "$GAMES" --engine chimera="$CHIMERA" --engine fsf=/usr/games/fairy-stockfish \
				--option fsf=UCI_LimitStrength=true --option "fsf=UCI_Elo=$elo"
		done ;;
	fsf)
		book chess 300 5
		run fsf-full chess 10+0.1 "$GAMES" --engine chimera="$CHIMERA" --engine fsf=/usr/games/fairy-stockfish ;;
	*) echo "unknown section $section" >&2; exit 2 ;;
	esac
done
