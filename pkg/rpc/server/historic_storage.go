package server

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// getstoragehistoric [root, contract, key] and findstoragehistoric [root,
// contract, prefix, start?] (neo-go extensions): getstorage and
// findstorage on the contract storage of a state root, read from the trie.
// As neo-go, a trie node missing from the store reads as an absent item.

func (s *Server) getStorageHistoric(ps params.Params) (any, *result.Error) {
	d, rerr := s.stateRootView(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	if len(ps) < 2 {
		return nil, result.ErrInvalidParams
	}
	id, rerr := s.historicContractID(d, ps.Value(1))
	if rerr != nil {
		return nil, rerr
	}
	key, err := ps.Value(2).GetBytesBase64()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	v, err := d.GetStorageItem(id, key)
	switch {
	case err == nil:
		return v, nil
	case isNotFound(err) || errors.Is(err, mpt.ErrMissingNode):
		return nil, result.ErrUnknownStorageItem
	default:
		return nil, internal("failed to get state item", err)
	}
}

func (s *Server) findStorageHistoric(ps params.Params) (any, *result.Error) {
	d, rerr := s.stateRootView(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	if len(ps) < 3 {
		return nil, result.ErrInvalidParams
	}
	id, rerr := s.historicContractID(d, ps.Value(1))
	if rerr != nil {
		return nil, rerr
	}
	res, rerr, err := findStoragePage(d, id, ps, 2, s.cfg.MaxFindStorageResultItems)
	if rerr != nil {
		return nil, rerr
	}
	if err != nil && !errors.Is(err, mpt.ErrMissingNode) {
		return nil, internal("failed to find state items", err)
	}
	return res, nil
}

// stateRootView opens the contract storage at a state root parameter.
func (s *Server) stateRootView(p *params.Param) (StateView, *result.Error) {
	root, err := p.GetUint256()
	if err != nil {
		return nil, result.ErrInvalidParams.WithData("invalid stateroot")
	}
	if s.cfg.KeepOnlyLatestState {
		cur, err := s.chain.StateRoot(s.chain.BlockHeight())
		if err != nil {
			return nil, internal("failed to get current stateroot", err)
		}
		if cur.Root != root {
			return nil, result.ErrUnsupportedState.WithData(
				fmt.Sprintf("state-based methods are not supported for old states: %s", errKeepOnlyLatest))
		}
	}
	d, err := s.chain.ViewAtRoot(root)
	if err != nil {
		return nil, internal("state trie", err)
	}
	return d, nil
}

// historicContractID resolves a contract id (taken as is), hash, address
// or native name to its id in the state of d.
func (s *Server) historicContractID(d StateView, p *params.Param) (int32, *result.Error) {
	str, err := p.GetString()
	if err != nil {
		return 0, result.ErrInvalidParams
	}
	if id, err := strconv.ParseInt(str, 10, 32); err == nil {
		return int32(id), nil
	}
	h, rerr := s.contractHashFromParam(d, p)
	if rerr != nil {
		return 0, rerr
	}
	c, err := d.GetContract(h)
	if err != nil {
		return 0, result.ErrUnknownContract.WithData("Failed to get historical contract state: " + historicNotFound(err))
	}
	return c.ID, nil
}

// historicNotFound words a failed read of an old state as neo-go's state
// module does: a missing record is "item not found".
func historicNotFound(err error) string {
	if isNotFound(err) {
		return "item not found"
	}
	return err.Error()
}
