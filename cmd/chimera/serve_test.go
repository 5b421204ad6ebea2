package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestServeCommand starts chimera serve as a user does, asks its API for a
// position whose table it must first build, and stops it with SIGTERM.
func TestServeCommand(t *testing.T) {
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--dir", t.TempDir())
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	m := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/ `).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	url := m[1] + "/standard?fen=8/8/8/4k3/8/8/8/KR6_w_-_-_0_1"
	var answer struct {
		Category string `json:"category"`
		DTM      *int   `json:"dtm"`
		Building *struct {
			Table string `json:"table"`
		} `json:"building"`
	}
	for {
		res, err := http.Get(url)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NoError(t, json.NewDecoder(res.Body).Decode(&answer))
		res.Body.Close()
		if answer.Category != "unknown" {
			break
		}
		require.NotNil(t, answer.Building, "an unknown position says what is being built")
		require.Equal(t, "KRvK", answer.Building.Table)
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, "win", answer.Category)
	require.NotNil(t, answer.DTM)

	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.NoError(t, cmd.Wait(), "a clean shutdown")
}

func TestServeCommandErrors(t *testing.T) {
	code, _, errOut := runCommand("serve", "--addr", "nonsense")
	require.NotZero(t, code)
	require.Contains(t, errOut, "serve: listen tcp: address nonsense")
	code, _, errOut = runCommand("serve", "--build-pieces", "9")
	require.NotZero(t, code)
	require.Contains(t, errOut, "build-pieces")
}
