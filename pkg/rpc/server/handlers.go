package server

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// handler answers one method: a result to print as JSON, or an error.
type handler func(s *Server, ps params.Params) (any, *result.Error)

// handlers maps the method names to their handlers (filled in init to
// keep the table free of an initialisation cycle through handle).
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"calculatenetworkfee":          (*Server).calculateNetworkFee,
		"findstates":                   (*Server).findStates,
		"findstorage":                  (*Server).findStorage,
		"findstoragehistoric":          (*Server).findStorageHistoric,
		"getapplicationlog":            (*Server).getApplicationLog,
		"getbestblockhash":             (*Server).getBestBlockHash,
		"getblock":                     (*Server).getBlock,
		"getblockcount":                (*Server).getBlockCount,
		"getblocknotifications":        (*Server).getBlockNotifications,
		"getblockhash":                 (*Server).getBlockHash,
		"getblockheader":               (*Server).getBlockHeader,
		"getblockheadercount":          (*Server).getBlockHeaderCount,
		"getblocksysfee":               (*Server).getBlockSysFee,
		"getcandidates":                (*Server).getCandidates,
		"getcommittee":                 (*Server).getCommittee,
		"getconnectioncount":           (*Server).getConnectionCount,
		"getcontractstate":             (*Server).getContractState,
		"getnativecontracts":           (*Server).getNativeContracts,
		"getnep11balances":             (*Server).getNEP11Balances,
		"getnep11properties":           (*Server).getNEP11Properties,
		"getnep11transfers":            (*Server).getNEP11Transfers,
		"getnep17balances":             (*Server).getNEP17Balances,
		"getnep17transfers":            (*Server).getNEP17Transfers,
		"getnextblockvalidators":       (*Server).getNextBlockValidators,
		"getpeers":                     (*Server).getPeers,
		"getproof":                     (*Server).getProof,
		"getrawmempool":                (*Server).getRawMempool,
		"getrawnotarypool":             (*Server).getRawNotaryPool,
		"getrawnotarytransaction":      (*Server).getRawNotaryTransaction,
		"getrawtransaction":            (*Server).getRawTransaction,
		"getstate":                     (*Server).getState,
		"getstateheight":               (*Server).getStateHeight,
		"getstateroot":                 (*Server).getStateRoot,
		"getstorage":                   (*Server).getStorage,
		"getstoragehistoric":           (*Server).getStorageHistoric,
		"gettransactionheight":         (*Server).getTransactionHeight,
		"getunclaimedgas":              (*Server).getUnclaimedGas,
		"getversion":                   (*Server).getVersion,
		"invokecontractverify":         (*Server).invokeContractVerify,
		"invokecontractverifyhistoric": (*Server).invokeContractVerifyHistoric,
		"invokecontainedscript":        (*Server).invokeContainedScript,
		"invokefunction":               (*Server).invokeFunction,
		"invokefunctionhistoric":       (*Server).invokeFunctionHistoric,
		"invokescript":                 (*Server).invokeScript,
		"invokescripthistoric":         (*Server).invokeScriptHistoric,
		"sendrawtransaction":           (*Server).sendRawTransaction,
		"submitblock":                  (*Server).submitBlock,
		"submitnotaryrequest":          (*Server).submitNotaryRequest,
		"submitoracleresponse":         (*Server).submitOracleResponse,
		"terminatesession":             (*Server).terminateSession,
		"traverseiterator":             (*Server).traverseIterator,
		"validateaddress":              (*Server).validateAddress,
		"verifyproof":                  (*Server).verifyProof,
	}
}

// Methods returns the names of the supported methods.
func Methods() []string {
	out := make([]string, 0, len(handlers))
	for m := range handlers {
		out = append(out, m)
	}
	return out
}

// internal wraps an unexpected failure as -32603.
func internal(what string, err error) *result.Error {
	return result.NewInternalError(fmt.Sprintf("%s: %s", what, err))
}

// isNotFound reports whether err says a record is missing.
func isNotFound(err error) bool { return errors.Is(err, chain.ErrNotFound) }

// keyNotFound is how neo-go's answers word a missing record (its storage
// layer's ErrKeyNotFound), where they quote the error.
const keyNotFound = "key not found"

// notFoundData is the data of an answer quoting err: neo-go's words for a
// missing record, else err's text.
func notFoundData(err error) string {
	if isNotFound(err) {
		return keyNotFound
	}
	return err.Error()
}

// unknown is e for a missing record, without data as neo-go answers it;
// any other failure keeps its text.
func unknown(e *result.Error, err error) *result.Error {
	if isNotFound(err) {
		return e
	}
	return e.WithData(err.Error())
}

// heightFromParam reads a block index between 0 and the height.
func (s *Server) heightFromParam(p *params.Param) (uint32, *result.Error) {
	n, err := p.GetInt()
	if err != nil {
		return 0, result.ErrInvalidParams
	}
	if n < 0 || n > int64(s.chain.BlockHeight()) {
		return 0, result.ErrUnknownHeight.WithData(fmt.Sprintf(
			"param at index 0 should be greater than or equal to 0 and less than or equal to current block height, got: %d", n))
	}
	return uint32(n), nil
}

// blockHashFromParam reads a block hash, or an index resolved to one.
func (s *Server) blockHashFromParam(p *params.Param) (util.Uint256, *result.Error) {
	if p == nil {
		return util.Uint256{}, result.ErrInvalidParams
	}
	if h, err := p.GetUint256(); err == nil {
		return h, nil
	}
	i, rerr := s.heightFromParam(p)
	if rerr != nil {
		return util.Uint256{}, rerr
	}
	h, ok := s.chain.GetHeaderHash(i)
	if !ok {
		return util.Uint256{}, result.ErrUnknownHeight
	}
	return h, nil
}
