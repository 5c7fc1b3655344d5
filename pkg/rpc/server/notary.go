package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// NotaryHandler is the P2P notary request pool as the notary RPC methods
// use it (wired by pkg/node on a network with P2PSigExtensions).
type NotaryHandler interface {
	// SubmitNotaryRequest verifies a request, pools it and relays it (the
	// reference's RelayP2PNotaryRequest); its error is matched with
	// errors.Is against the mempool's and the chain's sentinels.
	SubmitNotaryRequest(r *payload.P2PNotaryRequest) error
	// NotaryRequests lists the pooled requests.
	NotaryRequests() []*payload.P2PNotaryRequest
	// FindTransaction returns a pooled fallback, or failing that the main
	// transaction of a pooled request, with hash h.
	FindTransaction(h util.Uint256) (*transaction.Transaction, bool)
}

// errP2PSigExtensionsOff is neo-go's answer to the notary methods on a
// network without P2PSigExtensions.
var errP2PSigExtensionsOff = result.NewInternalError("P2PSignatureExtensions are disabled")

// notaryPoolPrefix starts neo-go's data of a refused request.
const notaryPoolPrefix = "failed to add fallback transaction to the notary pool: "

// submitNotaryRequest is submitnotaryrequest(base64 payload): the answer
// is {"hash": the fallback's hash}.
func (s *Server) submitNotaryRequest(ps params.Params) (any, *result.Error) {
	if s.cfg.Notary == nil {
		return nil, errP2PSigExtensionsOff
	}
	raw, err := ps.Value(0).GetBytesBase64()
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("not a base64: %s", err))
	}
	r, err := payload.NewP2PNotaryRequestFromBytes(raw)
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("can't decode notary payload: %s", err))
	}
	fb := r.FallbackTransaction
	err = s.cfg.Notary.SubmitNotaryRequest(r)
	switch {
	case err == nil:
		return &relayResult{Hash: fb.Hash()}, nil
	case errors.Is(err, mempool.ErrDup):
		return nil, errAlreadyInPool.WithData(notaryPoolPrefix + "already exists in mempool")
	case errors.Is(err, mempool.ErrOOM):
		return nil, errMempoolCapReached.WithData(notaryPoolPrefix + "no space left in the memory pool")
	case errors.Is(err, mempool.ErrInsufficientFunds):
		return nil, errInsufficientFunds.WithData(notaryPoolPrefix + "insufficient funds")
	}
	if fromChain(err) {
		// The fallback's own verification: worded as sendrawtransaction's,
		// behind the pool's prefix as neo-go.
		e := s.partialRejection(err, fb)
		return nil, e.WithData(notaryPoolPrefix + e.Data)
	}
	// The request's own checks (payload witness, fallback sender, deposit
	// lock), which neo-go runs first and answers as unclassified, but a
	// payload witness returning false as an invalid signature.
	if errors.Is(err, chain.ErrWitnessFalse) {
		return nil, result.ErrInvalidSignature.WithData(notaryPoolPrefix + "data verification failed: " + err.Error())
	}
	return nil, errVerificationFailed.WithData(notaryPoolPrefix + "data verification failed: " + err.Error())
}

// fromChain reports whether err is one of the chain's transaction
// verification verdicts.
func fromChain(err error) bool {
	for _, e := range []error{chain.ErrAlreadyExists, chain.ErrWitness, chain.ErrTxTooBig, chain.ErrTxInvalidScript,
		chain.ErrTxValidUntilBlock, chain.ErrTxBlockedSigner, chain.ErrTxInsufficientFunds, chain.ErrTxNetworkFee,
		chain.ErrTxInvalidAttribute, chain.ErrTxConflicts, chain.ErrTxSystemFee} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// getRawNotaryPool is getrawnotarypool: {"hashes": {main hash: [fallback
// hashes]}}.
func (s *Server) getRawNotaryPool(params.Params) (any, *result.Error) {
	if s.cfg.Notary == nil {
		return nil, errP2PSigExtensionsOff
	}
	hashes := make(map[string][]util.Uint256)
	for _, r := range s.cfg.Notary.NotaryRequests() {
		k := r.MainTransaction.Hash().String()
		hashes[k] = append(hashes[k], r.FallbackTransaction.Hash())
	}
	return struct {
		Hashes map[string][]util.Uint256 `json:"hashes"`
	}{hashes}, nil
}

// getRawNotaryTransaction is getrawnotarytransaction(hash, verbose): a
// pooled fallback or main transaction, base64 or (verbose) JSON.
func (s *Server) getRawNotaryTransaction(ps params.Params) (any, *result.Error) {
	if s.cfg.Notary == nil {
		return nil, errP2PSigExtensionsOff
	}
	h, err := ps.Value(0).GetUint256()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	tx, ok := s.cfg.Notary.FindTransaction(h)
	if !ok {
		return nil, result.ErrUnknownTransaction
	}
	if v, _ := ps.Value(1).GetBoolean(); v {
		return tx, nil
	}
	return rawTx(tx)
}

// partialRejection answers the verdict err of chain.VerifyPartialTx on a
// request's fallback as neo-go words it: the chain checks in neo-go's
// order, so the sentinel names the failed check; expiry has no upper
// bound, the Notary's placeholder witness may return false and
// NotValidBefore follows the Notary's MaxNotValidBeforeDelta.
func (s *Server) partialRejection(err error, tx *transaction.Transaction) *result.Error {
	d := s.chain.LatestView()
	switch {
	case errors.Is(err, chain.ErrTxSystemFee), errors.Is(err, chain.ErrTxInvalidScript):
		return s.txRejection(err, tx)
	case errors.Is(err, chain.ErrTxValidUntilBlock):
		return relayReject(errExpiredTransaction, "transaction has expired: ValidUntilBlock = %d, current height = %d",
			tx.ValidUntilBlock, s.chain.BlockHeight())
	case errors.Is(err, chain.ErrTxBlockedSigner):
		if acc, ok := s.blockedSigner(d, tx); ok {
			return relayReject(errPolicyFailed, "not allowed by policy: account %s is blocked", acc)
		}
		return errPolicyFailed.WithData(err.Error())
	case errors.Is(err, chain.ErrTxTooBig):
		return relayReject(errInvalidSize, "too big transaction: (%d > MaxTransactionSize %d)",
			tx.Size(), transaction.MaxTransactionSize)
	case errors.Is(err, chain.ErrAlreadyExists):
		return errAlreadyExists.WithData("already exists in blockchain")
	case errors.Is(err, chain.ErrTxConflicts):
		return errVerificationFailed.WithData("blockchain: has conflicts")
	case errors.Is(err, chain.ErrTxInvalidAttribute):
		c := cause(err, chain.ErrTxInvalidAttribute)
		if rest, ok := strings.CutPrefix(c, transaction.AttrNotValidBefore.String()+": "); ok {
			return relayReject(errInvalidAttribute, "invalid attribute: %s", rest)
		}
		return s.attributeRejection(err, tx)
	}
	need, nerr := s.neededNetworkFee(d, tx)
	if nerr == nil && tx.NetworkFee < need {
		return relayReject(errInsufficientNetworkFee, "too small network fee: net fee is %d, need %d", tx.NetworkFee, need)
	}
	if nerr == nil {
		if e := s.partialWitnessRejection(d, tx, tx.NetworkFee-need); e != nil {
			return e
		}
	}
	return s.poolRejection(err, tx)
}

// partialWitnessRejection is witnessRejection for a partially signed
// transaction: the first witness returning false is accepted.
func (s *Server) partialWitnessRejection(d StateView, tx *transaction.Transaction, gas int64) *result.Error {
	if len(tx.Witnesses) != len(tx.Signers) {
		return nil
	}
	for i, sg := range tx.Signers {
		w := &tx.Witnesses[i]
		if e := s.witnessShape(d, i, sg, w); e != nil {
			return e
		}
		used, err := s.chain.VerifyWitness(sg.Account, tx, w, gas)
		switch {
		case err == nil:
			gas -= used
		case errors.Is(err, chain.ErrWitnessFalse) && i == 0:
		case errors.Is(err, chain.ErrWitnessFalse):
			return relayReject(result.ErrInvalidSignature, "witness #%d: signature check failed: invalid signature", i)
		default:
			return relayReject(errVerificationFailed, "witness #%d: %s", i, cause(err, chain.ErrWitness))
		}
	}
	return nil
}
