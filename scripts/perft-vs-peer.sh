#!/usr/bin/env bash
# Compare chimera's perft speed with Debian's fairy-stockfish (and stockfish,
# for standard chess), single-threaded, on the same positions one after the
# other. Prints nodes/second for each engine and the ratio chimera/peer.
#
# Usage: scripts/perft-vs-peer.sh [CHIMERA_BINARY [VARIANT...]]
# Needs: apt-get install fairy-stockfish stockfish (missing peers are skipped).
set -euo pipefail

cd "$(dirname "$0")/.."
chimera=${1:-}
if [[ -z $chimera ]]; then
	chimera=$(mktemp -d)/chimera
	go build -o "$chimera" ./cmd/chimera
fi
find_engine() { command -v "$1" || { [[ -x /usr/games/$1 ]] && echo "/usr/games/$1"; } || true; }
fsf=$(find_engine fairy-stockfish)
sf=$(find_engine stockfish)

now() { date +%s.%N; }

# chimera_nps VARIANT FEN DEPTH -> "nodes seconds"
chimera_run() {
	local start end nodes
	start=$(now)
	nodes=$("$chimera" perft --variant "$1" --fen "$2" --depth "$3" 2>/dev/null | awk '/^Nodes searched/ {print $3}')
	end=$(now)
	echo "$nodes $(echo "$end - $start" | bc -l)"
}

# uci_run ENGINE VARIANT FEN DEPTH -> "nodes seconds"
uci_run() {
	local start end nodes setvariant=""
	[[ $2 != chess ]] && setvariant="setoption name UCI_Variant value $2"
	start=$(now)
	nodes=$(printf 'uci\nsetoption name Threads value 1\n%s\nisready\nposition fen %s\ngo perft %s\nquit\n' \
		"$setvariant" "$3" "$4" | "$1" 2>/dev/null | awk '/^Nodes searched/ {print $3}')
	end=$(now)
	echo "$nodes $(echo "$end - $start" | bc -l)"
}

positions=(
	"chess|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
	"chess|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
	"capablanca|rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1|5"
	"crazyhouse|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1|6"
	"crazyhouse|2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1|5"
	"shogi|lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1|5"
	"shogi|1sk2gbn1/l1g2s2l/p2pppppp/9/1pp1P1P2/PB1P1P3/7PP/N2KG1G+r1/LN2S1SN1[lrpp] b - - 1 31|4"
	"xiangqi|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|5"
	"xiangqi|2r1kab1r/c3a4/6nR1/1Cp6/pn4p1p/P8/3NPC3/N2R4B/c8/2BAKA3 w - - 6 31|5"
	"janggi|rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1|5"
	"minixiangqi|rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1|6"
	"makruk|rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1|6"
	# Rule families III (issue 36): Fairy-Stockfish 11.1's other games.
	"kyotoshogi|p+nks+l/5/5/5/+LSK+NP[] w - - 0 1|7"
	"micro|kb+r+l/p3/4/3P/+L+RBK[] w - - 0 1|7"
	"dobutsu|gle/1c1/1C1/ELG[] w - - 0 1|9"
	"placement|8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1|5"
	"sittuyin|8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[FSSKRRNNfsskrrnn] w - - 0 1|4"
	"cambodian|rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1|5"
	"asean|rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1|6"
	"shatar|rnbjkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBJKBNR w - - 0 1|6"
	"courier|rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1|5"
	"shako|c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1|5"
	"clobber|PpPpP/pPpPp/PpPpP/pPpPp/PpPpP/pPpPp w - - 0 1|5"
	"breakthrough|pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1|6"
	"jesonmor|nnnnnnnnn/9/9/9/9/9/9/9/NNNNNNNNN w - - 0 1|5"
	"euroshogi|1nbgkgn1/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/1NGKGBN1[] w - - 0 1|5"
	"threekings|knbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/KNBQKBNK w - - 0 1|5"
	"koedem|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1|5"
	"supply|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[] w - - 0 1|5"
	"hoppelpoppel|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|5"
	"gorogoro|sgkgs/5/1ppp1/1PPP1/5/SGKGS[] w - - 0 1|6"
	"manchu|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/9/9/M1BAKAB2 w - - 0 1|5"
	"loop|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1|5"
	"seirawan|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQABCDEFGHkqabcdefgh - 0 1|5"
	"shouse|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQABCDEFGHkqabcdefgh - 0 1|5"
	"shouse|reb1k1nQ/pppp1p2/p1n4b/3P2pp/8/N1P1q3/RP2PPPe/2BHKBNR[RPhp] w KCEFGHqaceg - 1 14|4"
)
# Arguments after the binary pick variants: scripts/perft-vs-peer.sh "" shatar asean
only=("${@:2}")

printf '%-11s %-6s %14s %14s %14s %9s %14s %9s\n' variant depth nodes chimera/s fsf/s ratio sf/s ratio
for entry in "${positions[@]}"; do
	IFS='|' read -r variant fen depth <<<"$entry"
	if ((${#only[@]})) && [[ " ${only[*]} " != *" $variant "* ]]; then
		continue
	fi
	if ! "$chimera" perft --variant "$variant" --depth 1 >/dev/null 2>&1; then
		echo "$variant: not supported by this chimera build, skipped"
		continue
	fi
	read -r cn ct < <(chimera_run "$variant" "$fen" "$depth")
	cnps=$(echo "$cn / $ct" | bc -l)
	fnps="-" fratio="-" snps="-" sratio="-"
	if [[ -n $fsf ]]; then
		read -r fn ft < <(uci_run "$fsf" "$variant" "$fen" "$depth")
		[[ $fn == "$cn" ]] || echo "warning: fairy-stockfish counts $fn, chimera $cn" >&2
		fnps=$(echo "$fn / $ft" | bc -l)
		fratio=$(printf '%.2f' "$(echo "$cnps / $fnps" | bc -l)")
		fnps=$(printf '%.0f' "$fnps")
	fi
	if [[ -n $sf && $variant == chess ]]; then
		read -r sn st < <(uci_run "$sf" "$variant" "$fen" "$depth")
		snps=$(echo "$sn / $st" | bc -l)
		sratio=$(printf '%.2f' "$(echo "$cnps / $snps" | bc -l)")
		snps=$(printf '%.0f' "$snps")
	fi
	printf '%-11s %-6s %14s %14.0f %14s %9s %14s %9s\n' "$variant" "$depth" "$cn" "$cnps" "$fnps" "$fratio" "$snps" "$sratio"
done
