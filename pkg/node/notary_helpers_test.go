package node

import (
	"crypto/rand"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/services/notary"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// multisigParties are the keys of an m-of-n account whose transactions
// the parties sign through P2P notary requests, each with its own Notary
// deposit paying its fallback.
type multisigParties struct {
	magic uint32
	keys  []*keys.PrivateKey
	verif []byte // the m-of-n verification script
	acc   util.Uint160
}

func newParties(t *testing.T, magic uint32, m, n int) *multisigParties {
	t.Helper()
	p := &multisigParties{magic: magic}
	pubs := make(keys.PublicKeys, n)
	for i := range n {
		k, err := keys.NewPrivateKey()
		require.NoError(t, err)
		p.keys = append(p.keys, k)
		pubs[i] = k.PublicKey()
	}
	var err error
	p.verif, err = scripts.MultiSigContract(m, pubs)
	require.NoError(t, err)
	p.acc = scripts.ScriptHash(p.verif)
	return p
}

func sigPush(sig []byte) []byte { return append([]byte{byte(opcode.PUSHDATA1), 64}, sig...) }

func randNonce(t *testing.T) uint32 {
	var b [4]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	return binary.LittleEndian.Uint32(b[:])
}

// mainTx is a NotaryAssisted transaction of the parties' account (sender,
// CalledByEntry) and the Notary contract (no scope) running script, with
// every witness left empty; its NKeys counts all the account's keys, as a
// multisignature request must.
func (p *multisigParties) mainTx(t *testing.T, script []byte, vub uint32) *transaction.Transaction {
	t.Helper()
	tx := &transaction.Transaction{Nonce: randNonce(t), SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: vub, Script: script,
		Signers: []transaction.Signer{{Account: p.acc, Scopes: transaction.CalledByEntry},
			{Account: notary.NotaryHash, Scopes: transaction.None}},
		Attributes: []transaction.Attribute{{Type: transaction.AttrNotaryAssisted,
			Value: &transaction.NotaryAssisted{NKeys: uint8(len(p.keys))}}},
		Witnesses: []transaction.Witness{{VerificationScript: p.verif}, {}},
	}
	return tx
}

// request is party i's P2P notary request for main: main with party i's
// signature, a fallback paid from party i's deposit valid from nvb, and
// the payload witness of party i.
func (p *multisigParties) request(t *testing.T, main *transaction.Transaction, i int, nvb uint32) *payload.P2PNotaryRequest {
	t.Helper()
	return p.requestWith(t, main, i, nvb, nil)
}

// requestWith is request with edit applied to the fallback before it is
// signed.
func (p *multisigParties) requestWith(t *testing.T, main *transaction.Transaction, i int, nvb uint32,
	edit func(fb *transaction.Transaction)) *payload.P2PNotaryRequest {
	t.Helper()
	k := p.keys[i]
	m := main.Copy()
	m.Witnesses[0].InvocationScript = sigPush(k.Sign(main.SignData(p.magic)))
	fb := &transaction.Transaction{Nonce: randNonce(t), SystemFee: 1000_0000, NetworkFee: 2000_0000,
		ValidUntilBlock: main.ValidUntilBlock, Script: []byte{byte(opcode.RET)},
		Signers: []transaction.Signer{{Account: notary.NotaryHash, Scopes: transaction.None},
			{Account: k.ScriptHash(), Scopes: transaction.None}},
		Attributes: []transaction.Attribute{
			{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: nvb}},
			{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: main.Hash()}},
			{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 0}},
		},
	}
	if edit != nil {
		edit(fb)
	}
	fb.Witnesses = []transaction.Witness{
		{InvocationScript: sigPush(make([]byte, 64)), VerificationScript: []byte{}},
		{InvocationScript: sigPush(k.Sign(fb.SignData(p.magic))), VerificationScript: k.PublicKey().VerificationScript()},
	}
	r := &payload.P2PNotaryRequest{MainTransaction: m, FallbackTransaction: fb}
	r.Witness = transaction.Witness{InvocationScript: sigPush(k.Sign(r.SignData(p.magic))),
		VerificationScript: k.PublicKey().VerificationScript()}
	require.NoError(t, r.Check())
	return r
}
