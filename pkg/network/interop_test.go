//go:build interop

package network

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/n3d-io/n3d/internal/neogotest"
)

// The interop tests run a real neo-go node (NEOGO_BIN, see
// scripts/neogo-interop.sh) on loopback beside in-process n3d nodes on
// the reference chain's network, and check that each syncs the other to
// the same block hashes and state roots.

const interopTimeout = 2 * time.Minute

// neogo is a running neo-go node.
type neogo struct {
	*neogotest.Node
	dir string
	p2p string
	rpc string
}

// neogoConfig writes a neo-go config: the reference chain's protocol, our
// ports and seeds, a LevelDB in dir.
func neogoConfig(t *testing.T, spec chainSpec, dir, p2p, rpc string, seeds []string) string {
	raw, err := os.ReadFile(spec.protocol)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	proto := cfg["ProtocolConfiguration"].(map[string]any)
	proto["SeedList"] = seeds
	app := cfg["ApplicationConfiguration"].(map[string]any)
	app["DBConfiguration"] = map[string]any{"Type": "leveldb",
		"LevelDBOptions": map[string]any{"DataDirectoryPath": filepath.Join(dir, "db")}}
	p := app["P2P"].(map[string]any)
	p["Addresses"] = []string{p2p}
	p["MinPeers"], p["AttemptConnPeers"], p["ProtoTickInterval"] = len(seeds), 5, "1s"
	app["RPC"] = map[string]any{"Enabled": true, "Addresses": []string{rpc}, "MaxGasInvoke": 15}
	app["Consensus"] = map[string]any{"Enabled": false} // the dump's blocks only
	return neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"), cfg)
}

// startNeogo starts neo-go, restoring the reference chain first when
// restore is set, and waits until its RPC answers.
func startNeogo(t *testing.T, spec chainSpec, restore bool, seeds []string) *neogo {
	bin := neogotest.Bin(t, "run scripts/neogo-interop.sh (make interop)")
	n := &neogo{dir: t.TempDir(), p2p: freeAddr(t), rpc: freeAddr(t)}
	cfg := neogoConfig(t, spec, n.dir, n.p2p, n.rpc, seeds)
	if restore {
		neogotest.Restore(t, bin, cfg, spec.acc)
	}
	n.Node = neogotest.Start(t, bin, cfg, n.rpc)
	return n
}

// call makes a JSON-RPC call and returns the result.
func (n *neogo) call(method string, params ...any) (json.RawMessage, error) {
	return n.Call(method, params...)
}

func (n *neogo) blockCount(t *testing.T) uint32 {
	res, err := n.call("getblockcount")
	require.NoError(t, err)
	var c uint32
	require.NoError(t, json.Unmarshal(res, &c))
	return c
}

// requireSameAsNeogo compares every block hash and state root of our
// chain with neo-go's.
func requireSameAsNeogo(t *testing.T, ng *neogo, n *node) {
	h := n.chain.BlockHeight()
	require.Equal(t, h+1, ng.blockCount(t))
	for i := uint32(0); i <= h; i++ {
		res, err := ng.call("getblockhash", i)
		require.NoError(t, err)
		var hash string
		require.NoError(t, json.Unmarshal(res, &hash))
		ours, ok := n.chain.GetHeaderHash(i)
		require.True(t, ok)
		require.Equal(t, hash, ours.String(), "block %d", i)

		res, err = ng.call("getstateroot", i)
		require.NoError(t, err)
		var sr struct {
			Root string `json:"roothash"`
		}
		require.NoError(t, json.Unmarshal(res, &sr))
		root, err := n.chain.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, sr.Root, root.Root.String(), "state root %d", i)
	}
}

// interopChains are the chains the interop tests run on: the reference
// chain, and the dump in INTEROP_ACC of the network in INTEROP_PROTOCOL
// when set (the script generates a chain longer than the sync window).
func interopChains(t *testing.T) map[string]chainSpec {
	m := map[string]chainSpec{testChain: refChain(t)}
	if p, a := os.Getenv("INTEROP_PROTOCOL"), os.Getenv("INTEROP_ACC"); p != "" && a != "" {
		m["generated"] = chainSpec{protocol: p, acc: a}
	}
	return m
}

func TestInteropSyncFromNeogo(t *testing.T) {
	for name, spec := range interopChains(t) {
		t.Run(name, func(t *testing.T) {
			ng := startNeogo(t, spec, true, nil)
			want := ng.blockCount(t) - 1
			start := time.Now()
			n := newNode(t, nodeOpts{spec: &spec, seeds: []string{ng.p2p}})
			require.Eventually(t, func() bool { return n.chain.BlockHeight() == want }, interopTimeout, 10*time.Millisecond)
			el := time.Since(start)
			t.Logf("n3d synced %d blocks from neo-go in %s (%.0f blocks/s)", want, el, float64(want)/el.Seconds())
			requireSameAsNeogo(t, ng, n)
			peers := n.srv.ConnectedPeers()
			require.NotEmpty(t, peers)
			t.Logf("peer: %+v", peers[0])
		})
	}
}

func TestInteropNeogoSyncsFromUs(t *testing.T) {
	for name, spec := range interopChains(t) {
		t.Run(name, func(t *testing.T) {
			n := newNode(t, nodeOpts{spec: &spec, restore: true})
			want := n.chain.BlockHeight()
			start := time.Now()
			ng := startNeogo(t, spec, false, []string{n.addr()})
			require.Eventually(t, func() bool { return ng.blockCount(t) == want+1 }, interopTimeout, 50*time.Millisecond)
			el := time.Since(start)
			t.Logf("neo-go synced %d blocks from n3d in %s including its start-up (%.0f blocks/s)", want, el, float64(want)/el.Seconds())
			requireSameAsNeogo(t, ng, n)
		})
	}
}
