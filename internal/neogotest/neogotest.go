// Package neogotest runs the reference node, neo-go, beside n3d in interop
// tests (build tag interop): it finds the binary through NEOGO_BIN, writes
// its YAML configuration, restores a dump into it, starts `neo-go node`
// with its log kept next to the configuration, waits for its RPC server and
// stops the process when the test ends (the log's tail is printed when the
// test failed). Tests build the configuration themselves: the package knows
// nothing about a particular network.
package neogotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// stopGrace is how long a stopped neo-go may take to exit before it is
// killed.
const stopGrace = 10 * time.Second

// logTail is how much of a failed test's neo-go log is printed.
const logTail = 8 << 10

// Bin is the neo-go binary named by NEOGO_BIN; the test fails (it is only
// run on purpose, under the interop tag) with how to get one when unset.
func Bin(t testing.TB, how string) string {
	t.Helper()
	bin := os.Getenv("NEOGO_BIN")
	if bin == "" {
		t.Fatalf("NEOGO_BIN is not set: %s", how)
	}
	return bin
}

// FreeAddr is a 127.0.0.1 TCP address no listener holds right now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// WriteYAML writes v as YAML to path and returns path.
func WriteYAML(t testing.TB, path string, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// Restore imports the dump acc into the database of the configuration cfg
// (`neo-go db restore`), with args appended (e.g. "-c", "100").
func Restore(t testing.TB, bin, cfg, acc string, args ...string) {
	t.Helper()
	cmdArgs := append([]string{"db", "restore", "--config-file", cfg, "-i", acc}, args...)
	out, err := exec.Command(bin, cmdArgs...).CombinedOutput()
	require.NoError(t, err, "neo-go db restore: %s", out)
}

// Node is a running `neo-go node`.
type Node struct {
	// URL is its RPC server's address (http://host:port).
	URL string
	// LogPath is the file its standard output and error go to.
	LogPath string

	cmd    *exec.Cmd
	exited chan error
	once   sync.Once // the process is stopped once
}

// Start runs `neo-go node` on the configuration cfg, whose RPC server
// listens on rpcAddr, with env added to the environment (KEY=value), and
// returns once that server answers (up to a minute). The process is
// interrupted when the test ends, killed if it does not exit in time.
func Start(t testing.TB, bin, cfg, rpcAddr string, env ...string) *Node {
	t.Helper()
	n := &Node{URL: "http://" + rpcAddr, LogPath: filepath.Join(filepath.Dir(cfg), "node.log"),
		exited: make(chan error, 1)}
	log, err := os.Create(n.LogPath)
	require.NoError(t, err)
	n.cmd = exec.Command(bin, "node", "--config-file", cfg)
	if len(env) > 0 {
		n.cmd.Env = append(os.Environ(), env...)
	}
	n.cmd.Stdout, n.cmd.Stderr = log, log
	if err := n.cmd.Start(); err != nil {
		log.Close()
		t.Fatalf("start neo-go: %v", err)
	}
	go func() { n.exited <- n.cmd.Wait(); log.Close() }()
	t.Cleanup(func() {
		n.Stop()
		if t.Failed() {
			b, _ := os.ReadFile(n.LogPath)
			t.Logf("neo-go log (last %d bytes):\n%s", logTail, b[max(0, len(b)-logTail):])
		}
	})
	require.Eventually(t, func() bool { _, err := n.Call("getversion"); return err == nil },
		time.Minute, 100*time.Millisecond, "neo-go RPC did not come up (log: %s)", n.LogPath)
	return n
}

// Stop interrupts the node and waits for it to exit, killing it if it
// takes longer than stopGrace. It may be called before the test ends (a
// node leaving the network); later calls do nothing.
func (n *Node) Stop() {
	n.once.Do(func() {
		if n.cmd.Process.Signal(os.Interrupt) != nil {
			return // exited already
		}
		select {
		case <-n.exited:
		case <-time.After(stopGrace):
			_ = n.cmd.Process.Kill()
			<-n.exited
		}
	})
}

// Call asks the node's RPC server; see Call.
func (n *Node) Call(method string, params ...any) (json.RawMessage, error) {
	return Call(n.URL, method, params...)
}

// Call makes one JSON-RPC request to url and returns its result, or an
// error carrying the server's error message.
func Call(url, method string, params ...any) (json.RawMessage, error) {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if out.Error != nil {
		return nil, fmt.Errorf("%s: %d %s", method, out.Error.Code, out.Error.Message)
	}
	return out.Result, nil
}
