//go:build interop

package node_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/n3d-io/n3d/internal/neogotest"
	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/node"
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

// srNeogo is a running neo-go node.
type srNeogo struct {
	*neogotest.Node
	p2p, rpc string
	logPath  string // neo-go's own log (LogPath)
}

// startSRNeogo runs neo-go with proto; validator makes it the consensus
// node, seeds are dialled.
func startSRNeogo(t *testing.T, proto map[string]any, validator bool, app map[string]any, seeds ...string) *srNeogo {
	return startSRNeogoFrom(t, "", proto, validator, app, seeds...)
}

// startSRNeogoFrom is startSRNeogo on a database restored from the dump
// acc first (none when "").
func startSRNeogoFrom(t *testing.T, acc string, proto map[string]any, validator bool, app map[string]any, seeds ...string) *srNeogo {
	bin := neogotest.Bin(t, "run make interop-statesync with NEOGO_BIN set to a neo-go v0.122.0 binary")
	dir := t.TempDir()
	n := &srNeogo{p2p: neogotest.FreeAddr(t), rpc: neogotest.FreeAddr(t), logPath: filepath.Join(dir, "neogo-zap.log")}
	w := map[string]any{"Path": srRepoPath(t, "config/wallet.privnet.single.json"), "Password": "one"}
	a := map[string]any{
		"DBConfiguration": map[string]any{"Type": "leveldb", "LevelDBOptions": map[string]any{"DataDirectoryPath": filepath.Join(dir, "db")}},
		"P2P": map[string]any{"Addresses": []string{n.p2p}, "MinPeers": 0, "AttemptConnPeers": 5, "MaxPeers": 10,
			"PingInterval": "30s", "PingTimeout": "90s", "ProtoTickInterval": "1s", "DialTimeout": "3s"},
		"Relay":     true,
		"Consensus": map[string]any{"Enabled": validator, "UnlockWallet": w},
		"RPC":       map[string]any{"Enabled": true, "Addresses": []string{n.rpc}},
		"LogPath":   n.logPath,
		"LogLevel":  "debug",
	}
	for k, v := range app {
		a[k] = v
	}
	p := map[string]any{}
	for k, v := range proto {
		p[k] = v
	}
	p["SeedList"] = seeds
	if len(seeds) != 0 {
		a["P2P"].(map[string]any)["MinPeers"] = 1
	}
	cfg := neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"), map[string]any{"ProtocolConfiguration": p, "ApplicationConfiguration": a})
	if acc != "" {
		neogotest.Restore(t, bin, cfg, acc)
	}
	n.Node = neogotest.Start(t, bin, cfg, n.rpc)
	t.Cleanup(func() { // before the node's own cleanup: its log is in LogPath
		if t.Failed() {
			z, _ := os.ReadFile(n.logPath)
			t.Logf("neo-go log (LogPath):\n%s", z)
		}
	})
	return n
}

func (n *srNeogo) call(out any, method string, params ...any) error {
	res, err := n.Call(method, params...)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}

// startSRN3d runs a whole n3d node with proto and its P2P on port 0,
// dialling seeds; edit adjusts the configuration.
func startSRN3d(t *testing.T, proto map[string]any, edit func(*config.Config), seeds ...string) *node.Node {
	return startSRN3dWith(t, proto, edit, nil, seeds...)
}

// startSRN3dValidator runs n3d as the network's consensus node.
func startSRN3dValidator(t *testing.T, proto map[string]any, k *keys.PrivateKey) *node.Node {
	return startSRN3dWith(t, proto, func(c *config.Config) {
		c.ApplicationConfiguration.P2P.MinPeers = 0
		c.ApplicationConfiguration.Consensus.Enabled = true
	}, []node.Option{node.WithConsensusKeys(k)})
}

func startSRN3dWith(t *testing.T, proto map[string]any, edit func(*config.Config), opts []node.Option, seeds ...string) *node.Node {
	dir := t.TempDir()
	cfg, err := config.LoadFile(neogotest.WriteYAML(t, filepath.Join(dir, "protocol.yml"), map[string]any{
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
	n, err := node.New(cfg, append([]node.Option{node.WithLogger(log), node.WithMetrics(reg, reg)}, opts...)...)
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

// log returns neo-go's log so far.
func (n *srNeogo) log(t *testing.T) string {
	b, err := os.ReadFile(n.logPath)
	require.NoError(t, err)
	return string(b)
}

// logLine reports whether a line of log holds every part.
func logLine(log string, parts ...string) bool {
	for _, l := range strings.Split(log, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// stop interrupts a neo-go node started by startSRNeogo before the test
// ends.
func (n *srNeogo) stop(t *testing.T) {
	t.Helper()
	n.Stop()
}

// TestInteropStateSyncNeogoFromUs: a neo-go node with
// P2PStateExchangeExtensions (RemoveUntraceableBlocks, as neo-go requires
// for it) joins a network where n3d is the only node left. It takes the
// headers (getheaders) and the whole state trie at the sync point
// (getmptdata, answered by n3d) from n3d; neo-go checks every node against
// the root in the header after the sync point and logs "MPT is in sync".
//
// neo-go v0.122.0 stops there: it asks n3d for the window's blocks and
// n3d sends them (checked: neo-go logs them received, and asks again and
// again), but they are never stored, because neo-go's Server starts the
// queue feeding its state sync module (bSyncQueue.Run) only from the
// stage callback it registers with NeoFSStateSyncExtensions
// (pkg/network/server.go), never with P2PStateExchangeExtensions alone.
// A neo-go bug, not ours; so the test checks headers, state and the
// blocks n3d serves, not neo-go's jump.
func TestInteropStateSyncNeogoFromUs(t *testing.T) {
	const interval = 10
	proto := srProtocol(true, interval)
	proto["MaxTraceableBlocks"] = 2 * interval
	proto["MaxValidUntilBlockIncrement"] = interval
	v := startSRNeogo(t, proto, true, nil)
	n := startSRN3d(t, proto, nil, v.p2p)
	const height = 3*interval + 5
	require.Eventually(t, func() bool { return n.Chain().BlockHeight() >= height }, srTimeout, 50*time.Millisecond,
		"n3d did not sync %d blocks", height)
	v.stop(t)
	top := n.Chain().BlockHeight()
	point := (top / interval) * interval

	addrs := n.P2PAddrs()
	require.NotEmpty(t, addrs)
	s := startSRNeogo(t, proto, false, map[string]any{"RemoveUntraceableBlocks": true}, addrs[0].String())
	require.Eventually(t, func() bool {
		return logLine(s.log(t), "MPT is in sync", fmt.Sprintf(`{"syncPoint": %d`, point))
	}, srTimeout, 100*time.Millisecond, "neo-go did not sync the state trie from n3d")
	sr, err := n.Chain().StateRoot(point)
	require.NoError(t, err)
	require.True(t, logLine(s.log(t), "MPT billet initialized",
		fmt.Sprintf(`{"height": %d, "stateRoot": "%s"}`, point, sr.Root.StringLE())), "neo-go's root at %d is not n3d's (%s)", point, sr.Root.StringLE())
	// (neo-go logs the root with its StringBE, which is our StringLE.)
	var headers uint32
	require.NoError(t, s.call(&headers, "getblockheadercount"))
	require.Equal(t, top+1, headers)
	// neo-go then asks n3d for the window's blocks and n3d sends them
	// (neo-go logs each received block at debug level); whether neo-go
	// stores them is its own affair (see above).
	require.Eventually(t, func() bool {
		_, after, _ := strings.Cut(s.log(t), "MPT is in sync")
		return strings.Count(after, `"type": "CMDBlock"`) >= 2*interval
	}, srTimeout, 100*time.Millisecond, "neo-go got no window blocks from n3d after the MPT stage")
	if !strings.Contains(s.log(t), "blocks are in sync") {
		t.Logf("neo-go synced headers and the state at %d from n3d and received the window's blocks; "+
			"its P2P block stage does not store them (see the test's comment)", point)
	}
}

// TestInteropStateSyncFromNeogo: a neo-go validator with
// P2PStateExchangeExtensions makes blocks; an n3d node that joins at
// genesis (RemoveUntraceableBlocks, which the state sync needs as in
// neo-go) takes the headers, the state trie at the last sync point
// (getmptdata answered by neo-go) and the window's blocks from it, jumps,
// then follows neo-go's new blocks: every block hash, header root and
// state root from the sync point on equals neo-go's, and block 1 was never
// executed.
func TestInteropStateSyncFromNeogo(t *testing.T) {
	const interval = 10
	proto := srProtocol(true, interval)
	proto["MaxTraceableBlocks"] = 2 * interval
	proto["MaxValidUntilBlockIncrement"] = interval
	v := startSRNeogo(t, proto, true, nil)
	var count uint32
	require.Eventually(t, func() bool { return v.call(&count, "getblockcount") == nil && count > 3*interval+5 },
		srTimeout, 100*time.Millisecond, "neo-go did not make %d blocks", 3*interval+5)
	n := startSRN3d(t, proto, func(c *config.Config) { c.ApplicationConfiguration.RemoveUntraceableBlocks = true }, v.p2p)
	target := count + 5
	require.Eventually(t, func() bool { return n.Chain().BlockHeight() >= target }, srTimeout, 50*time.Millisecond,
		"n3d did not reach %d", target)
	point := n.Chain().StateSync().SyncPoint()
	require.GreaterOrEqual(t, point, (count-1)/interval*interval, "sync point")
	_, err := n.Chain().StateRoot(1)
	require.Error(t, err, "n3d executed block 1: no state sync")
	compareSRRange(t, v, n, point, target)
}

// TestInteropStateSyncFromNeogoBigState: as TestInteropStateSyncFromNeogo
// on a state of thousands of trie nodes (many getmptdata rounds): n3d
// generates a 210-block chain (50 transactions a block: transfers and
// storage writes), neo-go restores it (checking every header's state
// root) and serves it; an n3d node joining at genesis takes the state at
// block 200 from neo-go and ends with neo-go's roots.
func TestInteropStateSyncFromNeogoBigState(t *testing.T) {
	const interval, blocks = 50, 210
	proto := srProtocol(true, interval)
	proto["MaxTraceableBlocks"] = 2 * interval
	proto["MaxValidUntilBlockIncrement"] = interval
	acc := filepath.Join(t.TempDir(), "chain.acc")
	gen := startSRN3dWith(t, proto, func(c *config.Config) { c.ApplicationConfiguration.P2P.Addresses = nil }, nil)
	f, err := os.Create(acc)
	require.NoError(t, err)
	_, err = chain.Generate(context.Background(), gen.Chain(), f, chain.GenerateOptions{Blocks: blocks, TxPerBlock: 50,
		Validators: []*keys.PrivateKey{srValidatorKey(t)}, Seed: "statesync"})
	require.NoError(t, err)
	require.NoError(t, f.Close())
	v := startSRNeogoFrom(t, acc, proto, false, nil)
	var count uint32
	require.NoError(t, v.call(&count, "getblockcount"))
	require.Equal(t, uint32(blocks+1), count)
	n := startSRN3d(t, proto, func(c *config.Config) { c.ApplicationConfiguration.RemoveUntraceableBlocks = true }, v.p2p)
	require.Eventually(t, func() bool { return n.Chain().BlockHeight() >= blocks }, srTimeout, 50*time.Millisecond,
		"n3d did not reach %d", blocks)
	require.Equal(t, uint32(200), n.Chain().StateSync().SyncPoint())
	_, err = n.Chain().StateRoot(1)
	require.Error(t, err, "n3d executed block 1: no state sync")
	compareSRRange(t, v, n, 200, blocks)
}

// compareSRRange is compareSRChain over blocks from..to.
func compareSRRange(t *testing.T, ng *srNeogo, n *node.Node, from, to uint32) {
	c := n.Chain()
	for i := from; i <= to; i++ {
		var ref srHeader
		require.NoError(t, ng.call(&ref, "getblockheader", i, true))
		h, ok := c.GetHeaderHash(i)
		require.True(t, ok, "block %d", i)
		require.Equal(t, ref.Hash, h.String(), "block %d", i)
		hdr, err := c.GetHeader(h)
		require.NoError(t, err)
		require.Equal(t, ref.PrevStateRoot, hdr.PrevStateRoot.String(), "block %d", i)
		var root struct {
			Root string `json:"roothash"`
		}
		require.NoError(t, ng.call(&root, "getstateroot", i))
		ours, err := c.StateRoot(i)
		require.NoError(t, err, "state root %d", i)
		require.Equal(t, root.Root, ours.Root.String(), "state root %d", i)
	}
}

// srValidatorKey decrypts the privnet validator's key.
func srValidatorKey(t *testing.T) *keys.PrivateKey {
	return testwallet.Key(t, srRepoPath(t, "config/wallet.privnet.single.json"), "one")
}

// TestInteropNeogoFollowsOurStateRootBlocks: n3d is the consensus node of
// a StateRootInHeader network; neo-go syncs its blocks (checking each
// header's previous state root against its own) and agrees on every
// hash and root.
func TestInteropNeogoFollowsOurStateRootBlocks(t *testing.T) {
	proto := srProtocol(false, 0)
	n := startSRN3dValidator(t, proto, srValidatorKey(t))
	addrs := n.P2PAddrs()
	require.NotEmpty(t, addrs)
	ng := startSRNeogo(t, proto, false, nil, addrs[0].String())
	const want = 12
	require.Eventually(t, func() bool {
		var count uint32
		return ng.call(&count, "getblockcount") == nil && count > want
	}, srTimeout, 100*time.Millisecond, "neo-go did not follow n3d's StateRootInHeader blocks")
	compareSRChain(t, ng, n, want)
}

// TestInteropMixedStateRootConsensus: one neo-go and three n3d consensus
// nodes (neo-go's four privnet validator wallets) make a StateRootInHeader
// chain together: proposals of either implementation carry the previous
// state root and are accepted by the other; every node has the same
// blocks and roots.
func TestInteropMixedStateRootConsensus(t *testing.T) {
	wallets := []struct{ path, password, pub string }{
		{"pkg/wallet/testdata/neogo_wallet1.json", "one", srValidator},
		{"pkg/wallet/testdata/neogo_wallet2.json", "two", "02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e"},
		{"pkg/wallet/testdata/neogo_wallet3.json", "three", "03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699"},
		{"pkg/wallet/testdata/neogo_wallet4.json", "four", "02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62"},
	}
	proto := srProtocol(false, 0)
	proto["TimePerBlock"] = "500ms"
	committee := make([]string, len(wallets))
	for i, w := range wallets {
		committee[i] = w.pub
	}
	proto["StandbyCommittee"], proto["ValidatorsCount"] = committee, len(wallets)
	ng := startSRNeogo(t, proto, true, map[string]any{
		"Consensus": map[string]any{"Enabled": true, "UnlockWallet": map[string]any{
			"Path": srRepoPath(t, wallets[0].path), "Password": wallets[0].password}},
	})
	var nodes []*node.Node
	for _, w := range wallets[1:] {
		k := srWalletKey(t, w.path, w.password)
		require.Equal(t, w.pub, hex.EncodeToString(k.PublicKey().Bytes()))
		nodes = append(nodes, startSRN3dWith(t, proto, func(c *config.Config) {
			c.ApplicationConfiguration.Consensus.Enabled = true
			c.ApplicationConfiguration.P2P.MinPeers = 3
		}, []node.Option{node.WithConsensusKeys(k)}, ng.p2p))
	}
	const want = 8
	require.Eventually(t, func() bool {
		for _, n := range nodes {
			if n.Chain().BlockHeight() < want {
				return false
			}
		}
		var count uint32
		return ng.call(&count, "getblockcount") == nil && count > want
	}, srTimeout, 100*time.Millisecond, "the mixed network did not reach %d", want)
	primaries := map[uint8]bool{}
	for _, n := range nodes {
		compareSRChain(t, ng, n, want)
	}
	for i := uint32(1); i <= want; i++ {
		b, err := nodes[0].Chain().GetBlockByIndex(i)
		require.NoError(t, err)
		primaries[b.PrimaryIndex] = true
	}
	t.Logf("primaries of blocks 1..%d: %v", want, primaries)
	require.True(t, primaries[0], "no block proposed by neo-go (validator 0)")
	require.True(t, len(primaries) > 1, "no block proposed by n3d")
}

// srWalletKey decrypts the first key of a NEP-6 wallet of the repository.
func srWalletKey(t *testing.T, path, password string) *keys.PrivateKey {
	return testwallet.Key(t, srRepoPath(t, path), password)
}
