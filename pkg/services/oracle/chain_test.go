package oracle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// testChain is a real chain whose single validator (and committee, and
// genesis holder) key the test holds: a tiny block producer. It deploys
// the consumer contract and designates the oracle nodes.
type testChain struct {
	t        *testing.T
	c        *chain.Chain
	key      *keys.PrivateKey
	acc      util.Uint160
	accVerif []byte
	nonce    uint32
	consumer util.Uint160
}

func testKey(t testing.TB, seed string) *keys.PrivateKey {
	s := sha256.Sum256([]byte(seed))
	k, err := keys.NewPrivateKeyFromBytes(s[:])
	require.NoError(t, err)
	return k
}

// newTestChain opens the unit_testnet configuration with one validator,
// designates oracles, deploys the consumer contract.
func newTestChain(t *testing.T, oracles keys.PublicKeys) *testChain {
	data, ok := config.Embedded(config.NetUnitTestNet)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	p := cfg.ProtocolConfiguration
	key := testKey(t, "n3d oracle test validator")
	p.StandbyCommittee = []string{hex.EncodeToString(key.PublicKey().Bytes())}
	p.ValidatorsCount = 1
	natives, err := chain.NewNativeSet(&p)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: p, Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	verif, err := scripts.DefaultMultiSigContract(keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	tc := &testChain{t: t, c: c, key: key, acc: scripts.ScriptHash(verif), accVerif: verif}
	for range 5 { // past the hardfork heights
		tc.add()
	}
	roles := make([]any, len(oracles))
	for i, k := range oracles {
		roles[i] = k.Bytes()
	}
	roleHash := smartcontract.CreateContractHash(util.Uint160{}, 0, native.DesignateName)
	deploy, h := consumerDeploy(t, tc.acc)
	tc.consumer = h
	tc.addHalt(tc.tx(tc.call(roleHash, "designateAsRole", int64(native.RoleOracle), roles)), tc.tx(deploy))
	return tc
}

// consumerDeploy is the deployment of the consumer contract: request(url,
// filter, gas) asks the oracle with callback "callback" and user data
// "ud"; callback(url, userData, code, result) notifies Done with them.
func consumerDeploy(t *testing.T, sender util.Uint160) ([]byte, util.Uint160) {
	b := emit.NewBuilder()
	b.Instruction(opcode.INITSLOT, []byte{0, 3}).Opcodes(opcode.LDARG2).String("ud").String("callback").
		Opcodes(opcode.LDARG1, opcode.LDARG0, opcode.PUSH5, opcode.PACK, opcode.PUSH15).
		String("request").Bytes(OracleHash.BytesLE()).Syscall(interop.ContractCall).Opcodes(opcode.RET)
	cbOffset := b.Len()
	b.Instruction(opcode.INITSLOT, []byte{0, 4}).
		Opcodes(opcode.LDARG3, opcode.LDARG2, opcode.LDARG1, opcode.LDARG0, opcode.PUSH4, opcode.PACK).
		String("Done").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
	script, err := b.Script()
	require.NoError(t, err)
	f, err := nef.NewFile("n3d-oracle-test", "", []nef.MethodToken{}, script)
	require.NoError(t, err)
	m := manifest.DefaultManifest("OracleConsumer")
	anyP := func(n ...string) []manifest.Parameter {
		out := make([]manifest.Parameter, len(n))
		for i, s := range n {
			out[i] = manifest.NewParameter(s, smartcontract.AnyType)
		}
		return out
	}
	m.ABI.Methods = []manifest.Method{
		{Name: "request", Parameters: anyP("url", "filter", "gas"), ReturnType: smartcontract.AnyType, Offset: 0},
		{Name: "callback", Parameters: anyP("url", "userData", "code", "result"), ReturnType: smartcontract.VoidType, Offset: cbOffset},
	}
	m.ABI.Events = []manifest.Event{{Name: "Done", Parameters: anyP("url", "userData", "code", "result")}}
	raw, err := f.Bytes()
	require.NoError(t, err)
	js, err := m.MarshalJSON()
	require.NoError(t, err)
	mgmt := smartcontract.CreateContractHash(util.Uint160{}, 0, native.ManagementName)
	deploy, err := emit.NewBuilder().AppCall(mgmt, "deploy", byte(callflag.All), raw, js).Opcodes(opcode.DROP).Script()
	require.NoError(t, err)
	return deploy, smartcontract.CreateContractHash(sender, f.Checksum, m.Name)
}

func (tc *testChain) call(h util.Uint160, method string, args ...any) []byte {
	s, err := emit.NewBuilder().AppCall(h, method, byte(callflag.All), args...).Script()
	require.NoError(tc.t, err)
	return s
}

// tx is a transaction of script from the validator account with generous
// fees, signed.
func (tc *testChain) tx(script []byte) *transaction.Transaction {
	tc.nonce++
	tx := &transaction.Transaction{Nonce: tc.nonce, SystemFee: 100_0000_0000, NetworkFee: 1_0000_0000, Script: script,
		ValidUntilBlock: tc.c.BlockHeight() + 100,
		Signers:         []transaction.Signer{{Account: tc.acc, Scopes: transaction.CalledByEntry}}}
	sig := tc.key.Sign(tx.SignData(uint32(tc.c.Config().Magic)))
	tx.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: tc.accVerif}}
	tx.InvalidateCache()
	return tx
}

// add makes, verifies and stores the next block with txs.
func (tc *testChain) add(txs ...*transaction.Transaction) *block.Block {
	prev, err := tc.c.GetHeader(tc.c.CurrentBlockHash())
	require.NoError(tc.t, err)
	b := &block.Block{Header: block.Header{PrevHash: prev.Hash(), Timestamp: prev.Timestamp + 1000,
		Index: prev.Index + 1, NextConsensus: tc.acc}, Transactions: txs}
	b.RebuildMerkleRoot()
	sig := tc.key.Sign(b.SignData(uint32(tc.c.Config().Magic)))
	b.Witness = transaction.Witness{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: tc.accVerif}
	for _, tx := range txs {
		require.NoError(tc.t, tc.c.VerifyTx(tx), "transaction %s", tx.Hash())
	}
	require.NoError(tc.t, tc.c.AddBlock(b))
	return b
}

// addHalt adds a block and requires every transaction to HALT.
func (tc *testChain) addHalt(txs ...*transaction.Transaction) *block.Block {
	b := tc.add(txs...)
	for _, tx := range txs {
		res := tc.appLog(tx.Hash())
		require.Equal(tc.t, vm.HaltState, res.VMState, "transaction %s: %s", tx.Hash(), res.FaultException)
	}
	return b
}

func (tc *testChain) appLog(h util.Uint256) state.AppExecResult {
	res, err := tc.c.GetAppExecResults(h, trigger.Application)
	require.NoError(tc.t, err)
	require.Len(tc.t, res, 1)
	return res[0]
}

// request makes the consumer ask for url with filter (nil: none) and
// gasForResponse; it returns the request's block.
func (tc *testChain) request(url string, filter *string, gas int64) *block.Block {
	var f any
	if filter != nil {
		f = *filter
	}
	return tc.addHalt(tc.tx(tc.call(tc.consumer, "request", url, f, gas)))
}

// done returns the Done notification of the response transaction h:
// url, user data, code, result.
func (tc *testChain) done(h util.Uint256) (string, string, transaction.OracleResponseCode, string) {
	res := tc.appLog(h)
	require.Equal(tc.t, vm.HaltState, res.VMState, res.FaultException)
	for _, ev := range res.Events {
		if ev.ScriptHash != tc.consumer || ev.Name != "Done" {
			continue
		}
		items := ev.Item.Items()
		require.Len(tc.t, items, 4)
		url, err := items[0].Bytes()
		require.NoError(tc.t, err)
		ud, err := items[1].Bytes()
		require.NoError(tc.t, err)
		code, err := items[2].BigInt()
		require.NoError(tc.t, err)
		result, err := items[3].Bytes()
		require.NoError(tc.t, err)
		return string(url), string(ud), transaction.OracleResponseCode(code.Int64()), string(result)
	}
	tc.t.Fatalf("no Done notification in %s: %v", h, res.Events)
	return "", "", 0, ""
}

var _ = fmt.Sprintf
var _ = big.NewInt
