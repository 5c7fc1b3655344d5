package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v3"
)

// TestMain lets a test re-run this binary as n3d itself: with N3D_AS_MAIN
// set, the process is the real command (main, real signals, real exit code).
func TestMain(m *testing.M) {
	if os.Getenv("N3D_AS_MAIN") == "1" {
		os.Args = append([]string{"n3d"}, strings.Fields(os.Getenv("N3D_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

// syncBuffer is a bytes.Buffer safe for the logger and the test to share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runCLI runs the command line in-process. A node is stopped as soon as it
// is ready by cancelling its context.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e := &env{stdout: &out, stderr: &errOut, ready: cancel, adjust: freeListeners}
	code = run(ctx, append([]string{"n3d"}, args...), e)
	require.NotErrorIs(t, ctx.Err(), context.DeadlineExceeded, "the command ran into the test timeout")
	return code, out.String(), errOut.String()
}

// repoConfigDir is the repository's config/ directory.
func repoConfigDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "config"))
	require.NoError(t, err)
	return dir
}

func TestNodeDefaultsToEmbeddedSingle(t *testing.T) {
	t.Chdir(t.TempDir()) // no ./config: the embedded copy is used
	code, _, logs := runCLI(t, "node")
	require.Equal(t, 0, code, logs)
	require.Contains(t, logs, `"config": "embedded:protocol.privnet.single.yml"`)
	require.Contains(t, logs, `"magic": 56753`)
	require.Contains(t, logs, `"validators": 1`)
	require.Contains(t, logs, "chain opened")
	require.Contains(t, logs, "shutting down")
	// The chain persisted in ./chains/privnet-single reopens with the
	// blocks the single validator made before the shutdown.
	made := strings.Count(logs, "block agreed")
	code, _, again := runCLI(t, "node")
	require.Equal(t, 0, code, again)
	require.Contains(t, again, fmt.Sprintf("chain opened\t{\"height\": %d,", made))
}

func TestNodeNetworkFlags(t *testing.T) {
	dir := repoConfigDir(t)
	t.Chdir(t.TempDir()) // the nodes' databases go here
	for _, tc := range []struct {
		args  []string
		magic protocol.Magic
	}{
		{[]string{"--mainnet"}, protocol.MainNet},
		{[]string{"-m"}, protocol.MainNet},
		{[]string{"-t"}, protocol.TestNet},
		{[]string{"--testnet"}, protocol.TestNet},
		{[]string{"-p"}, protocol.PrivNet},
		{[]string{"--unittest"}, protocol.UnitTestNet},
		{nil, protocol.PrivNet}, // privnet.single
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"node", "--config-path", dir}, tc.args...)
			code, _, logs := runCLI(t, args...)
			require.Equal(t, 0, code, logs)
			require.Contains(t, logs, `"magic": `+strconv.FormatUint(uint64(tc.magic), 10))
		})
	}
}

func TestNodeConfigSelection(t *testing.T) {
	src := repoConfigDir(t)
	t.Chdir(t.TempDir()) // the nodes' databases go here
	copyConfig := func(t *testing.T, dir, net string) string {
		data, err := os.ReadFile(filepath.Join(src, config.FileName(net)))
		require.NoError(t, err)
		path := filepath.Join(dir, config.FileName(net))
		require.NoError(t, os.WriteFile(path, data, 0o600))
		return path
	}

	t.Run("only privnet.yml, as in a neo-go config dir", func(t *testing.T) {
		dir := t.TempDir()
		path := copyConfig(t, dir, config.NetPrivNet)
		code, _, logs := runCLI(t, "node", "--config-path", dir)
		require.Equal(t, 0, code, logs)
		require.Contains(t, logs, `"config": "`+path+`"`)
		require.Contains(t, logs, `"validators": 4`)
	})
	t.Run("single preferred", func(t *testing.T) {
		dir := t.TempDir()
		copyConfig(t, dir, config.NetPrivNet)
		path := copyConfig(t, dir, config.NetPrivNetSingle)
		code, _, logs := runCLI(t, "node", "--config-path", dir)
		require.Equal(t, 0, code, logs)
		require.Contains(t, logs, `"config": "`+path+`"`)
	})
	t.Run("empty non-default dir", func(t *testing.T) {
		code, _, logs := runCLI(t, "node", "--config-path", t.TempDir())
		require.Equal(t, 1, code)
		require.Contains(t, logs, "protocol.privnet.single.yml does not exist")
	})
	t.Run("config-file wins over network flags", func(t *testing.T) {
		path := copyConfig(t, t.TempDir(), config.NetUnitTestNet)
		code, _, logs := runCLI(t, "node", "--config-file", path, "-m")
		require.Equal(t, 0, code, logs)
		require.Contains(t, logs, `"magic": 42`)
	})
	t.Run("conflicting network flags", func(t *testing.T) {
		code, _, logs := runCLI(t, "node", "-m", "-t")
		require.Equal(t, 1, code)
		require.Contains(t, logs, "conflict")
	})
}

func TestNodeRelativePathAndLogFile(t *testing.T) {
	dir := t.TempDir()
	cfg := strings.Replace(readConfig(t, config.NetUnitTestNet), "ApplicationConfiguration:\n",
		"ApplicationConfiguration:\n  LogPath: logs/n3d.log\n  LogEncoding: json\n", 1)
	path := filepath.Join(dir, "node.yml")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	code, _, stderr := runCLI(t, "node", "--config-file", path, "--relative-path", dir, "-d")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr, "the log goes to the file")
	data, err := os.ReadFile(filepath.Join(dir, "logs", "n3d.log"))
	require.NoError(t, err)
	require.Contains(t, string(data), `"msg":"starting n3d node"`)
	require.Contains(t, string(data), `"level":"DEBUG"`, "-d turns debug on")
}

func readConfig(t *testing.T, net string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoConfigDir(t), config.FileName(net)))
	require.NoError(t, err)
	return string(data)
}

func TestNodeConfigErrors(t *testing.T) {
	base := readConfig(t, config.NetUnitTestNet)
	for name, tc := range map[string]struct{ cfg, want string }{
		"unknown field": {strings.Replace(base, "  Magic: 42", "  Magic: 42\n  Magik: 1", 1), "Magik"},
		"bad hardfork":  {strings.Replace(base, "Echidna: 5", "Echidna: 5\n    Zebra: 6", 1), `unknown hardfork "Zebra"`},
		"bad db":        {strings.Replace(base, `Type: "inmemory"`, `Type: "mongo"`, 1), `"mongo"`},
		"validators":    {strings.Replace(base, "ValidatorsCount: 4", "ValidatorsCount: 9", 1), "ValidatorsCount 9 exceeds"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.yml")
			require.NoError(t, os.WriteFile(path, []byte(tc.cfg), 0o600))
			code, _, stderr := runCLI(t, "node", "--config-file", path)
			require.Equal(t, 1, code)
			require.Contains(t, stderr, tc.want)
		})
	}
	code, _, stderr := runCLI(t, "node", "--config-file", filepath.Join(t.TempDir(), "missing.yml"))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "missing.yml does not exist")

	code, _, stderr = runCLI(t, "node", "extra")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "unexpected arguments")

	code, _, stderr = runCLI(t, "node", "--no-such-flag")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no-such-flag")
}

func TestNodeBrokenConsensusWallet(t *testing.T) {
	dir := t.TempDir()
	walletPath := filepath.Join(dir, "w.json")
	require.NoError(t, os.WriteFile(walletPath, []byte(`{"version":"1.0","accounts":[{"address":1}]}`), 0o600))
	cfg := strings.Replace(readConfig(t, config.NetPrivNetSingle), "./config/wallet.privnet.single.json", walletPath, 1)
	path := filepath.Join(dir, "single.yml")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	code, _, stderr := runCLI(t, "node", "--config-file", path)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "consensus: wallet "+walletPath)
}

func TestNodeMissingConsensusWallet(t *testing.T) {
	cfg := strings.Replace(readConfig(t, config.NetPrivNetSingle), "./config/wallet.privnet.single.json", "./nowhere.json", 1)
	path := filepath.Join(t.TempDir(), "single.yml")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	code, _, stderr := runCLI(t, "node", "--config-file", path)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "consensus: wallet ./nowhere.json")
}

func TestDBCommandErrors(t *testing.T) {
	dir := repoConfigDir(t)
	code, _, stderr := runCLI(t, "db", "reset", "--config-path", dir, "--unittest", "--height", "5")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "height 5 is above the current block 0")
	// Dump and restore work; on an empty chain and a missing file they fail
	// with errors that say why.
	out := filepath.Join(t.TempDir(), "x.acc")
	code, _, stderr = runCLI(t, "db", "dump", "--config-path", dir, "--unittest", "-o", out, "-s", "1", "-c", "2", "--non-incremental")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "above height 0")
	require.NoFileExists(t, out, "a failed dump leaves no file")
	bin := filepath.Join(t.TempDir(), "bin")
	code, _, stderr = runCLI(t, "db", "dump-bin", "--config-path", dir, "--unittest", "-o", bin, "-s", "1")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "chain height 0")
	require.NoFileExists(t, filepath.Join(bin, "block-1.bin"))
	require.NoFileExists(t, out+".tmp")
	code, _, stderr = runCLI(t, "db", "restore", "--config-path", dir, "--unittest", "-i", "missing.acc")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "missing.acc")
	// Flags are still checked first.
	code, _, stderr = runCLI(t, "db", "dump", "--config-path", dir, "--unittest", "-c", "-1")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `invalid value "-1" for flag -c`)
	code, _, stderr = runCLI(t, "db", "reset", "--config-path", dir, "--unittest")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "height")
	code, _, stderr = runCLI(t, "db", "restore", "--config-file", filepath.Join(dir, "nope.yml"))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "nope.yml")
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	require.Equal(t, 0, code)
	require.Contains(t, out, "Version: ")
	require.Contains(t, out, "Commit: ")
	require.Contains(t, out, "GoVersion: go")
}

func TestOptionsReachDB(t *testing.T) {
	// The db commands hand their parsed flags to dumpDB/restoreDB; check the
	// parsing on a command tree with recording actions.
	var got DumpOptions
	app := newApp(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
	dump := findCommand(t, app, "db", "dump")
	dump.Action = func(_ context.Context, cmd *cli.Command) error {
		got = DumpOptions{Out: cmd.String("out"), Start: cmd.Uint32("start"),
			Count: cmd.Uint32("count"), NonIncremental: cmd.Bool("non-incremental")}
		return nil
	}
	require.NoError(t, app.Run(context.Background(), []string{"n3d", "db", "dump", "-o", "f.acc", "-s", "7", "-c", "9", "--non-incremental"}))
	require.Equal(t, DumpOptions{Out: "f.acc", Start: 7, Count: 9, NonIncremental: true}, got)
}

func findCommand(t *testing.T, root *cli.Command, path ...string) *cli.Command {
	t.Helper()
	cmd := root
	for _, name := range path {
		cmd = cmd.Command(name)
		require.NotNil(t, cmd, name)
	}
	return cmd
}

// freeListeners moves every listener of a shipped configuration to a free
// loopback port, so in-process node tests never collide with each other or
// with a node already running on the machine.
func freeListeners(cfg *config.Config) {
	a := &cfg.ApplicationConfiguration
	free := []string{"127.0.0.1:0"}
	a.P2P.Addresses = free
	a.RPC.Addresses = free
	a.Prometheus.Addresses = free
	a.Pprof.Addresses = free
}
