package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/sysmem"
)

func TestTablebaseCommands(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCommand("tb", "generate", "KRvK", "--dir", dir)
	require.Zero(t, code)
	require.Contains(t, out, "chess KRvK")
	require.FileExists(t, filepath.Join(dir, "chess-KRvK.ctb"))

	// Colours flipped: the same table, not a second one.
	code, out, _ = runCommand("tb", "generate", "KvKR", "--dir", dir)
	require.Zero(t, code)
	require.Contains(t, out, "chess KRvK")
	require.NoFileExists(t, filepath.Join(dir, "chess-KvKR.ctb"))

	// A table that cannot be saved is a failure, not a success.
	notADir := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(notADir, nil, 0o644))
	code, _, errOut := runCommand("tb", "generate", "KQvK", "--dir", notADir)
	require.NotZero(t, code)
	require.Contains(t, errOut, notADir)

	code, out, _ = runCommand("tb", "stats", "KRvK", "--dir", dir)
	require.Zero(t, code)
	require.Contains(t, out, "white to move: 175168 legal positions: 175168 won")
	require.Contains(t, out, "win, mate in 16: ")
	require.Contains(t, out, "50-move rule: 0 cursed wins, 0 blessed losses; longest distance to zeroing: 31 plies winning")

	// A sample: a tenth of KRvK's positions (its 40,960 entries a side
	// to move hold about 50,000), the same ones every run; the whole
	// table's under the full run.
	checked := regexp.MustCompile(`chess KRvK: (\d+) positions checked, 0 disagreements`)
	count := func(args ...string) int {
		code, out, _ := runCommand(append([]string{"tb", "verify", "KRvK", "--dir", dir}, args...)...)
		require.Zero(t, code)
		m := checked.FindStringSubmatch(out)
		require.Len(t, m, 2, out)
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return n
	}
	sampled := count("--sample", "0.1")
	require.Equal(t, sampled, count("--sample", "0.1"), "the same positions")
	require.Positive(t, sampled)
	require.Less(t, sampled, 2*40960/8)
	if !testing.Short() {
		// Under -short TestTablebaseVerifyTrustsNothing verifies the
		// 4×4 board's KBNvK through the same command, in a tenth of the
		// time chess's KRvK takes.
		all := count()
		require.InDelta(t, float64(all)/10, sampled, float64(all)/50, "a tenth of %d positions", all)
	}
	for _, bad := range []string{"0", "1.5", "-1", "NaN", "many"} {
		code, _, errOut := runCommand("tb", "verify", "KRvK", "--dir", dir, "--sample", bad)
		require.NotZero(t, code, bad)
		require.Contains(t, errOut, "sample", bad)
	}

	code, out, _ = runCommand("tb", "probe", "--dir", dir, "--fen", "7k/8/8/8/8/8/8/R5K1 w - - 0 1")
	require.Zero(t, code)
	require.Contains(t, out, "win: mate in 10; 19 plies to zeroing; best: ")
	require.Contains(t, out, "Ra8+")

	file := filepath.Join(dir, "positions.txt")
	require.NoError(t, os.WriteFile(file, []byte(strings.Join([]string{
		"7k/8/8/8/8/8/8/R5K1 w - - 0 1",
		"7k/8/8/8/8/8/PPPP4/6K1 w - - 0 1",
		"not a fen",
		"7k/8/8/8/8/8/8/R5K1 b - - 0 1",
	}, "\n")), 0o644))
	code, out, errOut = runCommand("tb", "probe", "--dir", dir, "--fen-file", file, "--json")
	require.Equal(t, 2, code, "positions that could not be answered fail the command in every form")
	require.Contains(t, errOut, "2 of 4 positions could not be answered")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	var first struct {
		FEN   string   `json:"fen"`
		WDL   *int     `json:"wdl"`
		DTM   *int     `json:"dtm"`
		DTZ   *int     `json:"dtz"`
		Best  []string `json:"best"`
		Error string   `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	require.Equal(t, 1, *first.WDL)
	require.Equal(t, 19, *first.DTM)
	require.Equal(t, 19, *first.DTZ, "KRvK zeroes only by the mate")
	require.NotEmpty(t, first.Best)
	require.Contains(t, lines[1], `"error":"material KPPPPvK: 6 pieces, at most 5"`)
	require.Contains(t, lines[2], `"error":"FEN`)
	require.Contains(t, lines[3], `"wdl":-1`)

	code, out, errOut = runCommand("tb", "probe", "--dir", dir, "--fen-file", file)
	require.Equal(t, 2, code)
	require.Contains(t, out, "not a fen: FEN")
	require.Contains(t, errOut, "2 of 4 positions could not be answered")
	for _, asJSON := range []bool{false, true} {
		args := []string{"tb", "probe", "--dir", dir, "--fen", "not a fen"}
		if asJSON {
			args = append(args, "--json")
		}
		code, out, errOut = runCommand(args...)
		require.Equal(t, 2, code, "json %v", asJSON)
		require.Contains(t, errOut, "FEN", "json %v", asJSON)
		if asJSON {
			require.Contains(t, out, `"error":"FEN`)
		}
	}

	code, _, errOut = runCommand("tb", "generate", "KPPPPvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "at most 5")
	code, _, errOut = runCommand("tb", "probe", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "give --fen or --fen-file")
	code, _, errOut = runCommand("tb", "probe", "--dir", dir, "--fen", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "--fen-file", "x")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "give --fen or --fen-file, not both")
	for _, sub := range []string{"generate", "stats"} {
		code, out, _ := runCommand("tb", sub, "--help")
		require.Zero(t, code)
		require.Regexp(t, `(?s)^\w+ .{200,}Usage:`, out, "tb %s --help has a long description", sub)
	}
}

// TestCompareCommand: compare reports each depth's games against perfect
// defence and draws them. Under -short from 2 positions, not 4: the games
// are most of the test's time, and the report and chart are the same.
func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "chart.svg")
	positions := "4"
	if testing.Short() {
		positions = "2"
	}
	code, out, _ := runCommand("compare", "--material", "KQvK", "--positions", positions, "--depth", "1,3", "--dir", dir, "--svg", svg)
	require.Zero(t, code)
	require.Contains(t, out, "KQvK: search (winning side) against perfect defence")
	require.Contains(t, out, "depth 1 ")
	require.Contains(t, out, "depth 3 ")
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "<svg"))
	require.Contains(t, string(data), "depth 3")
	code, _, errOut := runCommand("compare", "--material", "KQvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "give --depth or --movetime")
}

func TestTablebaseGenerateCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "kqk.prof")
	code, _, _ := runCommand("tb", "generate", "KQvK", "--dir", dir, "--cpuprofile", prof)
	require.Zero(t, code)
	info, err := os.Stat(prof)
	require.NoError(t, err)
	require.NotZero(t, info.Size(), "the profile is written when the generation ends")

	code, _, errOut := runCommand("tb", "generate", "KQvK", "--dir", dir, "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "p"))
	require.NotZero(t, code)
	require.Contains(t, errOut, "cpu profile")
}

// TestTablebaseVerifyTrustsNothing: tb verify reports a damaged file as a
// failure and leaves it as it is (it used to regenerate it and pass), and
// verifies only the tables that exist unless told to build, saying first
// what it will build.
func TestTablebaseVerifyTrustsNothing(t *testing.T) {
	dir := t.TempDir()
	code, _, _ := runCommand("tb", "generate", "KRvK", "--dir", dir)
	require.Zero(t, code)
	path := filepath.Join(dir, "chess-KRvK.ctb")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[len(data)-10] ^= 1
	require.NoError(t, os.WriteFile(path, data, 0o644))
	code, _, errOut := runCommand("tb", "verify", "KRvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "checksum mismatch")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, data, after, "the damaged file is left for the user to see")
	code, _, errOut = runCommand("tb", "verify", "KRvK", "--dir", dir, "--build")
	require.Equal(t, 2, code, "--build builds what is missing, never over what is damaged")
	require.Contains(t, errOut, "checksum mismatch")
	after, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, data, after)

	// Missing tables are not built behind the user's back (chess on a
	// 4x4 board: its tables verify in milliseconds).
	tiny := filepath.Join(t.TempDir(), "tiny.ini")
	require.NoError(t, os.WriteFile(tiny, []byte("[tiny:chess]\nmaxRank = 4\nmaxFile = 4\nstartFen = rnbk/pppp/PPPP/RNBK w - - 0 1\ncastling = false\n"), 0o644))
	onTiny := []string{"--dir", dir, "--variant", "tiny", "--variant-file", tiny}
	code, _, errOut = runCommand(append([]string{"tb", "verify", "KBNvK"}, onTiny...)...)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "no table file in "+dir+" for KBNvK, KNvK, KBvK")
	require.Contains(t, errOut, "pass --build")
	require.NoFileExists(t, filepath.Join(dir, "tiny-KBvK.ctb"))
	code, out, errOut := runCommand(append([]string{"tb", "verify", "KBNvK", "--build"}, onTiny...)...)
	require.Zero(t, code, errOut)
	require.Contains(t, errOut, "building 3 tables of tiny into "+dir+", smallest first: KNvK KBvK KBNvK (about ")
	require.Regexp(t, `tiny KBNvK: \d+ positions checked, 0 disagreements`, out)

	// tb generate says it first too, when it builds more than asked
	// (under -short on the 4x4 board, whose KNvK and KBvK are there: a
	// pawn ending's three tables more, built in a fraction of the time
	// chess's four-piece table, or chess's pawn ending, takes).
	material, building, order := "KQNvK", "building 3 tables of chess", "KQvK KQNvK"
	var onBoard []string
	if testing.Short() {
		material, building, order, onBoard = "KPvK", "building 3 tables of tiny", "KQvK KRvK KPvK", onTiny[2:]
	}
	code, _, errOut = runCommand(append([]string{"tb", "generate", material, "--dir", dir}, onBoard...)...)
	require.Zero(t, code, errOut)
	require.Contains(t, errOut, building)
	require.Contains(t, errOut, order)
	code, _, errOut = runCommand(append([]string{"tb", "generate", "KQvK", "--dir", dir}, onBoard...)...)
	require.Zero(t, code)
	require.NotContains(t, errOut, "building", "one table asked for, none more built")
}

// TestTablebaseDirectories: a directory where a table file should be, and
// a table directory that is not one, are refused with the real cause.
func TestTablebaseDirectories(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "chess-KRvK.ctb"), 0o755))
	code, _, errOut := runCommand("tb", "generate", "KRvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "chess-KRvK.ctb is a directory, not a table file")
	code, _, errOut = runCommand("tb", "verify", "KRvK", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "is a directory")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "nothing left behind")

	file := filepath.Join(dir, "hostname")
	require.NoError(t, os.WriteFile(file, []byte("box\n"), 0o644))
	for _, args := range [][]string{
		{"tb", "generate", "KRvK", "--dir", file},
		{"tb", "verify", "KRvK", "--dir", file},
		{"tb", "probe", "--fen", "7k/8/8/8/8/8/8/R5K1 w - - 0 1", "--dir", file},
		{"tb", "stats", "KRvK", "--dir", file},
	} {
		code, _, errOut = runCommand(args...)
		require.Equal(t, 2, code, args)
		require.Contains(t, errOut, "table directory "+file+" is not a directory", args)
	}
}

// TestUnusableTableDirectoriesAtStart: the commands that play or serve
// with tables refuse a table directory that cannot hold them, at once.
func TestUnusableTableDirectoriesAtStart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostname")
	require.NoError(t, os.WriteFile(file, []byte("box\n"), 0o644))
	code, _, errOut := runCommand("selfplay", "--tablebase-dir", file, "--depth", "1", "--games", "1")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "table directory "+file+" is not a directory")
	code, _, errOut = runCommand("serve", "--dir", filepath.Join(file, "tables"), "--addr", "127.0.0.1:0")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "serve: table directory "+file+"/tables")
}

// TestTablebaseUserVariants: tables of users' variants are refused where
// the generator does not model a rule (a knight promoting by piece got a
// KNvK table tb verify rejected with 9,457 disagreements), and never
// answered from a file made for an earlier definition of the variant (a
// KAvK table of a rook answered "win: mate in 14" for a knight).
func TestTablebaseUserVariants(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "user.ini")
	write := func(text string) {
		require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	}
	write("[promochess:chess]\npromotedPieceType = n:q\n")
	code, _, errOut := runCommand("tb", "generate", "KNvK", "--variant", "promochess", "--variant-file", file, "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "does not model optional promotion by piece (promotedPieceType)")
	code, _, _ = runCommand("tb", "generate", "KRvK", "--variant", "promochess", "--variant-file", file, "--dir", dir)
	require.Zero(t, code, "a rook does not promote: its table is fine")

	const fen = "8/8/8/8/4k3/8/8/A3K3 w - - 0 1"
	custom := []string{"--variant", "custom", "--variant-file", file, "--dir", dir}
	write("[custom:chess]\ncustomPiece1 = a:R\n")
	code, out, _ := runCommand(append([]string{"tb", "probe", "--fen", fen}, custom...)...)
	require.Zero(t, code)
	require.Contains(t, out, "win: mate in")
	write("[custom:chess]\ncustomPiece1 = a:N\n")
	code, _, errOut = runCommand(append([]string{"tb", "verify", "KAvK"}, custom...)...)
	require.Equal(t, 2, code, "verify reports the stale file")
	require.Contains(t, errOut, "made for another definition of custom")
	code, out, errOut = runCommand(append([]string{"tb", "probe", "--fen", fen}, custom...)...)
	require.Zero(t, code)
	require.Contains(t, out, "\n  draw")
	require.Contains(t, errOut, "made for another definition of custom")
	require.Contains(t, errOut, "regenerating it")
}

// TestTablebaseRepack: tables repacked with one side's distances are
// smaller and answer stats, verify and probes as before; repacked back
// with both, they answer the same again. Bad requests are refused.
func TestTablebaseRepack(t *testing.T) {
	dir, one, both := t.TempDir(), t.TempDir(), t.TempDir()
	for _, m := range []string{"KRvK", "KQvK"} {
		code, _, errOut := runCommand("tb", "generate", m, "--dir", dir)
		require.Zero(t, code, errOut)
	}
	code, out, errOut := runCommand("tb", "repack", "--dir", dir, "--out", one)
	require.Zero(t, code, errOut)
	require.Regexp(t, `chess KQvK: .* -> .* \(white to move's distances\)`, out)
	require.Contains(t, out, "2 tables: ")
	for _, m := range []string{"KRvK", "KQvK"} {
		was, err := os.Stat(filepath.Join(dir, "chess-"+m+".ctb"))
		require.NoError(t, err)
		now, err := os.Stat(filepath.Join(one, "chess-"+m+".ctb"))
		require.NoError(t, err)
		require.Less(t, now.Size(), was.Size(), m)
	}
	// A one-side set repacked one-sided again: the files copied as they are.
	copied := t.TempDir()
	code, _, errOut = runCommand("tb", "repack", "--dir", one, "--out", copied)
	require.Zero(t, code, errOut)
	for _, m := range []string{"KRvK", "KQvK"} {
		want, err := os.ReadFile(filepath.Join(one, "chess-"+m+".ctb"))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(copied, "chess-"+m+".ctb"))
		require.NoError(t, err)
		require.Equal(t, want, got, m)
	}
	code, _, errOut = runCommand("tb", "repack", "KRvK", "--dir", one, "--out", both, "--both-sides")
	require.Zero(t, code, errOut)
	code, _, errOut = runCommand("tb", "repack", "KQvK", "--dir", one, "--out", both, "--both-sides")
	require.Zero(t, code, errOut)

	answers := func(d string) (stats, probe string) {
		t.Helper()
		code, stats, errOut := runCommand("tb", "stats", "KRvK", "--dir", d)
		require.Zero(t, code, errOut)
		code, out, errOut := runCommand("tb", "verify", "KQvK", "--dir", d)
		require.Zero(t, code, errOut)
		require.Contains(t, out, "0 disagreements")
		code, probe, errOut = runCommand("tb", "probe", "--fen", "8/8/8/3k4/8/8/8/R3K3 b - - 0 1", "--dir", d)
		require.Zero(t, code, errOut)
		return stats, probe
	}
	// In place: each file replaced whole.
	inPlace := t.TempDir()
	for _, m := range []string{"KRvK", "KQvK"} {
		data, err := os.ReadFile(filepath.Join(dir, "chess-"+m+".ctb"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(inPlace, "chess-"+m+".ctb"), data, 0o644))
	}
	code, _, errOut = runCommand("tb", "repack", "--dir", inPlace, "--out", inPlace)
	require.Zero(t, code, errOut)
	// Compressed again at the best level: smaller than the blocks as a
	// generation compressed them, copied.
	recompressed := t.TempDir()
	code, _, errOut = runCommand("tb", "repack", "--dir", dir, "--out", recompressed, "--recompress")
	require.Zero(t, code, errOut)
	setBytes := func(d string) (n int64) {
		for _, m := range []string{"KRvK", "KQvK"} {
			st, err := os.Stat(filepath.Join(d, "chess-"+m+".ctb"))
			require.NoError(t, err)
			n += st.Size()
		}
		return n
	}
	require.Less(t, setBytes(recompressed), setBytes(one))

	stats, probe := answers(dir)
	for _, d := range []string{one, both, inPlace, recompressed} {
		s, p := answers(d)
		require.Equal(t, stats, s, d)
		require.Equal(t, probe, p, d)
	}

	code, _, errOut = runCommand("tb", "repack", "--dir", dir)
	require.NotZero(t, code)
	require.Contains(t, errOut, "--out DIR")
	code, _, errOut = runCommand("tb", "repack", "KBNvK", "--dir", dir, "--out", one)
	require.NotZero(t, code)
	require.Contains(t, errOut, "no KBNvK table file in")
	code, _, errOut = runCommand("tb", "repack", "--dir", t.TempDir(), "--out", one)
	require.NotZero(t, code)
	require.Contains(t, errOut, "no chess table files in")
}

// TestProbeAgreesWithTheAPI: tb probe values a position as the explorer's
// API does. It used to answer "win" where the API says cursed-win (a
// clock of 95: the fifty-move rule draws it), and "no table holds this
// position" for bare kings and for a position with castling rights,
// which the API answers draw and win.
func TestProbeAgreesWithTheAPI(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ fen, category, words string }{
		{"8/8/8/8/8/2k5/8/KBN5 w - - 95 1", "cursed-win", "cursed win (the 50-move rule draws it): mate in 30"},
		{"8/8/8/8/8/2k5/8/KBN5 w - - 0 1", "win", "win: mate in 30"},
		{"8/8/8/8/8/2k5/8/KBN5 b - - 95 1", "blessed-loss", "blessed loss (the 50-move rule saves it)"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "draw", "draw: insufficient material"},
		{"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "win", "win: mate in"},
	} {
		code, out, errOut := runCommand("tb", "probe", "--dir", dir, "--json", "--fen", c.fen)
		require.Zero(t, code, "%s: %s", c.fen, errOut)
		var ans struct {
			Category string `json:"category"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &ans), out)
		require.Equal(t, c.category, ans.Category, c.fen)
		code, out, errOut = runCommand("tb", "probe", "--dir", dir, "--fen", c.fen)
		require.Zero(t, code, "%s: %s", c.fen, errOut)
		require.Contains(t, out, "\n  "+c.words, c.fen)
	}
}

// TestProbeFileOfAnyLines: a line too long for a FEN is an error of its
// own and the other lines are answered (one 70 KB line used to end the
// run: "bufio.Scanner: token too long"); a file of binary bytes is never
// echoed raw; and generation progress is not drawn (with "\r") into
// stderr that is not a terminal.
func TestProbeFileOfAnyLines(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "positions.txt")
	require.NoError(t, os.WriteFile(file, []byte("7k/8/8/8/8/8/8/R5K1 w - - 0 1\n"+strings.Repeat("x", 70000)+
		"\n7k/8/8/8/8/8/8/R5K1 b - - 0 1\n"), 0o644))
	code, out, errOut := runCommand("tb", "probe", "--dir", dir, "--fen-file", file)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "1 of 3 positions could not be answered")
	require.Contains(t, out, "7k/8/8/8/8/8/8/R5K1 w - - 0 1\n  win: mate in 10")
	require.Contains(t, out, "7k/8/8/8/8/8/8/R5K1 b - - 0 1\n  loss: mated in")
	require.Contains(t, out, "line 2: 70001 bytes, too long for a FEN")
	require.Less(t, len(out), 10000, "the long line is not echoed")
	require.NotContains(t, errOut, "\r", "no progress frames in a redirected stderr")

	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i*7919 + i/13)
	}
	require.NoError(t, os.WriteFile(file, binary, 0o644))
	code, out, _ = runCommand("tb", "probe", "--dir", dir, "--fen-file", file)
	require.Equal(t, 2, code)
	require.True(t, utf8.ValidString(out), "the answers are text")
	for _, r := range out {
		require.True(t, r == '\n' || unicode.IsPrint(r), "no control bytes in the answers: %q", r)
	}
}

// TestGenerationBeyondMemoryRefused: a generation estimated to need more
// memory than the machine has available is refused before any work, as
// the engine's Hash refuses a table (grand chess's KQRvKQ, about 39 GiB,
// used to start anyway on a 24 GiB machine); --force insists. tb plan
// --jobs refuses the same against its --memory.
func TestGenerationBeyondMemoryRefused(t *testing.T) {
	dir := t.TempDir()
	if mb, ok := sysmem.AvailableMB(); !ok || mb > 30<<10 {
		t.Log("this machine has the memory for grand KQRvKQ (or does not say): only the plan is checked")
	} else {
		code, _, errOut := runCommand("tb", "generate", "KQRvKQ", "--variant", "grand", "--dir", dir)
		require.Equal(t, 2, code)
		require.Contains(t, errOut, "grand KQRvKQ: its generation takes about")
		require.Contains(t, errOut, "--force builds it anyway")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Empty(t, entries, "nothing built")
	}
	code, _, errOut := runCommand("tb", "plan", "KBNvK", "--jobs", "1", "--memory", "1", "--dir", dir)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "chess KBNvK: its generation takes about")
	require.Contains(t, errOut, "is the plan's memory (--memory)")
	code, _, errOut = runCommand("tb", "plan", "KBNvK", "--jobs", "1", "--memory", "1", "--force", "--dir", dir)
	require.Zero(t, code, errOut)
	_, err := os.Stat(filepath.Join(dir, "chess-KBNvK.ctb"))
	require.NoError(t, err, "forced, it is built")
}

// TestShortenKeepsCharactersWhole: a long line in a message is cut on a
// character's boundary, so what reaches the terminal is text.
func TestShortenKeepsCharactersWhole(t *testing.T) {
	long := strings.Repeat("é", 100)
	short := shorten(long)
	require.True(t, utf8.ValidString(short))
	require.True(t, strings.HasSuffix(short, "…"))
	require.Less(t, len(short), 70)
}
