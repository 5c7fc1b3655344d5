package mempool

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// checkInvariants verifies that every index agrees with the ordered list.
func checkInvariants(t *testing.T, p *Pool) {
	t.Helper()
	p.mu.RLock()
	defer p.mu.RUnlock()
	require.Equal(t, len(p.byHash), p.list.len())
	fees := map[util.Uint160]amount{}
	oracle := map[uint64]util.Uint256{}
	conflicts := map[util.Uint256]map[*item]bool{}
	var prev *item
	p.list.each(func(it *item) bool {
		require.Same(t, it, p.byHash[it.hash])
		if prev != nil {
			require.Positive(t, prev.cmp(it))
		}
		prev = it
		fees[it.sender] = fees[it.sender].add(it.fee)
		if it.oracle {
			_, dup := oracle[it.oracleID]
			require.False(t, dup)
			oracle[it.oracleID] = it.hash
		}
		for _, h := range it.conflicts {
			if conflicts[h] == nil {
				conflicts[h] = map[*item]bool{}
			}
			conflicts[h][it] = true
		}
		return true
	})
	// A missing sender and a zero sum are the same (zero-fee transactions).
	for a, f := range p.fees.fees {
		require.Equal(t, fees[a], f, "fees of %s", a.String())
	}
	for a, f := range fees {
		require.Equal(t, f, p.fees.fees[a], "fees of %s", a.String())
	}
	require.Equal(t, oracle, p.fees.oracle)
	require.Len(t, p.conflicts, len(conflicts))
	for h, set := range conflicts {
		require.Len(t, p.conflicts[h], len(set))
		for _, it := range p.conflicts[h] {
			require.True(t, set[it])
		}
	}
}

func TestConflictsNewNamesPooled(t *testing.T) {
	alice, bob := acc(1), acc(2)
	p, l := newPool(t, 100)
	sub := p.Subscribe(100)
	a := txSpec{nonce: 1, signers: []util.Uint160{alice}, netFee: 1000}.build()
	require.NoError(t, add(p, l, a))

	// Not more network fee than the replaced one.
	same := txSpec{nonce: 2, signers: []util.Uint160{alice}, netFee: 1000, confl: []util.Uint256{a.Hash()}}.build()
	require.ErrorIs(t, add(p, l, same), ErrConflict)
	// No common signer, whatever the fee.
	stranger := txSpec{nonce: 3, signers: []util.Uint160{bob}, netFee: 1 << 30, confl: []util.Uint256{a.Hash()}}.build()
	require.ErrorIs(t, add(p, l, stranger), ErrConflict)
	// A common signer other than the sender is enough.
	cosigned := txSpec{nonce: 4, signers: []util.Uint160{bob, alice}, netFee: 1001, confl: []util.Uint256{a.Hash()}}.build()
	drain(sub)
	require.NoError(t, add(p, l, cosigned))
	require.False(t, p.Contains(a.Hash()))
	require.Equal(t, []Event{
		{Kind: TransactionRemoved, Tx: a, Reason: ReasonConflict},
		{Kind: TransactionAdded, Tx: cosigned},
	}, drain(sub))
	checkInvariants(t, p)
	// The replaced transaction cannot come back while its replacement
	// names it and pays more.
	require.ErrorIs(t, add(p, l, a), ErrConflict)
}

func TestConflictsFeeSum(t *testing.T) {
	alice := acc(1)
	p, l := newPool(t, 100)
	a1 := txSpec{nonce: 1, signers: []util.Uint160{alice}, netFee: 300}.build()
	a2 := txSpec{nonce: 2, signers: []util.Uint160{alice}, netFee: 400}.build()
	require.NoError(t, add(p, l, a1))
	require.NoError(t, add(p, l, a2))
	both := []util.Uint256{a1.Hash(), a2.Hash()}
	require.ErrorIs(t, add(p, l, txSpec{nonce: 3, signers: []util.Uint160{alice}, netFee: 700, confl: both}.build()), ErrConflict)
	// Naming one twice counts it twice, as the reference's loop does.
	twice := []util.Uint256{a1.Hash(), a1.Hash()}
	require.ErrorIs(t, add(p, l, txSpec{nonce: 4, signers: []util.Uint160{alice}, netFee: 600, confl: twice}.build()), ErrConflict)
	ok := txSpec{nonce: 5, signers: []util.Uint160{alice}, netFee: 701, confl: both}.build()
	require.NoError(t, add(p, l, ok))
	require.Equal(t, 1, p.Count())
	// A name not in the pool costs nothing.
	ghost := txSpec{nonce: 99}.build().Hash()
	require.NoError(t, add(p, l, txSpec{nonce: 6, signers: []util.Uint160{alice}, netFee: 1, confl: []util.Uint256{ghost}}.build()))
	checkInvariants(t, p)
}

func TestConflictsPooledNamesNew(t *testing.T) {
	alice, bob := acc(1), acc(2)
	for _, tc := range []struct {
		name     string
		sender   util.Uint160
		netFee   int64
		replaces bool
	}{
		// The new sender signs the pooled one: it must pay more.
		{"signer pays less", alice, 500, false},
		{"signer pays equal", alice, 1000, false},
		{"signer pays more", alice, 1001, true},
		// Otherwise the sum is zero and the reference lets it in.
		{"non-signer pays less", bob, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, l := newPool(t, 100)
			newTx := txSpec{nonce: 10, signers: []util.Uint160{tc.sender}, netFee: tc.netFee}.build()
			pooled := txSpec{nonce: 1, signers: []util.Uint160{alice}, netFee: 1000, confl: []util.Uint256{newTx.Hash()}}.build()
			require.NoError(t, add(p, l, pooled))
			err := add(p, l, newTx)
			if tc.replaces {
				require.NoError(t, err)
				require.False(t, p.Contains(pooled.Hash()))
			} else {
				require.ErrorIs(t, err, ErrConflict)
				require.True(t, p.Contains(pooled.Hash()))
			}
			checkInvariants(t, p)
		})
	}
}

// TestConflictsFunds: the fees of the replaced transactions of the same
// sender do not count against the replacement.
func TestConflictsFunds(t *testing.T) {
	alice, bob := acc(1), acc(2)
	p, l := newPool(t, 100)
	l.setBalance(alice, 1500)
	a := txSpec{nonce: 1, signers: []util.Uint160{alice}, netFee: 1000}.build()
	require.NoError(t, add(p, l, a))
	// 1100 + 1000 pooled - 1000 replaced <= 1500.
	b := txSpec{nonce: 2, signers: []util.Uint160{alice}, netFee: 1100, confl: []util.Uint256{a.Hash()}}.build()
	require.NoError(t, add(p, l, b))

	// A replaced transaction of another sender frees nothing for the new
	// sender: bob needs 1200 + 900, not 1200 + 900 - 1100.
	l.setBalance(bob, 2000)
	c := txSpec{nonce: 3, signers: []util.Uint160{bob}, netFee: 900}.build()
	require.NoError(t, add(p, l, c))
	d := txSpec{nonce: 4, signers: []util.Uint160{bob, alice}, netFee: 1200, confl: []util.Uint256{b.Hash()}}.build()
	require.ErrorIs(t, add(p, l, d), ErrInsufficientFunds)
	require.True(t, p.Contains(b.Hash()))
	l.setBalance(bob, 2100)
	l.height.Add(1) // balances are cached per height
	require.NoError(t, add(p, l, d))
	require.False(t, p.Contains(b.Hash()))
	checkInvariants(t, p)
}
