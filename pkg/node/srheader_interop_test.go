//go:build interop

package node_test

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
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"gopkg.in/yaml.v3"
)

// Interop with a real neo-go v0.122.0 (NEOGO_BIN; make interop-statesync)
// on a StateRootInHeader network: a single-validator neo-go privnet makes
// the blocks (each header carrying the previous state root), a whole
// in-process n3d node syncs them over P2P and must agree on every block
// hash, header root and state root.

const (
	srTimeout = 90 * time.Second
	// srValidator is the key of neo-go's single-node privnet wallet
	// (config/wallet.privnet.single.json, password "one").
	srValidator = "02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"
)

func srRepoPath(t *testing.T, rel string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", rel))
	require.NoError(t, err)
	return p
}

func srFreeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// srProtocol is the privnet's ProtocolConfiguration with StateRootInHeader
// (and, when exchange is set, P2PStateExchangeExtensions with interval).
func srProtocol(exchange bool, interval int) map[string]any {
	p := map[string]any{
		"Magic": 4244, "MaxTraceableBlocks": 200000, "TimePerBlock": "200ms", "MemPoolSize": 1000,
		"StandbyCommittee": []string{srValidator}, "ValidatorsCount": 1, "VerifyTransactions": true,
		"StateRootInHeader": true,
		"Hardforks": map[string]int{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0,
			"Echidna": 0, "Faun": 0, "Gorgon": 0},
	}
	if exchange {
		p["P2PStateExchangeExtensions"] = true
		p["StateSyncInterval"] = interval
	}
	return p
}

func srWriteYAML(t *testing.T, path string, v any) string {
	b, err := yaml.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// srNeogo is a running neo-go node.
type srNeogo struct{ p2p, rpc string }

// startSRNeogo runs neo-go with proto; validator makes it the consensus
// node, seeds are dialled.
func startSRNeogo(t *testing.T, proto map[string]any, validator bool, app map[string]any, seeds ...string) *srNeogo {
	bin := os.Getenv("NEOGO_BIN")
	if bin == "" {
		t.Fatal("NEOGO_BIN is not set: run make interop-statesync with NEOGO_BIN set to a neo-go v0.122.0 binary")
	}
	dir := t.TempDir()
	n := &srNeogo{p2p: srFreeAddr(t), rpc: srFreeAddr(t)}
	w := map[string]any{"Path": srRepoPath(t, "config/wallet.privnet.single.json"), "Password": "one"}
	a := map[string]any{
		"DBConfiguration": map[string]any{"Type": "leveldb", "LevelDBOptions": map[string]any{"DataDirectoryPath": filepath.Join(dir, "db")}},
		"P2P": map[string]any{"Addresses": []string{n.p2p}, "MinPeers": 0, "AttemptConnPeers": 5, "MaxPeers": 10,
			"PingInterval": "30s", "PingTimeout": "90s", "ProtoTickInterval": "1s", "DialTimeout": "3s"},
		"Relay":     true,
		"Consensus": map[string]any{"Enabled": validator, "UnlockWallet": w},
		"RPC":       map[string]any{"Enabled": true, "Addresses": []string{n.rpc}},
	}
	for k, v := range app {
		a[k] = v
	}
	p := map[string]any{}
	for k, v := range proto {
		p[k] = v
	}
	p["SeedList"] = seeds
	cfg := srWriteYAML(t, filepath.Join(dir, "neogo.yml"), map[string]any{"ProtocolConfiguration": p, "ApplicationConfiguration": a})
	logPath := filepath.Join(dir, "node.log")
	log, err := os.Create(logPath)
	require.NoError(t, err)
	cmd := exec.Command(bin, "node", "--config-file", cfg)
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); log.Close() }()
	t.Cleanup(func() {
		if cmd.Process.Signal(os.Interrupt) == nil {
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("neo-go log:\n%s", b)
		}
	})
	require.Eventually(t, func() bool { var count uint32; return n.call(&count, "getblockcount") == nil },
		30*time.Second, 100*time.Millisecond, "neo-go RPC did not come up")
	return n
}

func (n *srNeogo) call(out any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+n.rpc, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return err
	}
	if r.Error != nil {
		return fmt.Errorf("%s: %s", method, r.Error.Message)
	}
	return json.Unmarshal(r.Result, out)
}

// startSRN3d runs a whole n3d node with proto and its P2P on port 0,
// dialling seeds; edit adjusts the configuration.
func startSRN3d(t *testing.T, proto map[string]any, edit func(*config.Config), seeds ...string) *node.Node {
	dir := t.TempDir()
	cfg, err := config.LoadFile(srWriteYAML(t, filepath.Join(dir, "protocol.yml"), map[string]any{
		"ProtocolConfiguration": proto, "ApplicationConfiguration": map[string]any{"DBConfiguration": map[string]any{"Type": "inmemory"}}}), "")
	require.NoError(t, err)
	cfg.ProtocolConfiguration.SeedList = seeds
	p2p := &cfg.ApplicationConfiguration.P2P
	p2p.Addresses = []string{"127.0.0.1:0"}
	p2p.MinPeers, p2p.MaxPeers, p2p.AttemptConnPeers = 1, 10, 5
	p2p.ProtoTickInterval, p2p.DialTimeout = 100*time.Millisecond, time.Second
	if edit != nil {
		edit(&cfg)
	}
	log := zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel))
	reg := prometheus.NewRegistry()
	n, err := node.New(cfg, node.WithLogger(log), node.WithMetrics(reg, reg))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, n.Stop()) })
	require.NoError(t, n.Start(context.Background()))
	return n
}

// srHeader is the part of neo-go's getblockheader answer compared here.
type srHeader struct {
	Hash          string `json:"hash"`
	PrevStateRoot string `json:"previousstateroot"`
}

// compareSRChain compares blocks 0..upTo of n with neo-go's: block hash,
// the header's previous state root and the state root.
func compareSRChain(t *testing.T, ng *srNeogo, n *node.Node, upTo uint32) {
	c := n.Chain()
	for i := uint32(0); i <= upTo; i++ {
		var ref srHeader
		require.NoError(t, ng.call(&ref, "getblockheader", i, true))
		h, ok := c.GetHeaderHash(i)
		require.True(t, ok, "block %d", i)
		require.Equal(t, ref.Hash, h.String(), "block %d", i)
		hdr, err := c.GetHeader(h)
		require.NoError(t, err)
		require.True(t, hdr.StateRootEnabled)
		require.Equal(t, ref.PrevStateRoot, hdr.PrevStateRoot.String(), "block %d", i)
		var root struct {
			Root string `json:"roothash"`
		}
		require.NoError(t, ng.call(&root, "getstateroot", i))
		ours, err := c.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, root.Root, ours.Root.String(), "state root %d", i)
	}
}

// TestInteropStateRootInHeader: neo-go makes StateRootInHeader blocks, n3d
// syncs and checks each against its own roots (a mismatch would stop it).
func TestInteropStateRootInHeader(t *testing.T) {
	proto := srProtocol(false, 0)
	ng := startSRNeogo(t, proto, true, nil)
	n := startSRN3d(t, proto, nil, ng.p2p)
	const want = 15
	require.Eventually(t, func() bool { return n.Chain().BlockHeight() >= want }, srTimeout, 50*time.Millisecond,
		"n3d did not sync %d StateRootInHeader blocks", want)
	compareSRChain(t, ng, n, want)
}
