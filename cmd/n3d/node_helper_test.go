package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/node/nodetest"
)

// singleConfig is the embedded single-validator privnet on loopback with
// free ports, an in-memory database and block time tpb (also the Policy
// value seeded at genesis); consensus as asked, with the repository's
// validator wallet.
func singleConfig(t *testing.T, consensus bool, tpb time.Duration) config.Config {
	return nodetest.SingleConfig(t, consensus, tpb)
}

// runningNode is a node run in-process (through pkg/node) for the
// commands under test to talk to.
type runningNode struct {
	t      *testing.T
	n      *node.Node
	url    string
	client *http.Client
}

// startNode starts a node on cfg, stopped when the test ends.
func startNode(t *testing.T, cfg config.Config) *runningNode {
	t.Helper()
	log := zap.NewNop()
	if testing.Verbose() {
		log = zaptest.NewLogger(t)
	}
	n, err := node.New(cfg, node.WithLogger(log))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, n.Stop()) })
	require.NoError(t, n.Start(context.Background()))
	addrs := n.RPCAddrs()
	require.NotEmpty(t, addrs, "RPC is off")
	return &runningNode{t: t, n: n, url: "http://" + addrs[0].String(),
		client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}}
}

// result sends one JSON-RPC request to the node, which must succeed.
func (r *runningNode) result(method string, params ...any) json.RawMessage {
	r.t.Helper()
	return (&nodetest.Client{URL: r.url, HTTP: r.client}).Result(r.t, method, params...)
}

// validatorKey decrypts the single validator's key from its wallet.
func validatorKey(t *testing.T, cfg config.Config) *keys.PrivateKey {
	t.Helper()
	cons := cfg.ApplicationConfiguration.Consensus
	cons.Enabled = true
	ks, err := node.ConsensusKeys(cons)
	require.NoError(t, err)
	require.Len(t, ks, 1)
	return ks[0]
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}
