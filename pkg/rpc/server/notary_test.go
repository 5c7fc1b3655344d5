package server

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// notaryRecorder is a NotaryHandler over a list whose Submit answers err.
type notaryRecorder struct {
	mu   sync.Mutex
	reqs []*payload.P2PNotaryRequest
	err  error
}

func (f *notaryRecorder) SubmitNotaryRequest(r *payload.P2PNotaryRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.reqs = append(f.reqs, r)
	return nil
}

func (f *notaryRecorder) NotaryRequests() []*payload.P2PNotaryRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*payload.P2PNotaryRequest(nil), f.reqs...)
}

func (f *notaryRecorder) FindTransaction(h util.Uint256) (*transaction.Transaction, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.reqs {
		if r.FallbackTransaction.Hash() == h {
			return r.FallbackTransaction, true
		}
	}
	for _, r := range f.reqs {
		if r.MainTransaction.Hash() == h {
			return r.MainTransaction, true
		}
	}
	return nil, false
}

// rpcNotaryRequest builds a request following the payload's shape rules.
func rpcNotaryRequest(nonce uint32) *payload.P2PNotaryRequest {
	sender, notary := util.Uint160{9}, util.Uint160{0xc1}
	empty := transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	main := &transaction.Transaction{Nonce: nonce, ValidUntilBlock: 100, Script: []byte{0x40},
		Signers:    []transaction.Signer{{Account: sender}, {Account: notary}},
		Attributes: []transaction.Attribute{{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 1}}},
		Witnesses:  []transaction.Witness{empty, empty}}
	fb := &transaction.Transaction{Nonce: nonce, ValidUntilBlock: 100, Script: []byte{0x40},
		Signers: []transaction.Signer{{Account: notary}, {Account: sender}},
		Attributes: []transaction.Attribute{
			{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: 50}},
			{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: main.Hash()}},
			{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{}},
		},
		Witnesses: []transaction.Witness{{InvocationScript: append([]byte{0x0c, 64}, make([]byte, 64)...),
			VerificationScript: []byte{}}, empty}}
	return &payload.P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb, Witness: empty}
}

// TestNotaryMethods: submitnotaryrequest answers the fallback's hash and
// neo-go's codes for pool refusals and bad payloads; getrawnotarypool
// groups fallbacks by main hash; getrawnotarytransaction finds fallbacks
// and main transactions; without P2PSigExtensions each answers -32603.
func TestNotaryMethods(t *testing.T) {
	base := node(t, conformance.Chains(t)[0])
	rec := &notaryRecorder{}
	n := withServices(t, base, Config{Notary: rec})
	r := rpcNotaryRequest(1)
	b64 := encodeB64(t, r)
	fb, main := r.FallbackTransaction.Hash(), r.MainTransaction.Hash()

	res := n.result(t, "submitnotaryrequest", b64)
	require.JSONEq(t, fmt.Sprintf(`{"hash":%q}`, fb.String()), string(res))
	require.Len(t, rec.reqs, 1)

	res = n.result(t, "getrawnotarypool")
	require.JSONEq(t, fmt.Sprintf(`{"hashes":{%q:[%q]}}`, main.String(), fb.String()), string(res))

	raw, err := r.FallbackTransaction.Bytes()
	require.NoError(t, err)
	res = n.result(t, "getrawnotarytransaction", fb.String())
	require.JSONEq(t, fmt.Sprintf("%q", base64.StdEncoding.EncodeToString(raw)), string(res))
	res = n.result(t, "getrawnotarytransaction", main.String(), true)
	var got transaction.Transaction
	require.NoError(t, got.UnmarshalJSON(res))
	require.Equal(t, main, got.Hash())
	n.fail(t, result.UnknownTransactionCode, "getrawnotarytransaction", util.Uint256{1}.String())
	n.fail(t, result.InvalidParamsCode, "getrawnotarytransaction", "nothex")

	for _, c := range []struct {
		err  error
		code int64
	}{
		{fmt.Errorf("pool: %w", mempool.ErrDup), alreadyInPoolCode},
		{fmt.Errorf("pool: %w", mempool.ErrOOM), mempoolCapReachedCode},
		{fmt.Errorf("pool: %w", mempool.ErrInsufficientFunds), insufficientFundsCode},
	} {
		rec.err = c.err
		n.fail(t, c.code, "submitnotaryrequest", encodeB64(t, rpcNotaryRequest(2)))
	}
	rec.err = errors.New("bad payload witness")
	e := n.fail(t, result.VerificationFailedCode, "submitnotaryrequest", encodeB64(t, rpcNotaryRequest(2)))
	require.Contains(t, e.Data, "bad payload witness")
	// A verdict of the chain on the fallback is worded as sendrawtransaction's.
	rec.err = fmt.Errorf("fallback: %w", chain.ErrTxNetworkFee)
	n.fail(t, insufficientNetworkFeeCode, "submitnotaryrequest", encodeB64(t, rpcNotaryRequest(2)))

	bad := rpcNotaryRequest(3)
	bad.FallbackTransaction.ValidUntilBlock++
	bad.FallbackTransaction.InvalidateCache()
	for _, p := range []any{"!!", base64.StdEncoding.EncodeToString([]byte{1, 2, 3}), encodeB64(t, bad)} {
		n.fail(t, result.InvalidParamsCode, "submitnotaryrequest", p)
	}
	n.fail(t, result.InvalidParamsCode, "submitnotaryrequest")

	for _, m := range []string{"submitnotaryrequest", "getrawnotarypool", "getrawnotarytransaction"} {
		e := base.fail(t, result.InternalErrorCode, m, b64)
		require.Equal(t, "P2PSignatureExtensions are disabled", e.Data)
	}
}
