package chain

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// Read APIs for the services around the chain (mempool, ingress pipeline,
// consensus, RPC). None of them takes the block-adding lock: they read a
// private view of the committed state, so they run in parallel with each
// other and with AddBlock.
//
// A view taken while AddBlock stores a block may already show some of the
// block's changes while BlockHeight still reports the previous height.
// The mempool copes: Pool.Add refuses a verdict reached at a height the
// chain has left (ErrStale), and UpdateForBlock re-checks every pooled
// transaction after each block, so a verdict from a torn view never
// outlives the block being stored.

// Natives returns the native contract set the chain was opened with (the
// one every other reader of native state must share: Policy keeps caches
// only the chain's own set keeps current).
func (c *Chain) Natives() *NativeSet { return c.cfg.Natives }

// view returns a private DAO over the committed state; Discard it.
func (c *Chain) view() *dao.DAO { return c.dao.Private() }

// ledgerNativeSet returns the natives as transaction verification reads
// them.
func (c *Chain) ledgerNativeSet() (*NativeSet, error) {
	if c.cfg.Natives == nil {
		return nil, fmt.Errorf("%w: no native contracts", ErrBadConfig)
	}
	return c.cfg.Natives, nil
}

// GASBalance returns acc's GAS balance in the current state (what the
// mempool checks the fees of an account's pooled transactions against).
func (c *Chain) GASBalance(acc util.Uint160) (*big.Int, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	d := c.view()
	b, err := n.GASBalance(d, acc)
	return b, errors.Join(err, d.Discard())
}

// VerifyTxConcurrent verifies tx as VerifyTx does (presence on chain,
// state-independent and state-dependent checks in the reference's order,
// the MaxBlockSystemFee bound) against the current state, without waiting
// for a block being added. It is safe for concurrent use: the ingress
// pipeline's workers call it in parallel (see the note at the top of this
// file on views taken while a block is stored).
//
// While the store refuses writes it returns the StorageErr (ErrStorage):
// the node takes no transaction it may not be able to keep.
func (c *Chain) VerifyTxConcurrent(tx *transaction.Transaction) error {
	return c.verifyForPool(tx, (*txCheck).verifyAlone)
}

// verifyForPool runs check on the current state for a transaction about to
// be pooled: refused on a closed chain, while the store refuses writes, and
// above MaxBlockSystemFee before check runs.
func (c *Chain) verifyForPool(tx *transaction.Transaction, check func(*txCheck, *transaction.Transaction) error) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := c.StorageErr(); err != nil {
		return fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
	}
	if tx.SystemFee > c.proto.MaxBlockSystemFee {
		return fmt.Errorf("transaction %s: %w: %d > %d", tx.Hash().String(), ErrTxSystemFee,
			tx.SystemFee, c.proto.MaxBlockSystemFee)
	}
	return c.checkOnView(tx, check)
}

// TxStillValid re-checks a pooled transaction after a block: whether it
// (or a transaction declaring it conflicting) reached the chain, and the
// state-dependent checks (ValidUntilBlock window, blocked signers, the
// sender's GAS for this transaction alone, attributes, network fee and
// witness costs). The state-independent checks (size, script, standard
// signatures) were done when it entered the pool and do not change. Safe
// for concurrent use. To re-check many transactions, StillValidChecker
// reads the Policy values once.
func (c *Chain) TxStillValid(tx *transaction.Transaction) error {
	if c.closed.Load() {
		return ErrClosed
	}
	return c.checkOnView(tx, (*txCheck).stillValid)
}

// StillValidChecker returns TxStillValid with the Policy values and the
// height of the current state read once (they are most of the cost of one
// check), for re-checking the whole pool after a block
// (mempool.UpdateForBlock calls it in parallel: it is safe for concurrent
// use). Balances, blocked accounts and records are read per call.
func (c *Chain) StillValidChecker() (func(*transaction.Transaction) error, error) {
	d := c.view()
	tmpl, err := c.newTxCheck(d)
	if err = errors.Join(err, d.Discard()); err != nil {
		return nil, err
	}
	tmpl.d = nil
	return func(tx *transaction.Transaction) error {
		if c.closed.Load() {
			return ErrClosed
		}
		tc := *tmpl // the maps stay empty: the checks only read them
		tc.d = c.view()
		err := tc.stillValid(tx)
		if err != nil {
			err = fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
		}
		return errors.Join(err, tc.d.Discard())
	}, nil
}

// stillValid is TxStillValid's check on tc.
func (tc *txCheck) stillValid(tx *transaction.Transaction) error {
	if err := tc.checkOnChain(tx); err != nil {
		return err
	}
	return tc.verifyStateDependent(tx)
}

// checkOnView runs check with a fresh context on a private view.
func (c *Chain) checkOnView(tx *transaction.Transaction, check func(*txCheck, *transaction.Transaction) error) error {
	gen := c.tipGen.Load() // before the view: see limitsOfGen
	d := c.view()
	tc, err := c.newTxCheckGen(d, gen)
	if err == nil {
		if err = check(tc, tx); err != nil {
			err = fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
		}
	}
	return errors.Join(err, d.Discard())
}
