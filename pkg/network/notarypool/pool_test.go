package notarypool

import (
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

var notaryHash = util.Uint160{0xc1}

// req builds a request of sender whose fallback pays netFee network fee
// and 1 system fee, valid until vub.
func req(sender util.Uint160, nonce uint32, netFee int64, vub uint32) *payload.P2PNotaryRequest {
	empty := transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	main := &transaction.Transaction{Nonce: nonce, ValidUntilBlock: vub, Script: []byte{0x40},
		Signers:    []transaction.Signer{{Account: sender}, {Account: notaryHash}},
		Attributes: []transaction.Attribute{{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 1}}},
		Witnesses:  []transaction.Witness{empty, empty}}
	fb := &transaction.Transaction{Nonce: nonce, SystemFee: 1, NetworkFee: netFee, ValidUntilBlock: vub, Script: []byte{0x40},
		Signers: []transaction.Signer{{Account: notaryHash}, {Account: sender}},
		Attributes: []transaction.Attribute{
			{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: 5}},
			{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: main.Hash()}},
			{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{}},
		},
		Witnesses: []transaction.Witness{{InvocationScript: append([]byte{0x0c, 64}, make([]byte, 64)...),
			VerificationScript: []byte{}}, empty}}
	return &payload.P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb, Witness: empty}
}

// deposits is a Balance func over a map of deposit owners; it fails the
// test if asked for anything but a Notary deposit.
func deposits(t *testing.T, m map[util.Uint160]int64) func(p, s util.Uint160) (*big.Int, error) {
	return func(p, s util.Uint160) (*big.Int, error) {
		require.Equal(t, notaryHash, p, "fees of a fallback are paid from the Notary deposit")
		return big.NewInt(m[s]), nil
	}
}

func newPool(t *testing.T, capacity int, m map[util.Uint160]int64) *Pool {
	p, err := New(Config{Capacity: capacity, NotaryHash: notaryHash, Balance: deposits(t, m)})
	require.NoError(t, err)
	return p
}

func fbHash(r *payload.P2PNotaryRequest) util.Uint256 { return r.FallbackTransaction.Hash() }

func TestCapacityAndFeeOrder(t *testing.T) {
	a, b, c := util.Uint160{1}, util.Uint160{2}, util.Uint160{3}
	p := newPool(t, 2, map[util.Uint160]int64{a: 1e9, b: 1e9, c: 1e9})
	low, mid, high := req(a, 1, 1000, 100), req(b, 2, 2000, 100), req(c, 3, 3000, 100)
	_, err := p.Add(mid)
	require.NoError(t, err)
	_, err = p.Add(low)
	require.NoError(t, err)
	_, err = p.Add(mid)
	require.ErrorIs(t, err, ErrDup)
	// Full: an equal or lower request is refused, a better one evicts the lowest.
	_, err = p.Add(req(c, 4, 1000, 100))
	require.ErrorIs(t, err, ErrOOM)
	removed, err := p.Add(high)
	require.NoError(t, err)
	require.Equal(t, []*payload.P2PNotaryRequest{low}, removed)
	require.False(t, p.ContainsKey(fbHash(low)))
	require.Equal(t, []*payload.P2PNotaryRequest{high, mid}, p.Requests())
	got, ok := p.GetRequest(fbHash(mid))
	require.True(t, ok)
	require.Same(t, mid, got)
	tx, ok := p.FindTransaction(mid.MainTransaction.Hash())
	require.True(t, ok)
	require.Same(t, mid.MainTransaction, tx)
	tx, ok = p.FindTransaction(fbHash(mid))
	require.True(t, ok)
	require.Same(t, mid.FallbackTransaction, tx)
	_, ok = p.FindTransaction(util.Uint256{1})
	require.False(t, ok)
}

func TestPerPayerDeposit(t *testing.T) {
	a, b := util.Uint160{1}, util.Uint160{2}
	// Each fallback costs netFee + 1.
	p := newPool(t, 10, map[util.Uint160]int64{a: 2500, b: 500})
	_, err := p.Add(req(b, 1, 1000, 100))
	require.ErrorIs(t, err, ErrInsufficientFunds)
	_, err = p.Add(req(a, 2, 1000, 100))
	require.NoError(t, err)
	_, err = p.Add(req(a, 3, 1000, 100))
	require.NoError(t, err)
	_, err = p.Add(req(a, 4, 1000, 100))
	require.ErrorIs(t, err, ErrConflict, "a's pooled fees would exceed its deposit")
	_, err = p.Add(req(b, 5, 400, 100))
	require.NoError(t, err, "another payer's deposit is separate")
	require.True(t, p.Remove(fbHash(req(a, 2, 1000, 100))))
	_, err = p.Add(req(a, 4, 1000, 100))
	require.NoError(t, err, "removal frees the fee")
}

func TestConflictingFallbacks(t *testing.T) {
	a := util.Uint160{1}
	p := newPool(t, 10, map[util.Uint160]int64{a: 1e9})
	first := req(a, 1, 1000, 100)
	_, err := p.Add(first)
	require.NoError(t, err)
	// A fallback naming a pooled one replaces it only when paying more.
	cheap := req(a, 2, 1000, 100)
	cheap.FallbackTransaction.Attributes = append(cheap.FallbackTransaction.Attributes, transaction.Attribute{
		Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: fbHash(first)}})
	cheap.FallbackTransaction.InvalidateCache()
	_, err = p.Add(cheap)
	require.ErrorIs(t, err, ErrConflictsAttribute)
	rich := req(a, 3, 1001, 100)
	rich.FallbackTransaction.Attributes = append(rich.FallbackTransaction.Attributes, transaction.Attribute{
		Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: fbHash(first)}})
	rich.FallbackTransaction.InvalidateCache()
	removed, err := p.Add(rich)
	require.NoError(t, err)
	require.Equal(t, []*payload.P2PNotaryRequest{first}, removed)
	require.Equal(t, 1, p.Count())
}

func TestUpdateForBlock(t *testing.T) {
	a, b := util.Uint160{1}, util.Uint160{2}
	dep := map[util.Uint160]int64{a: 1e9, b: 1e9}
	p := newPool(t, 10, dep)
	mainLands, fbLands, expires, keeps, irrelevant := req(a, 1, 10, 100), req(a, 2, 10, 100),
		req(a, 3, 10, 50), req(a, 4, 10, 100), req(a, 5, 10, 100)
	poor1, poor2 := req(b, 6, 20, 100), req(b, 7, 10, 100)
	for _, r := range []*payload.P2PNotaryRequest{mainLands, fbLands, expires, keeps, irrelevant, poor1, poor2} {
		_, err := p.Add(r)
		require.NoError(t, err)
	}
	dep[b] = 25 // covers poor1 (21) only, the more prioritized one
	dropped := p.UpdateForBlock(50, []*transaction.Transaction{mainLands.MainTransaction, fbLands.FallbackTransaction},
		func(fb *transaction.Transaction) bool { return fb.Hash() != fbHash(irrelevant) })
	require.ElementsMatch(t, []*payload.P2PNotaryRequest{mainLands, fbLands, expires, irrelevant, poor2}, dropped)
	require.ElementsMatch(t, []*payload.P2PNotaryRequest{keeps, poor1}, p.Requests())
	// Fees were recounted: b can pay nothing more.
	_, err := p.Add(req(b, 8, 4, 100))
	require.ErrorIs(t, err, ErrConflict)
}

func TestNewChecksConfig(t *testing.T) {
	_, err := New(Config{})
	require.ErrorIs(t, err, ErrBadConfig)
	p, err := New(Config{Balance: deposits(t, nil)})
	require.NoError(t, err)
	require.Equal(t, DefaultCapacity, p.cfg.Capacity)
}
