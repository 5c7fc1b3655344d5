package node

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/services/oracle"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// askerContract is a contract whose ask(url) calls Oracle.request(url, no
// filter, "answer", "tag", 1 GAS) and whose answer(url, userData, code,
// result) emits Answered with its arguments; it returns the deployment
// script from sender and the contract's hash.
func askerContract(t *testing.T, sender util.Uint160) ([]byte, util.Uint160) {
	t.Helper()
	b := emit.NewBuilder()
	// ask(url): the arguments of request, last first, packed.
	b.Instruction(opcode.INITSLOT, []byte{0, 1}).Int(1_0000_0000).String("tag").String("answer").
		Opcodes(opcode.PUSHNULL, opcode.LDARG0, opcode.PUSH5, opcode.PACK).Int(int64(callflag.All)).
		String("request").Bytes(oracle.OracleHash.BytesLE()).Syscall(interop.ContractCall).Opcodes(opcode.RET)
	answer := b.Len()
	b.Instruction(opcode.INITSLOT, []byte{0, 4}).
		Opcodes(opcode.LDARG3, opcode.LDARG2, opcode.LDARG1, opcode.LDARG0, opcode.PUSH4, opcode.PACK).
		String("Answered").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
	script, err := b.Script()
	require.NoError(t, err)
	f, err := nef.NewFile("n3d-node-oracle-test", "", []nef.MethodToken{}, script)
	require.NoError(t, err)
	params := func(names ...string) []manifest.Parameter {
		out := make([]manifest.Parameter, len(names))
		for i, n := range names {
			out[i] = manifest.NewParameter(n, smartcontract.AnyType)
		}
		return out
	}
	m := manifest.DefaultManifest("Asker")
	m.ABI.Methods = []manifest.Method{
		{Name: "ask", Parameters: params("url"), ReturnType: smartcontract.AnyType, Offset: 0},
		{Name: "answer", Parameters: params("url", "userData", "code", "result"), ReturnType: smartcontract.VoidType, Offset: answer},
	}
	m.ABI.Events = []manifest.Event{{Name: "Answered", Parameters: params("url", "userData", "code", "result")}}
	raw, err := f.Bytes()
	require.NoError(t, err)
	js, err := m.MarshalJSON()
	require.NoError(t, err)
	mgmt := smartcontract.CreateContractHash(util.Uint160{}, 0, native.ManagementName)
	deploy, err := emit.NewBuilder().AppCall(mgmt, "deploy", byte(callflag.All), raw, js).Opcodes(opcode.DROP).Script()
	require.NoError(t, err)
	return deploy, smartcontract.CreateContractHash(sender, f.Checksum, m.Name)
}

// validatorInvoke runs script in a transaction of the single validator's
// account submitted to the node, and waits until a block holds it; it
// returns the block index after requiring a HALT.
func validatorInvoke(t *testing.T, n *Node, key *keys.PrivateKey, nonce uint32, script []byte) uint32 {
	t.Helper()
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	c := n.Chain()
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 100_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: c.BlockHeight() + 100, Script: script,
		Signers: []transaction.Signer{{Account: scripts.ScriptHash(verif), Scopes: transaction.CalledByEntry}}}
	sig := key.Sign(tx.SignData(uint32(c.Config().Magic)))
	tx.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: verif}}
	tx.InvalidateCache()
	require.NoError(t, n.SubmitTx(t.Context(), tx))
	var h uint32
	require.Eventually(t, func() bool {
		_, idx, err := c.GetTransaction(tx.Hash())
		h = idx
		return err == nil
	}, 30*time.Second, 10*time.Millisecond, "transaction %s not included", tx.Hash())
	res, err := c.GetAppExecResults(tx.Hash(), trigger.Application)
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.Equal(t, vm.HaltState, res[0].VMState, res[0].FaultException)
	return h
}

// TestNodeAnswersOracleRequest: a single-validator node whose key is the
// designated Oracle node (Genesis.Roles) and whose Oracle section is on
// with the same wallet answers a contract's request to a local HTTPS
// server: the response transaction, relayed through the node's pipeline,
// lands in a block and the contract's callback runs with the server's
// body.
func TestNodeAnswersOracleRequest(t *testing.T) {
	const body = `{"answer":42}`
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())

	cfg := singleConfig(t, true, 100*time.Millisecond)
	key := validatorKey(t, cfg)
	cfg.ProtocolConfiguration.Genesis.Roles = map[string][]string{"Oracle": {hex.EncodeToString(key.PublicKey().Bytes())}}
	o := &cfg.ApplicationConfiguration.Oracle
	o.Enabled, o.AllowPrivateHost = true, true
	o.UnlockWallet = cfg.ApplicationConfiguration.Consensus.UnlockWallet
	r := startNode(t, cfg, WithOracleTLS(&tls.Config{RootCAs: roots}),
		WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NotNil(t, r.n.Oracle())
	c := r.n.Chain()

	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	deploy, asker := askerContract(t, scripts.ScriptHash(verif))
	validatorInvoke(t, r.n, key, 1, deploy)
	script, err := emit.NewBuilder().AppCall(asker, "ask", byte(callflag.All), srv.URL+"/data").Script()
	require.NoError(t, err)
	asked := validatorInvoke(t, r.n, key, 2, script)

	// The response: a transaction with an OracleResponse attribute in a
	// block after the request's.
	var resp *transaction.Transaction
	next := asked + 1
	require.Eventually(t, func() bool {
		for ; next <= c.BlockHeight(); next++ {
			b, err := c.GetBlockByIndex(next)
			require.NoError(t, err)
			for _, tx := range b.Transactions {
				if len(tx.GetAttributes(transaction.AttrOracleResponse)) != 0 {
					resp = tx
					return true
				}
			}
		}
		return false
	}, 60*time.Second, 10*time.Millisecond, "no oracle response in a block")
	attr := resp.GetAttributes(transaction.AttrOracleResponse)[0].Value.(*transaction.OracleResponse)
	require.Equal(t, transaction.OracleSuccess, attr.Code)
	require.Equal(t, body, string(attr.Result))

	res, err := c.GetAppExecResults(resp.Hash(), trigger.Application)
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.Equal(t, vm.HaltState, res[0].VMState, res[0].FaultException)
	var answered []string
	for _, ev := range res[0].Events {
		if ev.ScriptHash != asker || ev.Name != "Answered" {
			continue
		}
		items := ev.Item.Items()
		require.Len(t, items, 4)
		for _, i := range []int{0, 1, 3} {
			bs, err := items[i].Bytes()
			require.NoError(t, err)
			answered = append(answered, string(bs))
		}
		code, err := items[2].BigInt()
		require.NoError(t, err)
		require.Zero(t, code.Sign(), "code Success")
	}
	require.Equal(t, []string{srv.URL + "/data", "tag", body}, answered,
		"the callback's notification: url, user data, code, result")
	r.stop()
	require.Equal(t, []string{"consensus", "stateroot", "rpc", "oracle", "p2p", "mempool", "monitor", "chain"}, r.stopOrder(),
		"the oracle stops after RPC (which feeds it signatures), before P2P and the pool it relays to")
}
