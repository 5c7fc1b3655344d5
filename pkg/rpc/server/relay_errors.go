package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/util"
)

// sendrawtransaction's rejections are answered as neo-go v0.122.0 answers
// them: the code of its getRelayResult and, as data, the text of its
// verification error. neo-go checks a transaction in a fixed order (system
// fee, script, ValidUntilBlock, blocked signers, size, network fee, on
// chain, witnesses, attributes, then the pool) and reports the first
// failure; n3d's chain checks in its own order, so the verdict is
// reclassified here: the cheap checks neo-go makes first are answered from
// the transaction and the chain's height, witnesses are re-run through the
// Ledger when neo-go would have reached them before n3d's failure, and the
// rest is matched with errors.Is against the chain's and the pool's
// sentinels. The chain's rules stay in pkg/core; only the wording and the
// precedence are neo-go's here.

// relayReject is a rejection: neo-go's code and message with its data.
func relayReject(e *result.Error, format string, args ...any) *result.Error {
	return e.WithData(fmt.Sprintf(format, args...))
}

// txRejection answers a verdict err (not nil) on tx.
func (s *Server) txRejection(err error, tx *transaction.Transaction) *result.Error {
	if errors.Is(err, chain.ErrTxSystemFee) {
		return relayReject(errPolicyFailed, "not allowed by policy: too big system fee (%d > MaxBlockSystemFee %d)",
			tx.SystemFee, s.chain.Config().MaxBlockSystemFee)
	}
	if errors.Is(err, chain.ErrTxInvalidScript) {
		return relayReject(errInvalidScript, "invalid script: %s", cause(err, chain.ErrTxInvalidScript))
	}
	d := s.chain.LatestView()
	if e := s.vubRejection(d, tx); e != nil {
		return e
	}
	switch {
	case errors.Is(err, chain.ErrTxBlockedSigner):
		if acc, ok := s.blockedSigner(d, tx); ok {
			return relayReject(errPolicyFailed, "not allowed by policy: account %s is blocked", acc)
		}
		return errPolicyFailed.WithData(err.Error())
	case errors.Is(err, chain.ErrTxTooBig):
		return relayReject(errInvalidSize, "too big transaction: (%d > MaxTransactionSize %d)",
			tx.Size(), transaction.MaxTransactionSize)
	}
	need, nerr := s.neededNetworkFee(d, tx)
	if nerr == nil && tx.NetworkFee < need {
		return relayReject(errInsufficientNetworkFee, "too small network fee: net fee is %d, need %d", tx.NetworkFee, need)
	}
	switch {
	case errors.Is(err, chain.ErrAlreadyExists):
		return errAlreadyExists.WithData("already exists in blockchain")
	case errors.Is(err, chain.ErrTxConflicts):
		return errVerificationFailed.WithData("blockchain: has conflicts")
	}
	if nerr == nil {
		if e := s.witnessRejection(d, tx, tx.NetworkFee-need); e != nil {
			return e
		}
	}
	if errors.Is(err, chain.ErrTxInvalidAttribute) {
		return s.attributeRejection(err, tx)
	}
	return s.poolRejection(err, tx)
}

// cause is err's text after the sentinel's (the detail the chain added).
func cause(err, sentinel error) string {
	msg := err.Error()
	if i := strings.Index(msg, sentinel.Error()+": "); i >= 0 {
		return msg[i+len(sentinel.Error())+2:]
	}
	return msg
}

func (s *Server) vubRejection(d StateView, tx *transaction.Transaction) *result.Error {
	height := s.chain.BlockHeight()
	if tx.ValidUntilBlock <= height {
		return relayReject(errExpiredTransaction, "transaction has expired: ValidUntilBlock = %d, current height = %d",
			tx.ValidUntilBlock, height)
	}
	inc, err := d.MaxValidUntilBlockIncrement()
	if err == nil && tx.ValidUntilBlock > height+inc {
		return relayReject(errExpiredTransaction,
			"transaction is not yet valid: ValidUntilBlock = %d, current height = %d, max allowed ValidUntilBlock = %d",
			tx.ValidUntilBlock, height, height+inc)
	}
	return nil
}

// blockedSigner is the first signer the Policy contract blocks, in
// neo-go's form (little-endian hex).
func (s *Server) blockedSigner(d StateView, tx *transaction.Transaction) (string, bool) {
	for _, sg := range tx.Signers {
		if blocked, err := d.IsBlocked(sg.Account); err == nil && blocked {
			return sg.Account.StringBE(), true
		}
	}
	return "", false
}

// neededNetworkFee is the size fee plus the attribute fees (neo-go's
// needNetworkFee).
func (s *Server) neededNetworkFee(d StateView, tx *transaction.Transaction) (int64, error) {
	perByte, err := d.FeePerByte()
	if err != nil {
		return 0, err
	}
	need := int64(tx.Size()) * perByte
	for _, a := range tx.Attributes {
		f, err := d.AttributeFee(a.Type)
		if err != nil {
			return 0, err
		}
		switch a.Type {
		case transaction.AttrConflicts:
			f *= int64(len(tx.Signers))
		case transaction.AttrNotaryAssisted:
			if na, ok := a.Value.(*transaction.NotaryAssisted); ok {
				f *= int64(na.NKeys) + 1
			}
		}
		need += f
	}
	return need, nil
}

// witnessRejection runs tx's witnesses in order within gas (what the
// network fee leaves) and answers the first that fails as neo-go words it;
// nil when all pass.
func (s *Server) witnessRejection(d StateView, tx *transaction.Transaction, gas int64) *result.Error {
	if len(tx.Witnesses) != len(tx.Signers) {
		return nil
	}
	for i, sg := range tx.Signers {
		w := &tx.Witnesses[i]
		if e := s.witnessShape(d, i, sg, w); e != nil {
			return e
		}
		used, err := s.chain.VerifyWitness(sg.Account, tx, w, gas)
		if err != nil {
			// The VM's verdict: a script that returned false is neo-go's
			// ErrInvalidSignature (-508), anything else (a FAULT, a bad
			// invocation script) its ErrVerificationFailed (-500).
			if strings.HasSuffix(err.Error(), "verification returned false") {
				return relayReject(result.ErrInvalidSignature, "witness #%d: signature check failed: invalid signature", i)
			}
			return relayReject(errVerificationFailed, "witness #%d: %s", i, cause(err, chain.ErrWitness))
		}
		gas -= used
	}
	return nil
}

// witnessShape checks what neo-go checks before running witness i: the
// verification script's hash, no script for natives, a verify method for
// contract accounts.
func (s *Server) witnessShape(d StateView, i int, sg transaction.Signer, w *transaction.Witness) *result.Error {
	if len(w.VerificationScript) != 0 {
		if h := w.ScriptHash(); h != sg.Account {
			return relayReject(errVerificationFailed, "witness #%d: witness hash mismatch: expected %s, got %s",
				i, sg.Account.StringBE(), h.StringBE())
		}
		if d.IsNative(sg.Account) {
			return relayReject(errVerificationFailed, "witness #%d: native contract witness must have empty verification script", i)
		}
		return nil
	}
	c, err := d.GetContract(sg.Account)
	if err != nil {
		return relayReject(errVerificationFailed, "witness #%d: unknown verification contract", i)
	}
	if md := c.Manifest.ABI.GetMethod(methodVerify, -1); md == nil || md.ReturnType != smartcontract.BoolType {
		return relayReject(errVerificationFailed,
			"witness #%d: verification contract is missing `verify` method or `verify` method has unexpected return value", i)
	}
	return nil
}

func (s *Server) attributeRejection(err error, tx *transaction.Transaction) *result.Error {
	for _, a := range tx.Attributes {
		switch a.Type {
		case transaction.AttrHighPriority:
			if strings.Contains(err.Error(), "HighPriority") {
				return errInvalidAttribute.WithData("invalid attribute: high priority tx is not signed by committee")
			}
		case transaction.AttrNotValidBefore:
			nvb, ok := a.Value.(*transaction.NotValidBefore)
			if h := s.chain.BlockHeight(); ok && nvb.Height > h {
				return relayReject(errInvalidAttribute,
					"invalid attribute: transaction is not yet valid: NotValidBefore = %d, current height = %d", nvb.Height, h)
			}
		}
	}
	return relayReject(errInvalidAttribute, "invalid attribute: %s", cause(err, chain.ErrTxInvalidAttribute))
}

func (s *Server) poolRejection(err error, tx *transaction.Transaction) *result.Error {
	switch {
	case errors.Is(err, mempool.ErrDup):
		return errAlreadyInPool.WithData("already exists in mempool")
	case errors.Is(err, mempool.ErrOOM): // txpipe.ErrPoolFull included
		return errMempoolCapReached.WithData("no space left in the memory pool")
	case errors.Is(err, chain.ErrTxInsufficientFunds):
		return errInsufficientFunds.WithData("insufficient funds")
	case errors.Is(err, mempool.ErrOracleResponse):
		return errVerificationFailed.WithData("conflicts with memory pool due to OracleResponse attribute")
	case errors.Is(err, mempool.ErrInsufficientFunds):
		return errInsufficientFunds.WithData("invalid transaction due to conflicts with the memory pool")
	case errors.Is(err, mempool.ErrConflict):
		return errVerificationFailed.WithData("mempool: has conflicts: conflicts with memory pool due to Conflicts attribute: " +
			s.conflictDetail(tx))
	case errors.Is(err, chain.ErrWitness):
		return result.ErrInvalidSignature.WithData(err.Error())
	case errors.Is(err, chain.ErrTxNetworkFee):
		return errInsufficientNetworkFee.WithData(err.Error())
	}
	return errVerificationFailed.WithData(err.Error())
}

// conflictDetail says why tx cannot go into the pool beside the pooled
// transactions it conflicts with, as neo-go's pool does: those that name
// tx in their Conflicts attributes (their fees count when the sender signs
// them), then those tx names (which must share a signer with it); tx must
// pay more network fee than all of them.
func (s *Server) conflictDetail(tx *transaction.Transaction) string {
	if s.cfg.Mempool == nil {
		return ""
	}
	var fees int64
	h, sender := tx.Hash(), tx.Sender()
	for _, old := range s.cfg.Mempool.GetVerifiedTransactions() {
		if namesConflict(old, h) && old.HasSigner(sender) {
			fees += old.NetworkFee
		}
	}
	for _, a := range tx.Attributes {
		c, ok := a.Value.(*transaction.Conflicts)
		if a.Type != transaction.AttrConflicts || !ok {
			continue
		}
		old, ok := s.cfg.Mempool.TryGet(c.Hash)
		if !ok {
			continue
		}
		if !shareSigner(old, tx) {
			// neo-go prints the hash's bytes in order (our StringLE).
			return fmt.Sprintf("not signed by a signer of conflicting transaction %s", old.Hash().StringLE())
		}
		fees += old.NetworkFee
	}
	return fmt.Sprintf("conflicting transactions have bigger or equal network fee: %d vs %d", tx.NetworkFee, fees)
}

// namesConflict reports whether tx has a Conflicts attribute naming h.
func namesConflict(tx *transaction.Transaction, h util.Uint256) bool {
	for _, a := range tx.Attributes {
		if c, ok := a.Value.(*transaction.Conflicts); ok && a.Type == transaction.AttrConflicts && c.Hash == h {
			return true
		}
	}
	return false
}

// shareSigner reports whether a and b have a signer in common.
func shareSigner(a, b *transaction.Transaction) bool {
	for _, sg := range a.Signers {
		if b.HasSigner(sg.Account) {
			return true
		}
	}
	return false
}
