//go:build unix

package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/stretchr/testify/require"
)

// process is this test binary started as the real n3d (see TestMain).
type process struct {
	cmd   *exec.Cmd
	lines chan string
}

func startN3D(t *testing.T, args ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "N3D_AS_MAIN=1", "N3D_ARGS="+strings.Join(args, " "))
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &process{cmd: cmd, lines: make(chan string, 100)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// waitFor reads log lines until one contains s.
func (p *process) waitFor(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			require.True(t, ok, "n3d exited before logging %q", s)
			if strings.Contains(line, s) {
				return
			}
		case <-timeout:
			t.Fatalf("n3d did not log %q in time", s)
		}
	}
}

// stop sends sig, expects "shutting down" and a zero exit status.
func (p *process) stop(t *testing.T, sig os.Signal) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(sig))
	p.waitFor(t, "shutting down")
	for range p.lines {
	}
	require.NoError(t, p.cmd.Wait(), "exit status after %s", sig)
	require.Equal(t, 0, p.cmd.ProcessState.ExitCode())
}

// TestNodeExitsCleanlyOnSignal runs the real binary on its defaults and
// stops it as an init system or a terminal would.
func TestNodeExitsCleanlyOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startN3D(t, "node")
			p.waitFor(t, "waits for a signal")
			p.stop(t, sig)
		})
	}
}

// TestNodeReloadsOnSIGHUP checks neo-go's reload rules: a new LogLevel is
// applied, a changed protocol section is refused, the node keeps running.
func TestNodeReloadsOnSIGHUP(t *testing.T) {
	base := readConfig(t, config.NetUnitTestNet)
	path := filepath.Join(t.TempDir(), "node.yml")
	write := func(s string) { require.NoError(t, os.WriteFile(path, []byte(s), 0o600)) }
	withLevel := func(s, level string) string {
		return strings.Replace(s, "ApplicationConfiguration:\n", "ApplicationConfiguration:\n  LogLevel: "+level+"\n", 1)
	}
	write(withLevel(base, "info"))
	p := startN3D(t, "node", "--config-file", path)
	p.waitFor(t, "waits for a signal")

	write(withLevel(base, "debug"))
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGHUP))
	p.waitFor(t, "log level changed")

	write(withLevel(strings.Replace(base, "Magic: 42", "Magic: 43", 1), "debug"))
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGHUP))
	p.waitFor(t, "ProtocolConfiguration changed, signal ignored")

	write("garbage: [")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGHUP))
	p.waitFor(t, "cannot reread the configuration")

	p.stop(t, syscall.SIGTERM)
}
