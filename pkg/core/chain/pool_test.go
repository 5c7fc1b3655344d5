package chain

import (
	"math/big"
	"sync"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

func TestGASBalanceAndNatives(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	require.Same(t, kc.natives(), c.Natives())
	gas := kc.natives().Governance.GAS.Metadata().Hash

	before, err := c.GASBalance(kc.acc)
	require.NoError(t, err)
	want, err := kc.natives().GASBalance(c.dao.Private(), kc.acc)
	require.NoError(t, err)
	require.Equal(t, want, before)
	require.Positive(t, before.Sign(), "the genesis account holds the GAS")

	zero, err := c.GASBalance(kc.acc2)
	require.NoError(t, err)
	require.Zero(t, zero.Sign())

	const amount = 10_0000_0000
	kc.add(kc.tx(kc.call(gas, "transfer", kc.acc, kc.acc2, amount, nil)))
	got, err := c.GASBalance(kc.acc2)
	require.NoError(t, err)
	require.Equal(t, big.NewInt(amount), got)
}

// TestVerifyTxConcurrentMatchesVerifyTx checks that the lock-free variant
// reaches VerifyTx's verdicts, and TxStillValid the state-dependent ones.
func TestVerifyTxConcurrentMatchesVerifyTx(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	gas := kc.natives().Governance.GAS.Metadata().Hash
	fund := kc.tx(kc.call(gas, "transfer", kc.acc, kc.acc2, 1_0000_0000, nil))
	kc.add(fund)

	badSig := kc.tx(push1)
	badSig.Witnesses[0].InvocationScript = sigInvocation(make([]byte, 64))
	badSig.InvalidateCache()
	cases := map[string]struct {
		tx            *transaction.Transaction
		err           error
		stillValidErr error // nil: TxStillValid accepts it
	}{
		"valid":         {kc.tx(push1), nil, nil},
		"on chain":      {fund, ErrAlreadyExists, ErrAlreadyExists},
		"system fee":    {kc.tx(push1, func(tx *transaction.Transaction) { tx.SystemFee = c.proto.MaxBlockSystemFee + 1 }), ErrTxSystemFee, nil},
		"bad signature": {badSig, ErrWitness, nil},
		"expired":       {kc.tx(push1, func(tx *transaction.Transaction) { tx.ValidUntilBlock = c.BlockHeight() }), ErrTxValidUntilBlock, ErrTxValidUntilBlock},
		"poor sender": {kc.tx(push1, signers(kc.acc2), func(tx *transaction.Transaction) { tx.SystemFee = 2_0000_0000 }),
			ErrTxInsufficientFunds, ErrTxInsufficientFunds},
	}
	checker, err := c.StillValidChecker()
	require.NoError(t, err)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			locked := c.VerifyTx(tc.tx)
			free := c.VerifyTxConcurrent(tc.tx)
			still := c.TxStillValid(tc.tx)
			if checked := checker(tc.tx); still == nil {
				require.NoError(t, checked)
			} else {
				require.Equal(t, still.Error(), checked.Error())
			}
			if tc.err == nil {
				require.NoError(t, locked)
				require.NoError(t, free)
			} else {
				require.ErrorIs(t, locked, tc.err)
				require.ErrorIs(t, free, tc.err)
				require.Equal(t, locked.Error(), free.Error())
			}
			if tc.stillValidErr == nil {
				require.NoError(t, still)
			} else {
				require.ErrorIs(t, still, tc.stillValidErr)
			}
		})
	}
}

// TestVerifyTxConcurrentDuringAddBlock verifies from several goroutines
// while blocks are added (run with -race): the final verdicts follow the
// chain.
func TestVerifyTxConcurrentDuringAddBlock(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	txs := make([]*transaction.Transaction, 8)
	for i := range txs {
		txs[i] = kc.tx(push1)
		_, _ = txs[i].Hash(), txs[i].Size() // cached before sharing, as decoding does
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tx := txs[i%len(txs)]
				_ = c.VerifyTxConcurrent(tx) // any verdict: the view may be torn
				_ = c.TxStillValid(tx)
				if check, err := c.StillValidChecker(); err == nil {
					_ = check(tx)
				}
				_, _ = c.GASBalance(kc.acc)
			}
		})
	}
	for _, tx := range txs {
		kc.add(tx)
	}
	close(stop)
	wg.Wait()
	for _, tx := range txs {
		require.ErrorIs(t, c.VerifyTxConcurrent(tx), ErrAlreadyExists)
		require.ErrorIs(t, c.TxStillValid(tx), ErrAlreadyExists)
	}
	require.NoError(t, c.Close())
	require.ErrorIs(t, c.VerifyTxConcurrent(txs[0]), ErrClosed)
	require.ErrorIs(t, c.TxStillValid(txs[0]), ErrClosed)
}

// BenchmarkTxStillValid re-checks a pooled single-signature transaction
// (what every pooled transaction costs after each block).
func BenchmarkTxStillValid(b *testing.B) {
	// newKeyChain wants a *testing.T for its checks; a failure there shows
	// as a benchmark that does not run.
	kc := newKeyChain(&testing.T{})
	b.Cleanup(func() { _ = kc.c.Close() })
	tx := kc.tx(push1)
	_, _ = tx.Hash(), tx.Size()
	b.Run("TxStillValid", func(b *testing.B) {
		for b.Loop() {
			if err := kc.c.TxStillValid(tx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("StillValidChecker", func(b *testing.B) {
		check, err := kc.c.StillValidChecker()
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := check(tx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The pool's checks read Policy's values once per block (limitsOfGen): a
// block that changes them is seen by the next check, and a transaction
// paying the old FeePerByte is refused after the block that doubles it.
func TestPoolChecksFollowPolicyChanges(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	policy := kc.natives().Core.Policy.Metadata().Hash
	cheap := kc.tx(push1)
	require.NoError(t, c.VerifyTxConcurrent(cheap))
	require.NoError(t, c.VerifyTxConcurrent(kc.tx(push1)), "the second check reads the cached values")
	l, err := c.LimitsAt(c.BlockHeight())
	require.NoError(t, err)

	set := kc.tx(script(t, emit.NewBuilder().AppCall(policy, "setFeePerByte", byte(callflag.All), 2*l.FeePerByte)))
	kc.add(set)
	kc.requireHalted(set)
	err = c.VerifyTxConcurrent(cheap)
	require.ErrorIs(t, err, ErrTxNetworkFee, "checked with the FeePerByte of before the block")
	require.NoError(t, c.VerifyTxConcurrent(kc.tx(push1)), "a fee at the new FeePerByte")
	fresh, err := c.LimitsAt(c.BlockHeight())
	require.NoError(t, err)
	require.Equal(t, 2*l.FeePerByte, fresh.FeePerByte)
}
