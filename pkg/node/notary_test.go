package node

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/services/notary"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

var gasHash = smartcontract.CreateContractHash(util.Uint160{}, 0, native.GasName)

// notaryConfig is the single-validator network with P2PSigExtensions, the
// validator's key designated for P2PNotary at genesis and, when service
// is set, the notary service on with the validator's wallet.
func notaryConfig(t *testing.T, service bool) (config.Config, *keys.PrivateKey) {
	t.Helper()
	cfg := singleConfig(t, true, 100*time.Millisecond)
	key := validatorKey(t, cfg)
	p := &cfg.ProtocolConfiguration
	p.P2PSigExtensions = true
	p.P2PNotaryRequestPayloadPoolSize = config.DefaultP2PNotaryRequestPayloadPoolSize
	p.Genesis.Roles = map[string][]string{"P2PNotary": {hex.EncodeToString(key.PublicKey().Bytes())}}
	a := &cfg.ApplicationConfiguration
	a.P2PNotary.Enabled = service
	a.P2PNotary.UnlockWallet = a.Consensus.UnlockWallet
	return cfg, key
}

// fundParties gives the parties' account 10 GAS and each party a 2 GAS
// Notary deposit, from the validator.
func fundParties(t *testing.T, n *Node, key *keys.PrivateKey, p *multisigParties) {
	t.Helper()
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	from := scripts.ScriptHash(verif)
	b := emit.NewBuilder().AppCall(gasHash, "transfer", byte(callflag.All), from, p.acc, int64(10_0000_0000), nil).
		Opcodes(opcode.ASSERT)
	for _, k := range p.keys {
		b.AppCall(gasHash, "transfer", byte(callflag.All), from, notary.NotaryHash, int64(2_0000_0000),
			[]any{k.ScriptHash(), int64(n.Chain().BlockHeight() + 1000)}).Opcodes(opcode.ASSERT)
	}
	script, err := b.Script()
	require.NoError(t, err)
	validatorInvoke(t, n, key, randNonce(t), script)
}

func reqBase64(t *testing.T, r *payload.P2PNotaryRequest) string {
	raw, err := r.Bytes()
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(raw)
}

// waitIncluded waits until tx is in a block and requires a HALT.
func waitIncluded(t *testing.T, n *Node, h util.Uint256) {
	t.Helper()
	c := n.Chain()
	require.Eventually(t, func() bool { _, _, err := c.GetTransaction(h); return err == nil },
		30*time.Second, 10*time.Millisecond, "transaction %s not included", h)
	res, err := c.GetAppExecResults(h, trigger.Application)
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.Equal(t, vm.HaltState, res[0].VMState, res[0].FaultException)
}

func notaryPool(t *testing.T, r *runningNode) map[string][]string {
	var out struct {
		Hashes map[string][]string `json:"hashes"`
	}
	require.NoError(t, json.Unmarshal(r.result("getrawnotarypool"), &out))
	return out.Hashes
}

// TestNodeNotaryCompletesMultisig: on a P2PSigExtensions network whose
// single validator is also the designated notary node, two of the three
// keys of a 2-of-3 account each submit a P2P notary request over RPC; the
// pool lists the first (getrawnotarypool, getrawnotarytransaction), the
// notary service completes the main transaction with the second signature
// and the Notary witness, it lands in a block, and the pool drops both
// requests. A request with a payload witness of the wrong key is refused
// as neo-go words it.
func TestNodeNotaryCompletesMultisig(t *testing.T) {
	cfg, key := notaryConfig(t, true)
	r := startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NotNil(t, r.n.Notary())
	c := r.n.Chain()
	p := newParties(t, uint32(cfg.ProtocolConfiguration.Magic), 2, 3)
	fundParties(t, r.n, key, p)

	dest := key.ScriptHash()
	script, err := emit.NewBuilder().AppCall(gasHash, "transfer", byte(callflag.All), p.acc, dest, int64(1_0000_0000), nil).
		Opcodes(opcode.ASSERT).Script()
	require.NoError(t, err)
	h := c.BlockHeight()
	main := p.mainTx(t, script, h+200)
	// NotValidBefore far ahead (the most MaxNotValidBeforeDelta allows):
	// the fallbacks must not be due before the second signature arrives.
	req0 := p.request(t, main, 0, h+130)

	// A payload witness by another key than the fallback's payer.
	bad := p.request(t, main, 0, h+130)
	bad.Witness.InvocationScript = sigPush(p.keys[1].Sign(bad.SignData(p.magic)))
	_, e := r.call("submitnotaryrequest", reqBase64(t, bad))
	require.NotNil(t, e)
	require.Equal(t, int64(-508), e.Code, "neo-go's invalid signature")
	require.Contains(t, e.Data, "failed to add fallback transaction to the notary pool: data verification failed: bad P2PNotaryRequest payload witness")

	res := r.result("submitnotaryrequest", reqBase64(t, req0))
	require.JSONEq(t, `{"hash":"`+req0.FallbackTransaction.Hash().String()+`"}`, string(res))
	_, e = r.call("submitnotaryrequest", reqBase64(t, req0))
	require.NotNil(t, e, "a duplicate request")
	require.Equal(t, map[string][]string{main.Hash().String(): {req0.FallbackTransaction.Hash().String()}},
		notaryPool(t, r))
	var got transaction.Transaction
	raw := r.result("getrawnotarytransaction", main.Hash().String(), true)
	require.NoError(t, json.Unmarshal(raw, &got), string(raw))
	require.Equal(t, main.Hash(), got.Hash())

	req1 := p.request(t, main, 1, h+130)
	r.result("submitnotaryrequest", reqBase64(t, req1))
	waitIncluded(t, r.n, main.Hash())
	require.Eventually(t, func() bool { return len(notaryPool(t, r)) == 0 }, 10*time.Second, 10*time.Millisecond,
		"the pool drops the requests of an included main transaction")
	r.stop()
	require.Equal(t, []string{"consensus", "stateroot", "rpc", "notary", "p2p", "mempool", "monitor", "chain"},
		r.stopOrder())
}

// TestNodeNotarySendsFallback: when only one of the two signatures a main
// transaction needs arrives, the notary service completes that request's
// fallback once the height reaches its NotValidBefore; the fallback lands
// in a block, paid from the party's deposit, and the main transaction it
// conflicts with can no longer be.
func TestNodeNotarySendsFallback(t *testing.T) {
	cfg, key := notaryConfig(t, true)
	r := startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	c := r.n.Chain()
	p := newParties(t, uint32(cfg.ProtocolConfiguration.Magic), 2, 3)
	fundParties(t, r.n, key, p)
	h := c.BlockHeight()
	main := p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100)
	req := p.request(t, main, 2, h+5)
	dep, _, err := c.NotaryDeposit(p.keys[2].ScriptHash())
	require.NoError(t, err)
	r.result("submitnotaryrequest", reqBase64(t, req))
	fb := req.FallbackTransaction.Hash()
	waitIncluded(t, r.n, fb)
	_, idx, err := c.GetTransaction(fb)
	require.NoError(t, err)
	require.GreaterOrEqual(t, idx, h+5, "not before NotValidBefore")
	after, _, err := c.NotaryDeposit(p.keys[2].ScriptHash())
	require.NoError(t, err)
	ftx := req.FallbackTransaction
	require.Equal(t, dep.Int64()-ftx.SystemFee-ftx.NetworkFee, after.Int64(), "the deposit paid the fallback")
	require.Eventually(t, func() bool { return len(notaryPool(t, r)) == 0 }, 10*time.Second, 10*time.Millisecond)
	_, _, err = c.GetTransaction(main.Hash())
	require.Error(t, err, "the main transaction is not on chain")
}

// TestNodeNotaryPoolWithoutService: a P2PSigExtensions node without the
// notary service pools and lists requests, completes nothing; without
// P2PSigExtensions the methods answer as neo-go's.
func TestNodeNotaryPoolWithoutService(t *testing.T) {
	cfg, key := notaryConfig(t, false)
	r := startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.Nil(t, r.n.Notary())
	p := newParties(t, uint32(cfg.ProtocolConfiguration.Magic), 1, 1)
	fundParties(t, r.n, key, p)
	h := r.n.Chain().BlockHeight()
	main := p.mainTx(t, []byte{byte(opcode.PUSH1)}, h+100)
	req := p.request(t, main, 0, h+60)
	r.result("submitnotaryrequest", reqBase64(t, req))
	require.Len(t, notaryPool(t, r), 1)
	r.stop()

	off := singleConfig(t, false, time.Second)
	r2 := startNode(t, off, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	for _, m := range []string{"getrawnotarypool", "submitnotaryrequest", "getrawnotarytransaction"} {
		_, e := r2.call(m)
		require.NotNil(t, e, m)
		require.Equal(t, int64(-32603), e.Code, m)
	}
}

// TestNodeNotaryRefusals: submitnotaryrequest refuses what neo-go refuses,
// in its words (codes, messages and data as neo-go v0.122.0 answered the
// same requests in TestInteropNotary; heights and sizes as patterns).
func TestNodeNotaryRefusals(t *testing.T) {
	cfg, key := notaryConfig(t, false)
	r := startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	p := newParties(t, uint32(cfg.ProtocolConfiguration.Magic), 1, 2)
	fundParties(t, r.n, key, p)
	h := r.n.Chain().BlockHeight()
	push1 := []byte{byte(opcode.PUSH1)}
	const prefix = `^failed to add fallback transaction to the notary pool: `
	for _, tc := range []struct {
		name string
		req  func() *payload.P2PNotaryRequest
		code int64
		msg  string
		data string
	}{
		{"payload witness of another key", func() *payload.P2PNotaryRequest {
			q := p.request(t, p.mainTx(t, push1, h+100), 0, h+60)
			q.Witness.InvocationScript = sigPush(p.keys[1].Sign(q.SignData(p.magic)))
			return q
		}, -508, "Invalid signature", prefix + `data verification failed: bad P2PNotaryRequest payload witness: signature check failed: invalid signature$`},
		{"NotValidBefore beyond MaxNotValidBeforeDelta", func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, push1, h+400), 0, h+300)
		}, -507, "Invalid transaction attribute", prefix + `invalid attribute: NotValidBefore \(\d+\) bigger than MaxNVBDelta \(140\) allows at height \d+$`},
		{"NotValidBefore too far below ValidUntilBlock", func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, push1, h+300), 0, h+10)
		}, -507, "Invalid transaction attribute", prefix + `invalid attribute: NotValidBefore \(\d+\) set more than MaxNVBDelta \(140\) away from VUB \(\d+\)$`},
		{"fallback valid after the deposit unlocks", func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, push1, h+6000), 0, h+5900)
		}, -500, "Unclassified inventory verification error", prefix + `data verification failed: fallback transaction is valid after deposit is unlocked: ValidUntilBlock is \d+, deposit lock for N\w+ expires at \d+$`},
		{"fallback network fee too small", func() *payload.P2PNotaryRequest {
			return p.requestWith(t, p.mainTx(t, push1, h+100), 0, h+60,
				func(fb *transaction.Transaction) { fb.NetworkFee = 1000 })
		}, -504, "Insufficient network fee", prefix + `too small network fee: net fee is 1000, need \d+$`},
		{"fallback fees above the deposit", func() *payload.P2PNotaryRequest {
			return p.requestWith(t, p.mainTx(t, push1, h+100), 0, h+60,
				func(fb *transaction.Transaction) { fb.SystemFee = 5_0000_0000 })
		}, -511, "Insufficient funds", prefix + `insufficient funds$`},
		{"expired", func() *payload.P2PNotaryRequest {
			return p.request(t, p.mainTx(t, push1, h), 0, h)
		}, -510, "Expired transaction", prefix + `transaction has expired: ValidUntilBlock = \d+, current height = \d+$`},
	} {
		_, e := r.call("submitnotaryrequest", reqBase64(t, tc.req()))
		require.NotNil(t, e, tc.name)
		require.Equal(t, tc.code, e.Code, "%s: %v", tc.name, e)
		require.Equal(t, tc.msg, e.Message, tc.name)
		require.Regexp(t, tc.data, e.Data, tc.name)
	}
	require.Empty(t, notaryPool(t, r))
}
