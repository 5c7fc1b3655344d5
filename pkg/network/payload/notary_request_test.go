package payload

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// testNotaryRequest builds a request that follows every shape rule: a main
// transaction needing one key and its fallback paid by sender.
func testNotaryRequest() *P2PNotaryRequest {
	sender := util.Uint160{9}
	notary := util.Uint160{0xc1}
	main := &transaction.Transaction{
		Nonce: 1, SystemFee: 10, NetworkFee: 20, ValidUntilBlock: 100,
		Signers:    []transaction.Signer{{Account: sender, Scopes: transaction.CalledByEntry}, {Account: notary}},
		Attributes: []transaction.Attribute{{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 1}}},
		Script:     []byte{0x40},
		Witnesses:  []transaction.Witness{testWitness(), {InvocationScript: []byte{}, VerificationScript: []byte{}}},
	}
	dummy := append([]byte{0x0c, 64}, make([]byte, 64)...)
	fb := &transaction.Transaction{
		Nonce: 2, SystemFee: 1, NetworkFee: 2, ValidUntilBlock: 100,
		Signers: []transaction.Signer{{Account: notary}, {Account: sender}},
		Attributes: []transaction.Attribute{
			{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: 50}},
			{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: main.Hash()}},
			{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 0}},
		},
		Script:    []byte{0x40},
		Witnesses: []transaction.Witness{{InvocationScript: dummy, VerificationScript: []byte{}}, testWitness()},
	}
	return &P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb, Witness: testWitness()}
}

func TestP2PNotaryRequestRoundTrip(t *testing.T) {
	p := testNotaryRequest()
	b := roundTrip(t, p, new(P2PNotaryRequest))
	got, err := NewP2PNotaryRequestFromBytes(b)
	require.NoError(t, err)
	require.Equal(t, p.Hash(), got.Hash())
	// The hash covers both transactions, not the witness.
	mb, _ := p.MainTransaction.Bytes()
	fbb, _ := p.FallbackTransaction.Bytes()
	require.Equal(t, util.Uint256(sha256.Sum256(append(mb, fbb...))), got.Hash())
	require.Equal(t, b[:len(mb)+len(fbb)], append(mb, fbb...))
	_, err = NewP2PNotaryRequestFromBytes(append(b, 0))
	require.ErrorIs(t, err, transaction.ErrTrailingData)
	c := got.Copy()
	require.Equal(t, got.Hash(), c.Hash())
	c.FallbackTransaction.Nonce++
	c.FallbackTransaction.InvalidateCache()
	c.InvalidateCache()
	require.NotEqual(t, got.Hash(), c.Hash(), "Copy must return an independent, uncached request")
}

func TestP2PNotaryRequestRules(t *testing.T) {
	cases := map[string]func(p *P2PNotaryRequest){
		"main without NotaryAssisted": func(p *P2PNotaryRequest) { p.MainTransaction.Attributes = nil },
		"main NKeys 0": func(p *P2PNotaryRequest) {
			p.MainTransaction.Attributes[0].Value = &transaction.NotaryAssisted{}
		},
		"fallback one signer": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Signers = p.FallbackTransaction.Signers[:1]
			p.FallbackTransaction.Witnesses = p.FallbackTransaction.Witnesses[:1]
		},
		"dummy witness short": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Witnesses[0].InvocationScript = p.FallbackTransaction.Witnesses[0].InvocationScript[:65]
		},
		"dummy witness with verification": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Witnesses[0].VerificationScript = []byte{1}
		},
		"dummy witness bad prefix": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Witnesses[0].InvocationScript[0] = 0x0d
		},
		"no NotValidBefore": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Attributes = p.FallbackTransaction.Attributes[1:]
		},
		"two Conflicts": func(p *P2PNotaryRequest) {
			a := p.FallbackTransaction.Attributes
			p.FallbackTransaction.Attributes = append(a[:2:2], transaction.Attribute{
				Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: util.Uint256{1}}}, a[2])
		},
		"Conflicts other hash": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Attributes[1].Value = &transaction.Conflicts{Hash: util.Uint256{1}}
		},
		"fallback without NotaryAssisted": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Attributes = p.FallbackTransaction.Attributes[:2]
		},
		"fallback NKeys 1": func(p *P2PNotaryRequest) {
			p.FallbackTransaction.Attributes[2].Value = &transaction.NotaryAssisted{NKeys: 1}
		},
		"different ValidUntilBlock": func(p *P2PNotaryRequest) { p.FallbackTransaction.ValidUntilBlock++ },
	}
	require.NoError(t, testNotaryRequest().Check())
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			p := testNotaryRequest()
			mutate(p)
			p.MainTransaction.InvalidateCache()
			p.FallbackTransaction.InvalidateCache()
			require.ErrorIs(t, p.Check(), ErrInvalidNotaryRequest)
			b := encode(t, p)
			require.ErrorIs(t, decodeErr(b, new(P2PNotaryRequest)), ErrInvalidNotaryRequest)
		})
	}
}

func TestP2PNotaryRequestTruncated(t *testing.T) {
	b := encode(t, testNotaryRequest())
	for _, n := range []int{0, 1, len(b) / 2, len(b) - 1} {
		require.Error(t, decodeErr(bytes.Clone(b[:n]), new(P2PNotaryRequest)), "prefix %d", n)
	}
}

func TestInventoryTypeValidWith(t *testing.T) {
	require.False(t, InvP2PNotaryRequest.ValidWith(false))
	require.True(t, InvP2PNotaryRequest.ValidWith(true))
	require.True(t, InvTX.ValidWith(false))
	require.False(t, InventoryType(0x51).ValidWith(true))
}

func FuzzP2PNotaryRequest(f *testing.F) { fuzzDecoder[P2PNotaryRequest](f, testNotaryRequest()) }

// TestNotaryRequestSignData: the payload's witness signs the network magic
// (little-endian) followed by the hash of both transactions, as for a
// transaction; a changed fallback changes it.
func TestNotaryRequestSignData(t *testing.T) {
	r := testNotaryRequest()
	d := r.SignData(0x01020304)
	h := r.Hash()
	require.Equal(t, append([]byte{4, 3, 2, 1}, h[:]...), d)
	r.FallbackTransaction.Nonce++
	r.FallbackTransaction.InvalidateCache()
	r.InvalidateCache()
	require.NotEqual(t, d, r.SignData(0x01020304))
}
