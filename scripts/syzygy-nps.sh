#!/bin/sh
# nodes/s of 5 s one-thread searches from five-piece positions, without and
# with Syzygy's 3–4 piece tables (captures lead into them); own tables off.
B=${B:-chimera}
TB=${TB:-tablebase/syzygy/testdata/regular}
for fen in "8/8/4k3/8/4P3/4K3/8/r6R w - - 0 1" "8/3q4/8/4k3/8/8/4P3/3QK3 w - - 0 1" "8/8/8/2k5/8/1pK5/1P6/1R6 w - - 0 1"; do
  for path in "<empty>" "$TB"; do
    printf 'setoption name UseTablebase value false\nsetoption name SyzygyPath value %s\nposition fen %s\ngo movetime 5000\n' "$path" "$fen" |
      (cat; sleep 6; echo quit) | $B 2>/dev/null | grep "^info depth" | tail -1 |
      sed "s|^|$(echo $fen | cut -d' ' -f1-2) syzygy=$( [ "$path" = "<empty>" ] && echo off || echo on ): |" | grep -o '^.*: \|nodes [0-9]*\|nps [0-9]*\|tbhits [0-9]*\|depth [0-9]*' | tr '\n' ' '
    echo
  done
done
