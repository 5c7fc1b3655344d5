package server

import (
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// Relay error codes of NEP-23 (C# RpcError, neo-go neorpc) that only the
// relay methods return.
const (
	mempoolCapReachedCode      = -502
	alreadyInPoolCode          = -503
	insufficientNetworkFeeCode = -504
	policyFailedCode           = -505
	invalidScriptCode          = -506
	invalidAttributeCode       = -507
	invalidSizeCode            = -509
	expiredTransactionCode     = -510
	insufficientFundsCode      = -511
)

// The relay errors with the reference messages.
var (
	errVerificationFailed     = &result.Error{Code: result.VerificationFailedCode, Message: "Unclassified inventory verification error"}
	errAlreadyExists          = &result.Error{Code: result.AlreadyExistsCode, Message: "Inventory already exists on chain"}
	errMempoolCapReached      = &result.Error{Code: mempoolCapReachedCode, Message: "The memory pool is full and no more transactions can be sent"}
	errAlreadyInPool          = &result.Error{Code: alreadyInPoolCode, Message: "Transaction already exists in the memory pool"}
	errInsufficientNetworkFee = &result.Error{Code: insufficientNetworkFeeCode, Message: "Insufficient network fee"}
	errPolicyFailed           = &result.Error{Code: policyFailedCode, Message: "One of the Policy filters failed"}
	errInvalidScript          = &result.Error{Code: invalidScriptCode, Message: "Invalid script"}
	errInvalidAttribute       = &result.Error{Code: invalidAttributeCode, Message: "Invalid transaction attribute"}
	errInvalidSize            = &result.Error{Code: invalidSizeCode, Message: "Invalid inventory size"}
	errExpiredTransaction     = &result.Error{Code: expiredTransactionCode, Message: "Expired transaction"}
	errInsufficientFunds      = &result.Error{Code: insufficientFundsCode, Message: "Insufficient funds"}
)

// relayResult is the answer of sendrawtransaction and submitblock.
type relayResult struct {
	Hash util.Uint256 `json:"hash"`
}

// appendJSON appends what json.Marshal writes for r.
func (r *relayResult) appendJSON(dst []byte) []byte { return appendHashResult(dst, &r.Hash) }

func appendHashResult(dst []byte, h *util.Uint256) []byte {
	const digits = "0123456789abcdef"
	dst = append(dst, `{"hash":"0x`...)
	for i := len(h) - 1; i >= 0; i-- { // big-endian, as Uint256.String
		dst = append(dst, digits[h[i]>>4], digits[h[i]&0xf])
	}
	return append(dst, `"}`...)
}

// txRelayResult is relayResult of an accepted transaction: one pointer,
// so it becomes an interface value without an allocation.
type txRelayResult struct{ tx *transaction.Transaction }

func (r txRelayResult) appendJSON(dst []byte) []byte {
	h := r.tx.Hash()
	return appendHashResult(dst, &h)
}

// MarshalJSON writes relayResult's JSON (for a caller that marshals
// results itself).
func (r txRelayResult) MarshalJSON() ([]byte, error) { return r.appendJSON(nil), nil }

// txRelayAnswer turns the verdict on a transaction into the answer
// (relay_errors.go words the rejections).
func (s *Server) txRelayAnswer(err error, tx *transaction.Transaction) (any, *result.Error) {
	if err == nil {
		return txRelayResult{tx}, nil
	}
	return nil, s.txRejection(err, tx)
}

// base64Param reads a base64 string parameter of at most maxBytes decoded
// bytes (the encoded length is checked first, so an oversized request is
// never decoded). A plain string (no escapes) is decoded straight from the
// request into a buffer of the decoded size, the one copy of the bytes
// (a transaction's scripts alias it).
func base64Param(ps params.Params, what string, maxBytes int) ([]byte, *result.Error) {
	if len(ps) < 1 && what == "transaction" {
		return nil, result.NewInvalidParamsError("not enough parameters")
	}
	src, ok := ps.Value(0).PlainBytes()
	if !ok {
		s, err := ps.Value(0).GetString()
		if err != nil {
			return nil, result.NewInvalidParamsError(fmt.Sprintf("not a string: %s", err))
		}
		src = []byte(s)
	}
	if limit := base64.StdEncoding.EncodedLen(maxBytes); len(src) > limit {
		return nil, errInvalidSize.WithData(fmt.Sprintf(
			"base64-encoded %s size exceeds maximum allowed: %d vs %d", what, len(src), limit))
	}
	raw := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(raw, src)
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("not a base64: %s", err))
	}
	return raw[:n:n], nil
}

func (s *Server) sendRawTransaction(ps params.Params) (any, *result.Error) {
	raw, rerr := base64Param(ps, "transaction", transaction.MaxTransactionSize)
	if rerr != nil {
		return nil, rerr
	}
	tx, err := transaction.NewTransactionFromBytes(raw)
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("can't decode transaction: %s", err))
	}
	if s.cfg.SubmitTx == nil {
		return nil, result.NewInternalError("no memory pool: transactions are not accepted")
	}
	return s.txRelayAnswer(s.cfg.SubmitTx(s.submitDeadline.context(), tx), tx)
}

func (s *Server) submitBlock(ps params.Params) (any, *result.Error) {
	raw, rerr := base64Param(ps, "block", int(s.chain.Config().MaxBlockSize))
	if rerr != nil {
		return nil, rerr
	}
	b, err := block.NewBlockFromBytesSR(raw, s.chain.Config().StateRootInHeader)
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("can't decode block: %s", err))
	}
	if s.cfg.SubmitBlock == nil {
		return nil, result.NewInternalError("blocks are not accepted")
	}
	switch err := s.cfg.SubmitBlock(b); {
	case err == nil:
		return &relayResult{Hash: b.Hash()}, nil
	case errors.Is(err, chain.ErrAlreadyExists): // neo-go's words
		return nil, errAlreadyExists.WithData(fmt.Sprintf(
			"already exists in blockchain: block with index %d is already on chain", b.Index))
	case errors.Is(err, chain.ErrBlockIndex):
		return nil, errVerificationFailed.WithData(fmt.Sprintf(
			"expected %d, got %d: invalid block index", s.chain.BlockHeight()+1, b.Index))
	default:
		return nil, errVerificationFailed.WithData(err.Error())
	}
}

// rawMempool is the verbose getrawmempool answer. Every pooled
// transaction is verified (see docs/mempool.md), so unverified is always
// empty.
type rawMempool struct {
	Height     uint32         `json:"height"`
	Verified   []util.Uint256 `json:"verified"`
	Unverified []util.Uint256 `json:"unverified"`
}

func (s *Server) getRawMempool(ps params.Params) (any, *result.Error) {
	verbose, _ := ps.Value(0).GetBoolean() // absent or malformed: false, as the references
	hashes := []util.Uint256{}
	if s.cfg.Mempool != nil {
		for _, tx := range s.cfg.Mempool.GetVerifiedTransactions() {
			hashes = append(hashes, tx.Hash())
		}
	}
	if !verbose {
		return hashes, nil
	}
	return rawMempool{Height: s.chain.BlockHeight(), Verified: hashes, Unverified: []util.Uint256{}}, nil
}
