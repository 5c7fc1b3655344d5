package mempool

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// refHigher is the reference's PoolItem.CompareTo written out on
// transactions: true when a sorts above b. The hash tie-break reads the
// hashes as the reference's UInt256 numbers (big-endian), independently of
// util.Uint256.Compare.
func refHigher(a, b *transaction.Transaction) bool {
	ha, hb := a.HasAttribute(transaction.AttrHighPriority), b.HasAttribute(transaction.AttrHighPriority)
	if ha != hb {
		return ha
	}
	if a.FeePerByte() != b.FeePerByte() {
		return a.FeePerByte() > b.FeePerByte()
	}
	if a.NetworkFee != b.NetworkFee {
		return a.NetworkFee > b.NetworkFee
	}
	ah, bh := a.Hash(), b.Hash()
	// otherTx.Hash.CompareTo(Tx.Hash): the smaller number sorts above.
	return new(big.Int).SetBytes(ah.BytesBE()).Cmp(new(big.Int).SetBytes(bh.BytesBE())) < 0
}

func randomTx(r *rand.Rand, i int) *transaction.Transaction {
	s := txSpec{nonce: uint32(i), netFee: int64(r.IntN(5)) * 1000, high: r.IntN(8) == 0}
	if r.IntN(3) == 0 {
		s.signers = []util.Uint160{acc(1), acc(2)} // larger: other fee per byte
	}
	return s.build()
}

func checkOrdered(t *testing.T, o *ordered, want []*item) {
	t.Helper()
	got := []*item{}
	o.each(func(it *item) bool { got = append(got, it); return true })
	require.Equal(t, len(want), o.len())
	require.Equal(t, append([]*item{}, want...), got)
	for _, c := range o.chunks {
		require.NotEmpty(t, c)
		require.LessOrEqual(t, len(c), maxChunk)
	}
	if len(want) > 0 {
		require.Same(t, want[len(want)-1], o.last())
	} else {
		require.Nil(t, o.last())
	}
}

// TestOrderedMatchesReference drives the chunked list and a plain slice
// sorted with the reference comparison through the same random inserts
// and removals.
func TestOrderedMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var (
		o     ordered
		naive []*item
	)
	for i := range 5000 {
		if len(naive) > 0 && r.IntN(3) == 0 {
			k := r.IntN(len(naive))
			require.True(t, o.remove(naive[k]))
			require.False(t, o.remove(naive[k]))
			naive = slices.Delete(naive, k, k+1)
		} else {
			it := newItem(randomTx(r, i))
			o.insert(it)
			k := sort.Search(len(naive), func(j int) bool { return refHigher(it.tx, naive[j].tx) })
			naive = slices.Insert(naive, k, it)
		}
		if i%97 == 0 {
			checkOrdered(t, &o, naive)
		}
	}
	checkOrdered(t, &o, naive)
	require.Greater(t, len(o.chunks), 3, "the test must exercise splits")

	o.rebuild(naive)
	checkOrdered(t, &o, naive)
	for len(naive) > 0 {
		require.True(t, o.remove(naive[0]))
		naive = naive[1:]
	}
	checkOrdered(t, &o, naive)
}

func TestPriorityRules(t *testing.T) {
	low := txSpec{nonce: 1, netFee: 1000}.build()
	high := txSpec{nonce: 2, netFee: 10, high: true}.build()
	moreNet := txSpec{nonce: 3, netFee: 1000 + 1}.build() // same fee per byte, more network fee
	require.Equal(t, low.FeePerByte(), moreNet.FeePerByte())
	perByte := txSpec{nonce: 4, netFee: 100000}.build()

	p, l := newPool(t, 10)
	for _, tx := range []*transaction.Transaction{low, high, moreNet, perByte} {
		require.NoError(t, add(p, l, tx))
	}
	require.Equal(t, hashes([]*transaction.Transaction{high, perByte, moreNet, low}), hashes(p.GetVerifiedTransactions()))

	// Equal fees: the hash decides, as the reference numbers compare.
	var same []*transaction.Transaction
	for i := range 20 {
		same = append(same, txSpec{nonce: uint32(100 + i), netFee: 5000}.build())
	}
	p2, l2 := newPool(t, 100)
	for _, tx := range same {
		require.NoError(t, add(p2, l2, tx))
	}
	slices.SortFunc(same, func(a, b *transaction.Transaction) int {
		if refHigher(a, b) {
			return -1
		}
		return 1
	})
	require.Equal(t, hashes(same), hashes(p2.GetVerifiedTransactions()))
	require.Equal(t, hashes(same[:5]), hashes(p2.Top(5)))
}

// TestOrderedFilter drops random items in one pass, mixed with inserts
// and removals, against a plain slice.
func TestOrderedFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var (
		o     ordered
		naive []*item
	)
	for round := range 20 {
		for i := range 500 {
			it := newItem(randomTx(r, round*1000+i))
			o.insert(it)
			k := sort.Search(len(naive), func(j int) bool { return refHigher(it.tx, naive[j].tx) })
			naive = slices.Insert(naive, k, it)
		}
		drop := map[*item]bool{}
		for _, it := range naive {
			if r.IntN(4) != 0 || round == 19 { // the last round drops all
				drop[it] = true
			}
		}
		o.filter(func(it *item) bool { return !drop[it] })
		naive = slices.DeleteFunc(naive, func(it *item) bool { return drop[it] })
		checkOrdered(t, &o, naive)
		if len(naive) > 0 {
			require.True(t, o.remove(naive[len(naive)/2]))
			naive = slices.Delete(naive, len(naive)/2, len(naive)/2+1)
			checkOrdered(t, &o, naive)
		}
	}
	require.Zero(t, o.len())
}
