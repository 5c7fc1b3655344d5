//go:build interop

package node

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/n3d-io/n3d/internal/neogotest"
	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/node/nodetest"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// The notary interop test puts an in-process n3d node (pkg/node: chain,
// P2P, RPC, notary pool and, when asked, the notary service) on one
// P2PSigExtensions network with a real neo-go v0.122.0 (NEOGO_BIN; make
// interop-notary), the single validator. P2P notary requests are submitted
// through submitnotaryrequest to both nodes and must cross the P2P link
// (inventory 0x50) both ways.

const interopNotaryMagic = 4245

// notaryProtocol is the network's ProtocolConfiguration with notary the
// key designated for P2PNotary at genesis.
func notaryProtocol(validator, notary string) map[string]any {
	return map[string]any{
		"Magic": interopNotaryMagic, "MaxTraceableBlocks": 200000, "TimePerBlock": "1s", "MemPoolSize": 1000,
		"Genesis":          map[string]any{"TimePerBlock": "1s", "Roles": map[string]any{"P2PNotary": []string{notary}}},
		"StandbyCommittee": []string{validator}, "ValidatorsCount": 1, "VerifyTransactions": true,
		"P2PSigExtensions": true,
		"Hardforks": map[string]int{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0,
			"Echidna": 0, "Faun": 0, "Gorgon": 0},
	}
}

// neogoNode is a running neo-go node.
type neogoNode struct {
	t        *testing.T
	p2p, rpc string
}

// startNeogoNotary runs neo-go as the validator (wallet w, password one)
// with its P2PNotary service on with the same wallet when notary is set.
func startNeogoNotary(t *testing.T, protocol map[string]any, w string, notary bool) *neogoNode {
	bin := neogotest.Bin(t, "run scripts/neogo-notary-interop.sh (make interop-notary)")
	dir := t.TempDir()
	n := &neogoNode{t: t, p2p: neogotest.FreeAddr(t), rpc: neogotest.FreeAddr(t)}
	unlock := map[string]any{"Path": w, "Password": "one"}
	app := map[string]any{
		"DBConfiguration": map[string]any{"Type": "inmemory"},
		"P2P": map[string]any{"Addresses": []string{n.p2p}, "MinPeers": 0, "AttemptConnPeers": 0, "MaxPeers": 10,
			"PingInterval": "30s", "PingTimeout": "90s", "ProtoTickInterval": "1s", "DialTimeout": "3s"},
		"Relay":     true,
		"Consensus": map[string]any{"Enabled": true, "UnlockWallet": unlock},
		"P2PNotary": map[string]any{"Enabled": notary, "UnlockWallet": unlock},
		"RPC":       map[string]any{"Enabled": true, "Addresses": []string{n.rpc}},
	}
	cfgPath := neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"),
		map[string]any{"ProtocolConfiguration": protocol, "ApplicationConfiguration": app})
	neogotest.Start(t, bin, cfgPath, n.rpc)
	return n
}

// call asks neo-go; the error is neo-go's JSON-RPC error, a request that
// gets no answer fails the test.
func (n *neogoNode) call(method string, params ...any) (json.RawMessage, *result.Error) {
	n.t.Helper()
	return nodetest.NewClient("http://"+n.rpc).Call(n.t, method, params...)
}

func (n *neogoNode) result(t *testing.T, method string, params ...any) json.RawMessage {
	t.Helper()
	res, e := n.call(method, params...)
	require.Nil(t, e, "%s: %v", method, e)
	return res
}

// neogoHas reports whether neo-go's chain holds tx h with a HALT.
func (n *neogoNode) halted(t *testing.T, h string) bool {
	res, e := n.call("getapplicationlog", h)
	if e != nil {
		return false
	}
	var log struct {
		Executions []struct {
			VMState string `json:"vmstate"`
		} `json:"executions"`
	}
	require.NoError(t, json.Unmarshal(res, &log))
	return len(log.Executions) == 1 && log.Executions[0].VMState == "HALT"
}

// startN3dNotary runs the n3d node dialling neo-go, with its notary
// service on with wallet w (password pw) when w is set.
func startN3dNotary(t *testing.T, protocol map[string]any, seed, w, pw string) *runningNode {
	b, err := yaml.Marshal(map[string]any{"ProtocolConfiguration": protocol,
		"ApplicationConfiguration": map[string]any{"DBConfiguration": map[string]any{"Type": "inmemory"}}})
	require.NoError(t, err)
	cfg, err := config.Parse(b, "")
	require.NoError(t, err)
	cfg.ProtocolConfiguration.SeedList = []string{seed}
	a := &cfg.ApplicationConfiguration
	a.P2P.Addresses = []string{"127.0.0.1:0"}
	a.P2P.MinPeers, a.P2P.MaxPeers, a.P2P.AttemptConnPeers = 1, 10, 5
	a.P2P.ProtoTickInterval, a.P2P.DialTimeout = 100*time.Millisecond, time.Second
	a.RPC.Enabled, a.RPC.Addresses = true, []string{"127.0.0.1:0"}
	if w != "" {
		a.P2PNotary.Enabled = true
		a.P2PNotary.UnlockWallet = config.Wallet{Path: w, Password: pw}
	}
	reg := prometheus.NewRegistry()
	r := startNode(t, cfg, WithMetrics(reg, reg))
	require.Eventually(t, func() bool { return r.n.PeerCount() > 0 }, 30*time.Second, 50*time.Millisecond,
		"n3d did not connect to neo-go")
	return r
}

// sameAnswer requires the same answer (result or error) from both nodes.
func sameAnswer(t *testing.T, ng *neogoNode, r *runningNode, method string, params ...any) json.RawMessage {
	t.Helper()
	res, e := ng.call(method, params...)
	ours, oe := r.call(method, params...)
	require.Equal(t, e, oe, "%s %v: errors (neo-go, n3d)", method, params)
	if e == nil {
		require.JSONEq(t, string(res), string(ours), "%s %v", method, params)
	}
	return res
}

// TestInteropNotary: for each notary node, neo-go's and n3d's: a 2-of-3
// multisig main transaction whose two requests are submitted one to each
// node completes and runs on both chains; a lone request's fallback is
// completed after its NotValidBefore and runs on both; the pool methods
// (getrawnotarypool, getrawnotarytransaction both forms, a duplicate and
// an unknown hash) answer the same on both nodes while a request waits.
func TestInteropNotary(t *testing.T) {
	vPath := repoConfig(t, "wallet.privnet.single.json")
	vKey := testwallet.Key(t, vPath, "one")
	w2Path, err := filepath.Abs(filepath.Join("..", "wallet", "testdata", "neogo_wallet2.json"))
	require.NoError(t, err)
	w2Key := testwallet.Key(t, w2Path, "two")
	for _, tc := range []struct {
		name   string
		notary *keys.PrivateKey
		neogo  bool // the notary service runs in neo-go (else in n3d)
	}{{"neogo-notary", vKey, true}, {"n3d-notary", w2Key, false}} {
		t.Run(tc.name, func(t *testing.T) {
			protocol := notaryProtocol(vKey.PublicKey().String(), tc.notary.PublicKey().String())
			ng := startNeogoNotary(t, protocol, vPath, tc.neogo)
			w, pw := "", ""
			if !tc.neogo {
				w, pw = w2Path, "two"
			}
			r := startN3dNotary(t, protocol, ng.p2p, w, pw)
			if !tc.neogo {
				require.NotNil(t, r.n.Notary())
			}
			runNotaryInterop(t, ng, r, vKey)
		})
	}
}

func runNotaryInterop(t *testing.T, ng *neogoNode, r *runningNode, vKey *keys.PrivateKey) {
	c := r.n.Chain()
	p := newParties(t, interopNotaryMagic, 2, 3)
	fundParties(t, r.n, vKey, p)

	// A main transaction: party 0's request to n3d, then the pool answers
	// compared once neo-go has it too, then party 1's to neo-go.
	script, err := emit.NewBuilder().AppCall(gasHash, "transfer", byte(callflag.All), p.acc, vKey.ScriptHash(),
		int64(1_0000_0000), nil).Opcodes(opcode.ASSERT).Script()
	require.NoError(t, err)
	h := c.BlockHeight()
	main := p.mainTx(t, script, h+100)
	req0 := p.request(t, main, 0, h+60)
	r.result("submitnotaryrequest", reqBase64(t, req0))
	fb0 := req0.FallbackTransaction.Hash().String()
	require.Eventually(t, func() bool {
		res, e := ng.call("getrawnotarypool")
		return e == nil && bytes.Contains(res, []byte(fb0))
	}, 20*time.Second, 50*time.Millisecond, "neo-go did not receive the request over P2P")
	sameAnswer(t, ng, r, "getrawnotarypool")
	for _, hh := range []string{main.Hash().String(), fb0} {
		sameAnswer(t, ng, r, "getrawnotarytransaction", hh)
		sameAnswer(t, ng, r, "getrawnotarytransaction", hh, true)
		sameAnswer(t, ng, r, "getrawnotarytransaction", hh, 1)
	}
	sameAnswer(t, ng, r, "getrawnotarytransaction", "0x"+hexZeros(64))
	sameAnswer(t, ng, r, "submitnotaryrequest", reqBase64(t, req0)) // a duplicate

	req1 := p.request(t, main, 1, h+60)
	ng.result(t, "submitnotaryrequest", reqBase64(t, req1))
	waitIncluded(t, r.n, main.Hash())
	require.Eventually(t, func() bool { return ng.halted(t, main.Hash().String()) }, 20*time.Second,
		50*time.Millisecond, "main transaction not on neo-go's chain")
	require.Eventually(t, func() bool { return len(notaryPool(t, r)) == 0 }, 10*time.Second, 50*time.Millisecond)
	sameAnswer(t, ng, r, "getrawnotarypool")

	// A lone request submitted to neo-go: its fallback after NotValidBefore.
	h = c.BlockHeight()
	lone := p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100)
	req2 := p.request(t, lone, 2, h+4)
	ng.result(t, "submitnotaryrequest", reqBase64(t, req2))
	fb2 := req2.FallbackTransaction.Hash()
	waitIncluded(t, r.n, fb2)
	require.Eventually(t, func() bool { return ng.halted(t, fb2.String()) }, 20*time.Second, 50*time.Millisecond,
		"fallback not on neo-go's chain")
	// And one submitted to n3d.
	h = c.BlockHeight()
	lone2 := p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100)
	req3 := p.request(t, lone2, 1, h+4)
	r.result("submitnotaryrequest", reqBase64(t, req3))
	waitIncluded(t, r.n, req3.FallbackTransaction.Hash())
	require.Eventually(t, func() bool { return ng.halted(t, req3.FallbackTransaction.Hash().String()) },
		20*time.Second, 50*time.Millisecond, "fallback not on neo-go's chain")

	refusedAsNeogo(t, ng, r, p)

	// Both chains agree on every block and state root.
	top := c.BlockHeight()
	for i := uint32(0); i <= top; i++ {
		var root struct {
			Root string `json:"roothash"`
		}
		require.NoError(t, json.Unmarshal(ng.result(t, "getstateroot", i), &root))
		ours, err := c.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, root.Root, ours.Root.String(), "state root %d", i)
	}
}

func hexZeros(n int) string { return string(bytes.Repeat([]byte{'0'}, n)) }

// refusedAsNeogo submits requests both nodes must refuse to both and
// requires the same error (code, message, data) from each.
func refusedAsNeogo(t *testing.T, ng *neogoNode, r *runningNode, p *multisigParties) {
	h := r.n.Chain().BlockHeight()
	cases := map[string]func() *payload.P2PNotaryRequest{
		"payload witness of another key": func() *payload.P2PNotaryRequest {
			q := p.request(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100), 0, h+60)
			q.Witness.InvocationScript = sigPush(p.keys[1].Sign(q.SignData(p.magic)))
			return q
		},
		"NotValidBefore beyond MaxNotValidBeforeDelta": func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100), 0, h+200)
		},
		"NotValidBefore too far below ValidUntilBlock": func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+300), 0, h+10)
		},
		"fallback valid after the deposit unlocks": func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+6000), 0, h+5900)
		},
		"fallback network fee too small": func() *payload.P2PNotaryRequest {
			return p.requestWith(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100), 0, h+60,
				func(fb *transaction.Transaction) { fb.NetworkFee = 1000 })
		},
		"fallback fees above the deposit": func() *payload.P2PNotaryRequest {
			return p.requestWith(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100), 0, h+60,
				func(fb *transaction.Transaction) { fb.SystemFee = 5_0000_0000 })
		},
		"expired": func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, []byte{byte(opcode.PUSH1)}, h), 0, h)
		},
	}
	for name, mk := range cases {
		q := mk()
		res, e := ng.call("submitnotaryrequest", reqBase64(t, q))
		require.NotNil(t, e, "%s: neo-go accepted it: %s", name, res)
		_, oe := r.call("submitnotaryrequest", reqBase64(t, q))
		require.Equal(t, e, oe, "%s: errors (neo-go, n3d)", name)
	}
}
