package txbuild

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/stretchr/testify/require"
)

const testMagic = 860833102

// fakeNode answers with fixed figures and records what it was asked.
type fakeNode struct {
	count, sys, net int64
	err             error
	gotSigners      []transaction.Signer
	gotScript       []byte
	gotTx           *transaction.Transaction
}

func (f *fakeNode) GetBlockCount(context.Context) (uint32, error) { return uint32(f.count), f.err }

func (f *fakeNode) SystemFee(_ context.Context, script []byte, s []transaction.Signer) (int64, error) {
	f.gotSigners, f.gotScript = s, script
	return f.sys, f.err
}

func (f *fakeNode) CalculateNetworkFee(_ context.Context, tx *transaction.Transaction) (int64, error) {
	f.gotTx = tx.Copy()
	return f.net, f.err
}

func newKeys(t *testing.T, n int) []*keys.PrivateKey {
	t.Helper()
	out := make([]*keys.PrivateKey, n)
	for i := range out {
		k, err := keys.NewPrivateKey()
		require.NoError(t, err)
		out[i] = k
	}
	return out
}

// multisigAccount is the m-of-n account of ks holding no key.
func multisigAccount(t *testing.T, m int, ks []*keys.PrivateKey) *wallet.Account {
	t.Helper()
	pubs := make(keys.PublicKeys, len(ks))
	for i, k := range ks {
		pubs[i] = k.PublicKey()
	}
	script, err := scripts.MultiSigContract(m, pubs)
	require.NoError(t, err)
	params := make([]wallet.ContractParam, m)
	for i := range params {
		params[i].Type = smartcontract.SignatureType
	}
	return &wallet.Account{Address: scripts.Address(script), Contract: &wallet.Contract{Script: script, Parameters: params}}
}

func signer(t *testing.T, acc *wallet.Account, scope transaction.WitnessScope) Signer {
	t.Helper()
	s, err := AccountSigner(acc, scope)
	require.NoError(t, err)
	return s
}

func TestMake(t *testing.T) {
	k := newKeys(t, 1)[0]
	acc := wallet.NewAccountFromPrivateKey(k)
	node := &fakeNode{count: 10, sys: 1000, net: 300}
	b := Builder{Node: node, MaxValidUntilBlockIncrement: 5760}
	script := []byte{byte(opcode.PUSH1)}
	tx, err := b.Make(context.Background(), script, []Signer{signer(t, acc, transaction.CalledByEntry)},
		Fees{ExtraSystem: 7, ExtraNetwork: 11})
	require.NoError(t, err)
	require.EqualValues(t, 1007, tx.SystemFee)
	require.EqualValues(t, 311, tx.NetworkFee)
	require.EqualValues(t, 9+5760, tx.ValidUntilBlock, "height + MaxValidUntilBlockIncrement")
	require.Equal(t, script, tx.Script)
	require.Equal(t, []transaction.Signer{{Account: k.ScriptHash(), Scopes: transaction.CalledByEntry}}, tx.Signers)
	require.Equal(t, tx.Signers, node.gotSigners)
	require.Len(t, node.gotTx.Witnesses, 1)
	require.Equal(t, k.PublicKey().VerificationScript(), node.gotTx.Witnesses[0].VerificationScript)
	require.Empty(t, node.gotTx.Witnesses[0].InvocationScript)

	other, err := b.Make(context.Background(), script, []Signer{signer(t, acc, transaction.CalledByEntry)}, Fees{})
	require.NoError(t, err)
	require.NotEqual(t, tx.Hash(), other.Hash(), "nonces are random")

	require.Equal(t, script, node.gotScript)
	test := []byte{byte(opcode.PUSH2)}
	_, err = b.Make(context.Background(), script, []Signer{signer(t, acc, transaction.None)}, Fees{TestScript: test})
	require.NoError(t, err)
	require.Equal(t, test, node.gotScript, "the fee is measured on TestScript")

	_, err = b.Make(context.Background(), script, nil, Fees{})
	require.ErrorIs(t, err, ErrNoSigners)
	_, err = b.Make(context.Background(), script, []Signer{signer(t, acc, transaction.None)}, Fees{ExtraNetwork: -1})
	require.ErrorIs(t, err, ErrBadFee)
	boom := errors.New("boom")
	b.Node = &fakeNode{count: 1, err: boom}
	_, err = b.Make(context.Background(), script, []Signer{signer(t, acc, transaction.None)}, Fees{})
	require.ErrorIs(t, err, boom)
}

func TestSignStandardAndMultisig(t *testing.T) {
	ks := newKeys(t, 3)
	single := wallet.NewAccountFromPrivateKey(ks[0])
	multi := multisigAccount(t, 2, ks)
	tx := &transaction.Transaction{ValidUntilBlock: 10, Script: []byte{byte(opcode.PUSH1)}}
	signers := []Signer{signer(t, single, transaction.CalledByEntry), signer(t, multi, transaction.None)}
	for _, s := range signers {
		tx.Signers = append(tx.Signers, s.Signer)
	}
	// One key of two: not enough for the multisig.
	signers[1].Keys = []*keys.PrivateKey{ks[2]}
	require.ErrorIs(t, Sign(tx, testMagic, signers), ErrNotEnoughSignatures)
	signers[1].Keys = []*keys.PrivateKey{ks[2], ks[1]}
	require.NoError(t, Sign(tx, testMagic, signers))
	require.Len(t, tx.Witnesses, 2)
	digest := hash.Sha256(tx.SignData(testMagic))
	sig := tx.Witnesses[0].InvocationScript
	require.Len(t, sig, 2+keys.SignatureLen)
	require.True(t, ks[0].PublicKey().Verify(sig[2:], digest[:]))
	require.Equal(t, single.Contract.Script, tx.Witnesses[0].VerificationScript)
	inv := tx.Witnesses[1].InvocationScript
	require.Len(t, inv, 2*(2+keys.SignatureLen))
	_, pubs, ok := scripts.ParseMultiSigContract(multi.Contract.Script)
	require.True(t, ok)
	valid, err := scripts.VerifyMultiSig(digest[:], pubs, [][]byte{inv[2:66], inv[68:]})
	require.NoError(t, err)
	require.True(t, valid, "signatures in key order")

	// An account whose key is not open cannot sign.
	locked := &wallet.Account{Address: single.Address, Contract: single.Contract}
	require.ErrorIs(t, Sign(tx, testMagic, []Signer{{Signer: tx.Signers[0], WalletAccount: locked}, signers[1]}), ErrCannotSign)
}

func TestTransferScript(t *testing.T) {
	from, to := util.Uint160{1}, util.Uint160{2}
	got, err := TransferScript([]Transfer{{Token: GasHash, From: from, To: to, Amount: big.NewInt(5), Data: []byte{9}},
		{Token: NeoHash, From: from, To: to}})
	require.NoError(t, err)
	want, err := emit.NewBuilder().
		AppCall(GasHash, "transfer", byte(callflag.All), from, to, big.NewInt(5), []byte{9}).Opcodes(opcode.ASSERT).
		AppCall(NeoHash, "transfer", byte(callflag.All), from, to, big.NewInt(0), nil).Opcodes(opcode.ASSERT).Script()
	require.NoError(t, err)
	require.Equal(t, want, got)
	_, err = TransferScript(nil)
	require.ErrorIs(t, err, ErrNoTransfers)
	require.Equal(t, "0xd2a4cff31913016155e38e474a2c06d08be276cf", GasHash.String())
	require.Equal(t, "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", NeoHash.String())
}

// TestContextMultisig: a 2-of-3 context collects signatures across saves
// and completes into a witness that verifies.
func TestContextMultisig(t *testing.T) {
	ks := newKeys(t, 3)
	multi := multisigAccount(t, 2, ks)
	h, err := multi.ScriptHash()
	require.NoError(t, err)
	tx := &transaction.Transaction{Nonce: 5, SystemFee: 1, NetworkFee: 2, ValidUntilBlock: 10,
		Signers: []transaction.Signer{{Account: h, Scopes: transaction.CalledByEntry}}, Script: []byte{byte(opcode.PUSH1)}}
	c := NewContext(testMagic, tx)
	sign := func(c *Context, k *keys.PrivateKey) error {
		return c.AddSignature(h, multi.Contract, k.PublicKey(), k.Sign(c.Tx.SignData(c.Network)))
	}
	require.NoError(t, sign(c, ks[2]))
	require.ErrorIs(t, sign(c, ks[2]), ErrSigned)
	stranger := newKeys(t, 1)[0]
	require.ErrorIs(t, sign(c, stranger), ErrNotMember)
	_, err = c.CompleteTransaction()
	require.ErrorIs(t, err, ErrIncomplete)

	path := filepath.Join(t.TempDir(), "ctx.json")
	require.NoError(t, c.Save(path))
	back, err := ReadContext(path)
	require.NoError(t, err)
	require.Equal(t, tx.Hash(), back.Tx.Hash())
	require.Equal(t, uint32(testMagic), back.Network)
	require.NoError(t, sign(back, ks[0]))
	full, err := back.CompleteTransaction()
	require.NoError(t, err)
	require.Equal(t, multi.Contract.Script, full.Witnesses[0].VerificationScript)
	inv := full.Witnesses[0].InvocationScript
	require.Len(t, inv, 2*(2+keys.SignatureLen))
	digest := hash.Sha256(full.SignData(testMagic))
	_, pubs, _ := scripts.ParseMultiSigContract(multi.Contract.Script)
	valid, err := scripts.VerifyMultiSig(digest[:], pubs, [][]byte{inv[2:66], inv[68:]})
	require.NoError(t, err)
	require.True(t, valid)
	raw, err := full.Bytes()
	require.NoError(t, err)
	_, err = transaction.NewTransactionFromBytes(raw)
	require.NoError(t, err)
}

// TestContextJSON: the field names and forms of neo-go's files, and the
// checks on reading one.
func TestContextJSON(t *testing.T) {
	k := newKeys(t, 1)[0]
	acc := wallet.NewAccountFromPrivateKey(k)
	tx := &transaction.Transaction{ValidUntilBlock: 3, Script: []byte{byte(opcode.PUSH1)},
		Signers: []transaction.Signer{{Account: k.ScriptHash(), Scopes: transaction.Global}}}
	c := NewContext(testMagic, tx)
	sig := k.Sign(tx.SignData(testMagic))
	require.NoError(t, c.AddSignature(k.ScriptHash(), acc.Contract, k.PublicKey(), sig))
	raw, err := json.Marshal(c)
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	require.JSONEq(t, `"Neo.Network.P2P.Payloads.Transaction"`, string(m["type"]))
	require.JSONEq(t, `860833102`, string(m["network"]))
	require.JSONEq(t, `"`+tx.Hash().String()+`"`, string(m["hash"]))
	var items map[string]ContextItem
	require.NoError(t, json.Unmarshal(m["items"], &items))
	it := items[k.ScriptHash().String()]
	require.Equal(t, acc.Contract.Script, it.Script)
	require.Len(t, it.Parameters, 1)
	require.Equal(t, smartcontract.SignatureType, it.Parameters[0].Type)
	wantSig, err := json.Marshal(sig)
	require.NoError(t, err)
	require.JSONEq(t, string(wantSig), string(it.Parameters[0].Value))

	var back Context
	require.NoError(t, json.Unmarshal(raw, &back))
	again, err := json.Marshal(&back)
	require.NoError(t, err)
	require.JSONEq(t, string(raw), string(again))

	bad := map[string]string{
		"type":  `{"type":"x","network":1,"data":"AA==","items":{}}`,
		"data":  `{"type":"Neo.Network.P2P.Payloads.Transaction","network":1,"data":"AA==","items":{}}`,
		"hash":  `{"type":"Neo.Network.P2P.Payloads.Transaction","network":1,"hash":"0x` + util.Uint256{1}.StringBE() + `","data":` + string(m["data"]) + `,"items":{}}`,
		"item":  `{"type":"Neo.Network.P2P.Payloads.Transaction","network":1,"data":` + string(m["data"]) + `,"items":{"zz":{}}}`,
		"param": `{"type":"Neo.Network.P2P.Payloads.Transaction","network":1,"data":` + string(m["data"]) + `,"items":{"` + k.ScriptHash().String() + `":{"parameters":[{"type":"Nope"}]}}}`,
	}
	for name, s := range bad {
		var c Context
		require.ErrorIs(t, json.Unmarshal([]byte(s), &c), ErrContext, name)
	}
}
