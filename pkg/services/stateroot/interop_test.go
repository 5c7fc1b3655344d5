//go:build interop

package stateroot_test

import (
	"context"
	"encoding/json"
	"path/filepath"
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
	"github.com/n3d-io/n3d/pkg/services/stateroot"
)

// The interop tests put n3d's state-root service on one network with a real
// neo-go v0.122.0 (NEOGO_BIN; scripts/neogo-stateroot-interop.sh): a
// single-validator neo-go privnet (magic 4243, 1 s blocks, Genesis.Roles
// designating one state validator) and a whole in-process n3d node
// (node.New: chain, block queue, P2P server, state-root service) that syncs
// from it.
//
//   - TestInteropObserveNeogo: neo-go is the state validator; n3d stores
//     the roots it signs and answers as neo-go does.
//   - TestInteropNeogoObservesUs: n3d holds the state validator's key;
//     neo-go (its StateRoot service off) stores the roots n3d signs.

const (
	interopTimeout = 90 * time.Second
	// checkedRoots is how many validated roots each test compares.
	checkedRoots = 5
	// Keys of neo-go's privnet wallets (config/wallet.privnet.single.json,
	// password "one"; pkg/wallet/testdata/neogo_wallet2.json, "two").
	validatorKey = "02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"
	wallet2Key   = "02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e"
)

func repoPath(t *testing.T, rel string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", "..", rel))
	require.NoError(t, err)
	return p
}

func freeAddr(t *testing.T) string { return neogotest.FreeAddr(t) }

// protocol is the privnet's ProtocolConfiguration with sv the state
// validators designated at genesis.
func protocol(sv ...string) map[string]any {
	return map[string]any{
		"Magic": 4243, "MaxTraceableBlocks": 200000, "TimePerBlock": "1s", "MemPoolSize": 1000,
		"Genesis":          map[string]any{"TimePerBlock": "1s", "Roles": map[string]any{"StateValidator": sv}},
		"StandbyCommittee": []string{validatorKey}, "ValidatorsCount": 1, "VerifyTransactions": true,
		"P2PSigExtensions": true,
		"Hardforks": map[string]int{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0,
			"Echidna": 0, "Faun": 0, "Gorgon": 0},
	}
}

func writeYAML(t *testing.T, path string, v any) string { return neogotest.WriteYAML(t, path, v) }

// neogo is a running neo-go node.
type neogo struct {
	p2p, rpc string
}

// startNeogo runs the validator node; stateRoot turns its StateRoot
// service on with the validator's wallet.
func startNeogo(t *testing.T, sv []string, stateRoot bool) *neogo {
	bin := neogotest.Bin(t, "run scripts/neogo-stateroot-interop.sh")
	dir := t.TempDir()
	n := &neogo{p2p: freeAddr(t), rpc: freeAddr(t)}
	w := map[string]any{"Path": repoPath(t, "config/wallet.privnet.single.json"), "Password": "one"}
	app := map[string]any{
		"DBConfiguration": map[string]any{"Type": "leveldb", "LevelDBOptions": map[string]any{"DataDirectoryPath": filepath.Join(dir, "db")}},
		"P2P": map[string]any{"Addresses": []string{n.p2p}, "MinPeers": 0, "AttemptConnPeers": 0, "MaxPeers": 10,
			"PingInterval": "30s", "PingTimeout": "90s", "ProtoTickInterval": "1s", "DialTimeout": "3s"},
		"Relay":     true,
		"Consensus": map[string]any{"Enabled": true, "UnlockWallet": w},
		"StateRoot": map[string]any{"Enabled": stateRoot, "UnlockWallet": w},
		"RPC":       map[string]any{"Enabled": true, "Addresses": []string{n.rpc}},
	}
	cfg := writeYAML(t, filepath.Join(dir, "neogo.yml"), map[string]any{"ProtocolConfiguration": protocol(sv...), "ApplicationConfiguration": app})
	neogotest.Start(t, bin, cfg, n.rpc)
	return n
}

func (n *neogo) call(out any, method string, params ...any) error {
	res, err := neogotest.Call("http://"+n.rpc, method, params...)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}

// rpcRoot is a getstateroot answer.
type rpcRoot struct {
	Version   byte   `json:"version"`
	Index     uint32 `json:"index"`
	Root      string `json:"roothash"`
	Witnesses []struct {
		Invocation   []byte `json:"invocation"`
		Verification []byte `json:"verification"`
	} `json:"witnesses"`
}

func sameRoot(t *testing.T, ref rpcRoot, ours *chain.StateRoot) {
	require.Equal(t, ref.Root, ours.Root.String(), "root %d", ref.Index)
	require.Len(t, ours.Witnesses, len(ref.Witnesses), "root %d", ref.Index)
	for i, w := range ref.Witnesses {
		require.Equal(t, w.Invocation, ours.Witnesses[i].InvocationScript, "root %d", ref.Index)
		require.Equal(t, w.Verification, ours.Witnesses[i].VerificationScript, "root %d", ref.Index)
	}
}

// n3dNode is the in-process n3d node.
type n3dNode struct {
	chain *chain.Chain
}

// startN3d runs a whole n3d node (pkg/node: chain, block queue, P2P,
// the state-root service, RPC off) dialling seed, its state-root service
// signing with ks, if any.
func startN3d(t *testing.T, sv []string, seed string, ks []*keys.PrivateKey) *n3dNode {
	dir := t.TempDir()
	cfg, err := config.LoadFile(writeYAML(t, filepath.Join(dir, "protocol.yml"), map[string]any{
		"ProtocolConfiguration": protocol(sv...), "ApplicationConfiguration": map[string]any{"DBConfiguration": map[string]any{"Type": "inmemory"}}}), "")
	require.NoError(t, err)
	cfg.ProtocolConfiguration.SeedList = []string{seed}
	p2p := &cfg.ApplicationConfiguration.P2P
	p2p.Addresses = []string{"127.0.0.1:0"}
	p2p.MinPeers, p2p.MaxPeers, p2p.AttemptConnPeers = 1, 10, 5
	p2p.ProtoTickInterval, p2p.DialTimeout = 100*time.Millisecond, time.Second
	log := zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel))
	reg := prometheus.NewRegistry()
	n, err := node.New(cfg, node.WithLogger(log), node.WithMetrics(reg, reg), node.WithStateRootKeys(ks...))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, n.Stop()) })
	require.NoError(t, n.Start(context.Background()))
	return &n3dNode{chain: n.Chain()}
}

func privateKey(t *testing.T, path, password string) *keys.PrivateKey {
	return testwallet.Key(t, repoPath(t, path), password)
}

func TestInteropObserveNeogo(t *testing.T) {
	sv := []string{validatorKey}
	ng := startNeogo(t, sv, true)
	n := startN3d(t, sv, ng.p2p, nil)
	var first uint32
	require.Eventually(t, func() bool {
		h, err := n.chain.ValidatedStateHeight()
		require.NoError(t, err)
		if first == 0 {
			first = h
		}
		return first != 0 && h >= first+checkedRoots
	}, interopTimeout, 50*time.Millisecond, "n3d stores no validated roots")
	var height struct {
		Validated uint32 `json:"validatedrootindex"`
	}
	require.NoError(t, ng.call(&height, "getstateheight"))
	checked := 0
	for i := first; i <= first+checkedRoots; i++ {
		var ref rpcRoot
		require.NoError(t, ng.call(&ref, "getstateroot", i))
		ours, err := n.chain.StateRoot(i)
		require.NoError(t, err)
		sameRoot(t, ref, ours)
		if len(ref.Witnesses) != 0 {
			checked++
		}
	}
	require.Equal(t, checkedRoots+1, checked)
	t.Logf("n3d stored neo-go's validated roots %d..%d identically (neo-go's validated index %d)",
		first, first+checkedRoots, height.Validated)
}

func TestInteropNeogoObservesUs(t *testing.T) {
	key := privateKey(t, "pkg/wallet/testdata/neogo_wallet2.json", "two")
	require.Equal(t, wallet2Key, key.PublicKey().String())
	sv := []string{wallet2Key}
	ng := startNeogo(t, sv, false)
	n := startN3d(t, sv, ng.p2p, []*keys.PrivateKey{key})
	var first uint32
	require.Eventually(t, func() bool {
		var height struct {
			Validated uint32 `json:"validatedrootindex"`
		}
		require.NoError(t, ng.call(&height, "getstateheight"))
		if first == 0 {
			first = height.Validated
		}
		return first != 0 && height.Validated >= first+checkedRoots
	}, interopTimeout, 50*time.Millisecond, "neo-go stores no root n3d signed")
	for i := first; i <= first+checkedRoots; i++ {
		var ref rpcRoot
		require.NoError(t, ng.call(&ref, "getstateroot", i))
		ours, err := n.chain.StateRoot(i)
		require.NoError(t, err)
		require.NotEmpty(t, ref.Witnesses, "root %d", i)
		sameRoot(t, ref, ours)
	}
	t.Logf("neo-go stored the roots n3d signed, %d..%d", first, first+checkedRoots)
}

// TestInteropMixedValidators: four state validators, neo-go's and three n3d
// nodes' (m = 3: no root without n3d votes, and none without neo-go's when
// one n3d vote is late); every node ends with the same validated roots.
func TestInteropMixedValidators(t *testing.T) {
	sv := []string{validatorKey}
	var ks []*keys.PrivateKey
	for range 3 {
		k, err := keys.NewPrivateKey()
		require.NoError(t, err)
		ks = append(ks, k)
		sv = append(sv, k.PublicKey().String())
	}
	ng := startNeogo(t, sv, true)
	var nodes []*n3dNode
	for _, k := range ks {
		nodes = append(nodes, startN3d(t, sv, ng.p2p, []*keys.PrivateKey{k}))
	}
	validated := func() uint32 {
		var height struct {
			Validated uint32 `json:"validatedrootindex"`
		}
		require.NoError(t, ng.call(&height, "getstateheight"))
		return height.Validated
	}
	n3dAtLeast := func(h uint32) bool {
		for _, n := range nodes {
			if v, err := n.chain.ValidatedStateHeight(); err != nil || v < h {
				return false
			}
		}
		return true
	}
	// Roots made before every node was connected never reach the late
	// ones (as between neo-go nodes): compare those made after.
	require.Eventually(t, func() bool { return n3dAtLeast(1) }, interopTimeout, 50*time.Millisecond,
		"the n3d nodes store no validated root")
	first := validated() + 1
	require.Eventually(t, func() bool { return validated() >= first+checkedRoots && n3dAtLeast(first+checkedRoots) },
		interopTimeout, 50*time.Millisecond, "the four state validators validate no roots")
	k1, err := keys.NewPublicKeyFromString(validatorKey)
	require.NoError(t, err)
	withNeogo := 0 // roots whose witness holds neo-go's signature
	for i := first; i <= first+checkedRoots; i++ {
		var ref rpcRoot
		require.NoError(t, ng.call(&ref, "getstateroot", i))
		require.NotEmpty(t, ref.Witnesses, "root %d", i)
		local, err := nodes[0].chain.StateRoot(i)
		require.NoError(t, err)
		data := stateroot.RootSignData(4243, &chain.StateRoot{Version: local.Version, Index: i, Root: local.Root})
		inv := ref.Witnesses[0].Invocation
		require.Len(t, inv, 3*66, "3 signatures of 4")
		for j := 0; j < len(inv); j += 66 {
			if k1.VerifyMessage(inv[j+2:j+66], data) {
				withNeogo++
			}
		}
		for _, n := range nodes {
			ours, err := n.chain.StateRoot(i)
			require.NoError(t, err)
			sameRoot(t, ref, ours)
		}
	}
	require.Positive(t, withNeogo, "neo-go's votes are in no witness")
	t.Logf("neo-go and three n3d state validators agree on validated roots %d..%d (neo-go's signature in %d)",
		first, first+checkedRoots, withNeogo)
}
