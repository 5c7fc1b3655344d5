package chain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Transaction verification errors: each names the rule a transaction
// broke; they are returned wrapped with the transaction (and, on block
// import, the block).
var (
	// ErrTxTooBig is a transaction larger than MaxTransactionSize.
	ErrTxTooBig = errors.New("chain: transaction larger than MaxTransactionSize")
	// ErrTxInvalidScript is a transaction script that does not decode
	// strictly.
	ErrTxInvalidScript = errors.New("chain: invalid transaction script")
	// ErrTxValidUntilBlock is a ValidUntilBlock outside (height, height +
	// MaxValidUntilBlockIncrement].
	ErrTxValidUntilBlock = errors.New("chain: ValidUntilBlock out of range")
	// ErrTxBlockedSigner is a transaction signed by an account Policy
	// blocks.
	ErrTxBlockedSigner = errors.New("chain: signer blocked by Policy")
	// ErrTxInsufficientFunds is a sender whose GAS does not cover the fees
	// of its transactions.
	ErrTxInsufficientFunds = errors.New("chain: sender cannot pay the fees")
	// ErrTxNetworkFee is a network fee below the size fee, attribute fees
	// and witness verification costs.
	ErrTxNetworkFee = errors.New("chain: network fee too small")
	// ErrTxInvalidAttribute is an attribute that does not verify.
	ErrTxInvalidAttribute = errors.New("chain: invalid transaction attribute")
	// ErrTxConflicts is a transaction an earlier one declared conflicting.
	ErrTxConflicts = errors.New("chain: transaction conflicts with an earlier one")
	// ErrTxSystemFee is a system fee above MaxBlockSystemFee (checked for
	// transactions outside blocks).
	ErrTxSystemFee = errors.New("chain: system fee above MaxBlockSystemFee")
)

// txCheck verifies transactions against one state (the state the next
// block builds on) and accumulates what the transactions checked so far
// commit to: the sender fees and oracle responses of the reference's
// TransactionVerificationContext, and the hashes and Conflicts records of
// the earlier transactions of the same block, which count as on chain.
type txCheck struct {
	c      *Chain
	d      *dao.DAO
	n      ledgerNatives
	height uint32 // Ledger.CurrentIndex of d

	feePerByte   int64
	execFee      int64 // datoshi per price unit
	maxVUB       uint32
	maxTraceable uint32
	signData     []byte // scratch: magic ‖ tx hash

	// What the transactions checked before this one (add) left: nil
	// until the first add, so that checking a single transaction (the
	// pool's case) makes no maps.
	senderFee map[util.Uint160]*big.Int
	oracleIDs map[uint64]util.Uint256
	seen      map[util.Uint256]struct{}
	conflicts map[util.Uint256][]transaction.Signer
}

// newTxCheck reads the Policy values of d at the chain's current height.
func (c *Chain) newTxCheck(d *dao.DAO) (*txCheck, error) {
	return c.txCheckWith(d, func(h uint32) (Limits, error) { return c.limitsOn(d, h) })
}

// newTxCheckGen is newTxCheck on a view of the committed state taken after
// the tip generation gen was read, with the Policy values cached per
// generation (limitsOfGen): the pool's checks of one block period read
// them once instead of once per transaction.
func (c *Chain) newTxCheckGen(d *dao.DAO, gen uint64) (*txCheck, error) {
	return c.txCheckWith(d, func(h uint32) (Limits, error) { return c.limitsOfGen(d, gen, h) })
}

// txCheckWith makes a check of d at the chain's current height with the
// limits limits returns for it.
func (c *Chain) txCheckWith(d *dao.DAO, limits func(height uint32) (Limits, error)) (*txCheck, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	tc := &txCheck{c: c, d: d, n: n, height: c.BlockHeight()}
	l, err := limits(tc.height)
	if err != nil {
		return nil, err
	}
	tc.feePerByte, tc.execFee, tc.maxVUB, tc.maxTraceable = l.FeePerByte, l.ExecFeeFactor,
		l.MaxValidUntilBlockIncrement, l.MaxTraceableBlocks
	return tc, nil
}

// verifyBlockTxs verifies every transaction of b against the current
// state as the block's predecessor left it, in block order, each earlier
// transaction counting as on chain for the later ones. It is what AddBlock
// runs with VerifyTransactions; the error names the transaction and the
// rule (AddBlock adds the block).
func (c *Chain) verifyBlockTxs(b *block.Block) error {
	tc, err := c.newTxCheck(c.dao)
	if err != nil {
		return err
	}
	for _, tx := range b.Transactions {
		if err := tc.verify(tx); err != nil {
			return fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
		}
	}
	return nil
}

// VerifyTx verifies a transaction that is not in a block against the
// current state, as the reference does before pooling it (plus neo-go's
// MaxBlockSystemFee bound). It waits for a block being added. While the
// store refuses writes it returns the StorageErr, as VerifyTxConcurrent.
func (c *Chain) VerifyTx(tx *transaction.Transaction) error {
	c.addMu.Lock()
	defer c.addMu.Unlock()
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
	tc, err := c.newTxCheck(c.dao)
	if err != nil {
		return err
	}
	if err := tc.verifyAlone(tx); err != nil {
		return fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
	}
	return nil
}

// verify runs every check in the reference's order (presence on chain,
// then Verify: state-independent, then state-dependent) and, on success,
// records tx in the context.
func (tc *txCheck) verify(tx *transaction.Transaction) error {
	if err := tc.verifyAlone(tx); err != nil {
		return err
	}
	tc.add(tx)
	return nil
}

// verifyAlone is verify without recording tx: for a context that checks
// this one transaction only (the pool's, VerifyTx's).
func (tc *txCheck) verifyAlone(tx *transaction.Transaction) error {
	if err := tc.checkOnChain(tx); err != nil {
		return err
	}
	if err := tc.verifyStateIndependent(tx); err != nil {
		return err
	}
	return tc.verifyStateDependent(tx)
}

// checkOnChain rejects a transaction already on chain (or earlier in the
// block) and one an on-chain transaction (or an earlier one of the block)
// declared conflicting with a common signer within MaxTraceableBlocks.
func (tc *txCheck) checkOnChain(tx *transaction.Transaction) error {
	h := tx.Hash()
	if _, ok := tc.seen[h]; ok {
		return fmt.Errorf("%w: transaction already in this block", ErrAlreadyExists)
	}
	if signers, ok := tc.conflicts[h]; ok && sharesSigner(signers, tx.Signers) {
		return fmt.Errorf("%w: declared conflicting earlier in this block", ErrTxConflicts)
	}
	if !tc.c.bloom.ContainsHash(bloomKey(h)) {
		return nil // neither the transaction nor a conflict record is stored
	}
	switch err := tc.d.HasTransaction(h, tx.Signers, tc.height, tc.maxTraceable); {
	case errors.Is(err, dao.ErrAlreadyExists):
		return fmt.Errorf("%w: transaction on chain", ErrAlreadyExists)
	case errors.Is(err, dao.ErrHasConflicts):
		return fmt.Errorf("%w: an on-chain transaction declared it conflicting", ErrTxConflicts)
	case err != nil:
		return err
	}
	return nil
}

func sharesSigner(a, b []transaction.Signer) bool {
	for i := range a {
		for j := range b {
			if a[i].Account == b[j].Account {
				return true
			}
		}
	}
	return false
}

// add records a verified transaction (TransactionVerificationContext
// AddTransaction, plus its hash and Conflicts records for the block).
func (tc *txCheck) add(tx *transaction.Transaction) {
	if tc.seen == nil {
		tc.senderFee, tc.oracleIDs = map[util.Uint160]*big.Int{}, map[uint64]util.Uint256{}
		tc.seen, tc.conflicts = map[util.Uint256]struct{}{}, map[util.Uint256][]transaction.Signer{}
	}
	sender := tx.Sender()
	fee := tc.senderFee[sender]
	if fee == nil {
		fee = new(big.Int)
		tc.senderFee[sender] = fee
	}
	var x big.Int
	fee.Add(fee, x.SetInt64(tx.SystemFee))
	fee.Add(fee, x.SetInt64(tx.NetworkFee))
	if r := oracleResponse(tx); r != nil {
		tc.oracleIDs[r.ID] = tx.Hash()
	}
	tc.seen[tx.Hash()] = struct{}{}
	for _, a := range tx.GetAttributes(transaction.AttrConflicts) {
		if cf, ok := a.Value.(*transaction.Conflicts); ok {
			tc.conflicts[cf.Hash] = append(tc.conflicts[cf.Hash], tx.Signers...)
		}
	}
}

func oracleResponse(tx *transaction.Transaction) *transaction.OracleResponse {
	for _, a := range tx.GetAttributes(transaction.AttrOracleResponse) {
		if r, ok := a.Value.(*transaction.OracleResponse); ok {
			return r
		}
	}
	return nil
}

// verifyStateIndependent is the reference's VerifyStateIndependent: size,
// strict script decoding, and the signatures of standard witnesses (the
// others are run by the VM in verifyStateDependent).
func (tc *txCheck) verifyStateIndependent(tx *transaction.Transaction) error {
	if size := tx.Size(); size > transaction.MaxTransactionSize {
		return fmt.Errorf("%w: %d bytes > %d", ErrTxTooBig, size, transaction.MaxTransactionSize)
	}
	if err := vm.ValidateScript(tx.Script); err != nil {
		return fmt.Errorf("%w: %w", ErrTxInvalidScript, err)
	}
	h := tx.Hash() // the sign data (tx.SignData) built in the scratch buffer
	tc.signData = append(binary.LittleEndian.AppendUint32(tc.signData[:0], uint32(tc.c.proto.Magic)), h[:]...)
	for i := range tx.Witnesses {
		if err := tc.checkStandardWitness(tx.Signers[i].Account, &tx.Witnesses[i]); err != nil {
			return fmt.Errorf("witness %d (%s): %w", i, tx.Signers[i].Account.String(), err)
		}
	}
	return nil
}

// standardWitness classifies w as the reference's fee computation does: a
// signature contract with exactly one 64-byte signature push, or an m-of-n
// multisignature contract with exactly m of them.
func standardWitness(w *transaction.Witness) (key []byte, m int, pubs keys.PublicKeys, sigs [][]byte, ok bool) {
	sigs, ok = parseSigPushes(w.InvocationScript)
	if !ok {
		return nil, 0, nil, nil, false
	}
	if k, isSig := scripts.ParseSignatureContract(w.VerificationScript); isSig {
		return k, 1, nil, sigs, len(sigs) == 1
	}
	if m, pubs, isMulti := scripts.ParseMultiSigContract(w.VerificationScript); isMulti {
		return nil, m, pubs, sigs, len(sigs) == m
	}
	return nil, 0, nil, nil, false
}

func (tc *txCheck) checkStandardWitness(h util.Uint160, w *transaction.Witness) error {
	key, _, pubs, sigs, ok := standardWitness(w)
	if !ok {
		return nil
	}
	if sh := w.ScriptHash(); sh != h {
		return fmt.Errorf("%w: verification script hash %s", ErrWitness, sh.String())
	}
	if key != nil {
		pub, err := keys.NewPublicKeyFromBytes(key)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrWitness, err)
		}
		digest := hash.Sha256(tc.signData)
		if !checkSig(tc.c.sigs, pub, sigs[0], digest[:]) {
			return fmt.Errorf("%w: invalid signature", ErrWitness)
		}
		return nil
	}
	digest := hash.Sha256(tc.signData)
	valid, err := checkMultiSig(tc.c.sigs, digest[:], pubs, sigs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrWitness, err)
	}
	if !valid {
		return fmt.Errorf("%w: invalid multisignature (%d of %d)", ErrWitness, len(sigs), len(pubs))
	}
	return nil
}

// verifyStateDependent is the reference's VerifyStateDependent: the
// ValidUntilBlock window, blocked signers, the sender's GAS against its
// fees in this context, attributes and their fees, the network fee against
// size fee + attribute fees + witness costs (standard witnesses priced by
// formula, the others run by the VM within what is left, at most
// MaxVerificationGas).
func (tc *txCheck) verifyStateDependent(tx *transaction.Transaction) error {
	if tx.ValidUntilBlock <= tc.height || uint64(tx.ValidUntilBlock) > uint64(tc.height)+uint64(tc.maxVUB) {
		return fmt.Errorf("%w: %d at height %d (increment at most %d)", ErrTxValidUntilBlock,
			tx.ValidUntilBlock, tc.height, tc.maxVUB)
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
	if err := tc.checkFunds(tx); err != nil {
		return err
	}
	attrFee, err := tc.verifyAttributes(tx)
	if err != nil {
		return err
	}
	sizeFee := int64(tx.Size()) * tc.feePerByte
	left := tx.NetworkFee - sizeFee - attrFee
	if left < 0 {
		return fmt.Errorf("%w: %d, size fee %d + attribute fees %d", ErrTxNetworkFee, tx.NetworkFee, sizeFee, attrFee)
	}
	return tc.verifyWitnesses(tx, min(left, MaxVerificationGas))
}

// checkFunds is TransactionVerificationContext.CheckTransaction: the
// sender's GAS covers its fees in this context, and no other transaction of
// the context answers the same oracle request.
func (tc *txCheck) checkFunds(tx *transaction.Transaction) error {
	sender := tx.Sender()
	balance, err := tc.n.GASBalance(tc.d, sender)
	if err != nil {
		return fmt.Errorf("GAS balance: %w", err)
	}
	var need, x big.Int // on the stack: this runs for every incoming transaction
	need.SetInt64(tx.SystemFee)
	need.Add(&need, x.SetInt64(tx.NetworkFee))
	if prev := tc.senderFee[sender]; prev != nil {
		need.Add(&need, prev)
	}
	if balance.Cmp(&need) < 0 {
		return fmt.Errorf("%w: %s has %s, needs %s", ErrTxInsufficientFunds, sender.String(), balance,
			new(big.Int).Set(&need))
	}
	if r := oracleResponse(tx); r != nil {
		if other, ok := tc.oracleIDs[r.ID]; ok {
			return fmt.Errorf("%w: oracle request %d already answered by %s", ErrTxInsufficientFunds, r.ID, other.String())
		}
	}
	return nil
}

// verifyWitnesses charges every witness against the verification budget
// left: standard ones by the reference's formulas (their signatures were
// checked state-independently), the others through the VM.
func (tc *txCheck) verifyWitnesses(tx *transaction.Transaction, left int64) error {
	for i := range tx.Witnesses {
		w := &tx.Witnesses[i]
		h := tx.Signers[i].Account
		if key, m, pubs, _, ok := standardWitness(w); ok {
			if key != nil {
				left -= tc.execFee * signatureContractCost()
			} else {
				left -= tc.execFee * multiSigContractCost(m, len(pubs))
			}
		} else {
			fee, err := tc.c.runWitness(tc.d, tx, h, w, left)
			if err != nil {
				return fmt.Errorf("witness %d (%s): %w: %w", i, h.String(), ErrWitness, err)
			}
			left -= fee
		}
		if left < 0 {
			return fmt.Errorf("%w: witness %d (%s) exceeds the verification budget", ErrTxNetworkFee, i, h.String())
		}
	}
	return nil
}

// signatureContractCost is the reference's SignatureContractCost in price
// units: two PUSHDATA1, SYSCALL, CheckSig.
func signatureContractCost() int64 {
	return 2*vm.OpcodePrice(opcode.PUSHDATA1) + vm.OpcodePrice(opcode.SYSCALL) + checkSigPrice
}

// multiSigContractCost is the reference's MultiSignatureContractCost(m, n)
// in price units.
func multiSigContractCost(m, n int) int64 {
	return int64(m+n)*vm.OpcodePrice(opcode.PUSHDATA1) + pushIntPrice(m) + pushIntPrice(n) +
		vm.OpcodePrice(opcode.SYSCALL) + int64(n)*checkSigPrice
}
