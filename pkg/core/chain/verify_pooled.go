package chain

import (
	"github.com/n3d-io/n3d/pkg/core/transaction"
)

// Transactions of a block that the node's memory pool holds.
//
// The references trust their pool: C# neo verifies none of a block's
// transactions when it persists the block (Blockchain.OnNewBlock checks
// the header only), and neo-go's AddBlock re-verifies only the
// transactions its pool does not hold (for pooled ones it applies the
// pool's own rules: duplicates, conflicts and the sender's fees within the
// block). n3d keeps every check that depends on the state before the
// block, for all of them (the pool is updated after a block in the
// background, so a pooled verdict may be a block old), and skips for
// pooled ones only what cannot change: size, strict script decoding and
// the signatures of standard witnesses, which the pool's entry check
// (VerifyTxConcurrent) ran on the same bytes. The hash does not cover the
// witnesses, so a block's transaction is trusted only when the pooled
// copy is the same object or carries byte-identical witnesses.

// inPool reports whether the pool (Config.Pooled) holds tx with the same
// witnesses.
func (c *Chain) inPool(tx *transaction.Transaction) bool {
	if c.cfg.Pooled == nil {
		return false
	}
	p, ok := c.cfg.Pooled(tx.Hash())
	return ok && (p == tx || transaction.SameWitnesses(p.Witnesses, tx.Witnesses))
}

// verifyPooled is verify for a transaction the pool verified on entry
// (inPool): presence on chain and the state-dependent checks in this
// context (ValidUntilBlock, blocked signers, the sender's fees with the
// block's earlier transactions, attributes, network fee and witness costs,
// non-standard witnesses run by the VM), then tx is recorded.
func (tc *txCheck) verifyPooled(tx *transaction.Transaction) error {
	if err := tc.checkOnChain(tx); err != nil {
		return err
	}
	if err := tc.verifyStateDependent(tx); err != nil {
		return err
	}
	tc.add(tx)
	return nil
}
