package chain

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
)

// Verification of partially signed transactions: the fallback transaction
// of a P2P notary request, whose first witness (the Notary contract's) is
// a placeholder the notary node fills in later. These follow neo-go, the
// only reference with P2P notary requests (its verifyAndPoolTx with
// isPartialTx): the checks and their order differ from VerifyTx in that
// ValidUntilBlock has no upper bound, NotValidBefore is bounded by the
// Notary's MaxNotValidBeforeDelta instead of the height, the sender's GAS
// is not checked (the notary request pool checks the payer's deposit),
// and the first witness may return false.

// ErrWitnessFalse is a witness whose verification ran to its end and
// returned false (neo-go's ErrInvalidSignature); other verification
// failures (a FAULT, a bad script, no result) are other errors.
var ErrWitnessFalse = errors.New("verification returned false")

// VerifyPartialTx verifies tx, the fallback of a notary request, against
// the current state as neo-go does before pooling it: the MaxBlockSystemFee
// bound, a strictly decoded script, ValidUntilBlock above the height,
// blocked signers, size, the network fee against the size and attribute
// fees, presence on chain and conflicts, every witness within what the
// network fee leaves (the first may return false, not fail otherwise), and
// the attributes with the partial NotValidBefore rule. Safe for concurrent
// use.
func (c *Chain) VerifyPartialTx(tx *transaction.Transaction) error {
	return c.verifyForPool(tx, (*txCheck).verifyPartial)
}

// PartialTxStillRelevant re-checks a pooled notary request's fallback after
// a block, as neo-go's IsTxStillRelevant for partial transactions: still
// valid for the next block, not on chain nor declared conflicting by an
// on-chain transaction, attributes still valid, and witnesses re-run when
// one is not a standard signature contract (the Notary placeholder always
// is, so they are). Safe for concurrent use.
func (c *Chain) PartialTxStillRelevant(tx *transaction.Transaction) error {
	if c.closed.Load() {
		return ErrClosed
	}
	return c.checkOnView(tx, func(tc *txCheck, tx *transaction.Transaction) error {
		if tx.ValidUntilBlock <= tc.height {
			return fmt.Errorf("%w: %d at height %d", ErrTxValidUntilBlock, tx.ValidUntilBlock, tc.height)
		}
		if err := tc.checkOnChain(tx); err != nil {
			return err
		}
		if err := tc.verifyPartialAttributes(tx); err != nil {
			return err
		}
		attrFee, err := tc.attributeFees(tx)
		if err != nil {
			return err
		}
		return tc.verifyPartialWitnesses(tx, tx.NetworkFee-int64(tx.Size())*tc.feePerByte-attrFee)
	})
}

// verifyPartial is VerifyPartialTx's check on tc, in neo-go's order.
func (tc *txCheck) verifyPartial(tx *transaction.Transaction) error {
	if err := vm.ValidateScript(tx.Script); err != nil {
		return fmt.Errorf("%w: %w", ErrTxInvalidScript, err)
	}
	if tx.ValidUntilBlock <= tc.height {
		return fmt.Errorf("%w: %d at height %d", ErrTxValidUntilBlock, tx.ValidUntilBlock, tc.height)
	}
	for _, s := range tx.Signers {
		blocked, err := tc.n.IsBlocked(tc.d, s.Account)
		if err != nil {
			return fmt.Errorf("policy: %w", err)
		}
		if blocked {
			return fmt.Errorf("%w: %s", ErrTxBlockedSigner, s.Account.String())
		}
	}
	size := tx.Size()
	if size > transaction.MaxTransactionSize {
		return fmt.Errorf("%w: %d bytes > %d", ErrTxTooBig, size, transaction.MaxTransactionSize)
	}
	attrFee, err := tc.attributeFees(tx)
	if err != nil {
		return err
	}
	left := tx.NetworkFee - int64(size)*tc.feePerByte - attrFee
	if left < 0 {
		return fmt.Errorf("%w: %d, size fee %d + attribute fees %d", ErrTxNetworkFee, tx.NetworkFee,
			int64(size)*tc.feePerByte, attrFee)
	}
	if err := tc.checkOnChain(tx); err != nil {
		return err
	}
	if err := tc.verifyPartialWitnesses(tx, left); err != nil {
		return err
	}
	return tc.verifyPartialAttributes(tx)
}

// attributeFees sums the Policy fees of tx's attributes (Conflicts ×
// signers, NotaryAssisted × (keys + 1)).
func (tc *txCheck) attributeFees(tx *transaction.Transaction) (int64, error) {
	var total int64
	for i := range tx.Attributes {
		fee, err := tc.attributeFee(tx, &tx.Attributes[i])
		if err != nil {
			return 0, err
		}
		total += fee
	}
	return total, nil
}

// verifyPartialWitnesses runs every witness through the VM within left
// datoshi (each run also capped at MaxVerificationGas), as neo-go does for
// partial transactions: the first witness may return false.
func (tc *txCheck) verifyPartialWitnesses(tx *transaction.Transaction, left int64) error {
	if len(tx.Witnesses) != len(tx.Signers) {
		return fmt.Errorf("%w: %d witnesses for %d signers", ErrWitness, len(tx.Witnesses), len(tx.Signers))
	}
	for i := range tx.Signers {
		h := tx.Signers[i].Account
		if left < 0 {
			return fmt.Errorf("%w: witness %d (%s) exceeds the verification budget", ErrTxNetworkFee, i, h.String())
		}
		fee, err := tc.c.runWitness(tc.d, tx, h, &tx.Witnesses[i], left)
		if err != nil && (i != 0 || !errors.Is(err, ErrWitnessFalse)) {
			return fmt.Errorf("witness %d (%s): %w: %w", i, h.String(), ErrWitness, err)
		}
		left -= fee
	}
	return nil
}

// verifyPartialAttributes checks the attributes as verifyAttributes does,
// except NotValidBefore: at most MaxNotValidBeforeDelta above the height
// and at most MaxNotValidBeforeDelta below ValidUntilBlock.
func (tc *txCheck) verifyPartialAttributes(tx *transaction.Transaction) error {
	for i := range tx.Attributes {
		a := &tx.Attributes[i]
		var err error
		if nvb, ok := a.Value.(*transaction.NotValidBefore); ok {
			err = tc.checkPartialNVB(tx, nvb.Height)
		} else {
			err = tc.verifyAttribute(tx, a)
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrTxInvalidAttribute, a.Type, err)
		}
	}
	return nil
}

func (tc *txCheck) checkPartialNVB(tx *transaction.Transaction, nvb uint32) error {
	delta, err := tc.c.cfg.Natives.Governance.Notary.MaxNotValidBeforeDelta(tc.d)
	if err != nil {
		return fmt.Errorf("MaxNotValidBeforeDelta: %w", err)
	}
	if uint64(tc.height)+uint64(delta) < uint64(nvb) {
		return fmt.Errorf("NotValidBefore (%d) bigger than MaxNVBDelta (%d) allows at height %d", nvb, delta, tc.height)
	}
	if uint64(nvb)+uint64(delta) < uint64(tx.ValidUntilBlock) {
		return fmt.Errorf("NotValidBefore (%d) set more than MaxNVBDelta (%d) away from VUB (%d)",
			nvb, delta, tx.ValidUntilBlock)
	}
	return nil
}

// NotaryDeposit returns acc's Notary deposit in the current state: its
// amount (0 when none) and the height its lock expires at (0 when none).
func (c *Chain) NotaryDeposit(acc util.Uint160) (*big.Int, uint32, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, 0, err
	}
	d := c.view()
	dep, err := n.Governance.Notary.Deposit(d, acc)
	err = errors.Join(err, d.Discard())
	if err != nil || dep == nil {
		return new(big.Int), 0, err
	}
	return new(big.Int).Set(&dep.Amount), dep.Till, nil
}

// NotaryNodes are the keys designated for the P2PNotary role for the next
// block (those whose signature the Notary contract's verify accepts).
func (c *Chain) NotaryNodes() (keys.PublicKeys, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	d := c.view()
	ks, err := n.Governance.Notary.NotaryNodes(d, c.BlockHeight()+1)
	return ks, errors.Join(err, d.Discard())
}
