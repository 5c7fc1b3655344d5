package server

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// Historic invocations (neo-go's invokefunctionhistoric,
// invokescripthistoric and invokecontractverifyhistoric): the first
// parameter names a past state — a block index, a block hash, or a state
// root hash — and the rest are those of the plain method. The run is the
// one of the block after that state: its contract storage is read from
// the state trie at the block's root (chain.ViewAt), and the Ledger
// sees that block as the current one. It needs the old trie nodes, so a
// node with KeepOnlyLatestState refuses with -606, and with
// RemoveUntraceableBlocks the states older than MaxTraceableBlocks are
// refused (by the chain) as neo-go does.

// maxRootScan bounds the search of a state root hash among the latest
// state roots (this node keeps no root → height index).
const maxRootScan = 10_000

// errKeepOnlyLatest is neo-go's reason for refusing old states.
var errKeepOnlyLatest = errors.New("'KeepOnlyLatestState' setting is enabled")

func (s *Server) invokeFunctionHistoric(ps params.Params) (any, *result.Error) {
	st, rest, rerr := s.historicParams(ps)
	if rerr != nil {
		return nil, rerr
	}
	return s.invokeFunctionAt(st, rest)
}

func (s *Server) invokeScriptHistoric(ps params.Params) (any, *result.Error) {
	st, rest, rerr := s.historicParams(ps)
	if rerr != nil {
		return nil, rerr
	}
	return s.invokeScriptAt(st, rest)
}

func (s *Server) invokeContractVerifyHistoric(ps params.Params) (any, *result.Error) {
	st, rest, rerr := s.historicParams(ps)
	if rerr != nil {
		return nil, rerr
	}
	return s.invokeContractVerifyAt(st, rest)
}

// historicParams resolves the state parameter and opens that state; the
// other parameters are returned.
func (s *Server) historicParams(ps params.Params) (execState, params.Params, *result.Error) {
	if s.cfg.KeepOnlyLatestState {
		return execState{}, nil, result.ErrUnsupportedState.WithData(
			fmt.Sprintf("only latest state is supported: %s", errKeepOnlyLatest))
	}
	if len(ps) < 2 {
		return execState{}, nil, result.ErrInvalidParams
	}
	height, rerr := s.historicHeight(&ps[0])
	if rerr != nil {
		return execState{}, nil, rerr
	}
	d, err := s.chain.ViewAt(height)
	if err != nil {
		return execState{}, nil, result.NewInternalError(fmt.Sprintf("failed to create historic VM: %s", err))
	}
	return execState{d: d, height: height}, ps[1:], nil
}

// historicHeight reads a block index, a block hash or a state root hash.
func (s *Server) historicHeight(p *params.Param) (uint32, *result.Error) {
	top := s.chain.BlockHeight()
	if n, err := p.GetInt(); err == nil && n >= 0 && n <= int64(top) {
		return uint32(n), nil
	}
	h, err := p.GetUint256()
	if err != nil {
		return 0, result.NewInvalidParamsError(fmt.Sprintf("invalid block hash or index or stateroot hash: %s", err))
	}
	if b, err := s.chain.GetHeader(h); err == nil {
		return b.Index, nil
	}
	for i := range min(top+1, maxRootScan) {
		sr, err := s.chain.StateRoot(top - i)
		if err != nil {
			break
		}
		if sr.Root == h {
			return top - i, nil
		}
	}
	return 0, result.NewInvalidParamsError("unknown block or stateroot: " + keyNotFound) // neo-go's words
}
