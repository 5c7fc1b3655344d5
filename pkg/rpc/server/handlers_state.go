package server

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// contractHashFromParam resolves a contract given by hash, address,
// native name (any case) or id.
func (s *Server) contractHashFromParam(d StateView, p *params.Param) (util.Uint160, *result.Error) {
	if p == nil {
		return util.Uint160{}, result.ErrInvalidParams
	}
	str, err := p.GetString()
	if err != nil {
		return util.Uint160{}, result.ErrInvalidParams
	}
	if h, err := p.GetUint160FromAddressOrHex(); err == nil {
		return h, nil
	}
	if h, ok := s.nativeByName(d, str); ok {
		return h, nil
	}
	id, err := strconv.ParseInt(str, 10, 32)
	if err != nil {
		return util.Uint160{}, result.NewInvalidParamsError(
			fmt.Sprintf("Invalid contract identifier (name/hash/index is expected) : %s", err))
	}
	h, err := d.GetContractHashByID(int32(id))
	if err != nil {
		return util.Uint160{}, unknownContract(err)
	}
	return h, nil
}

// unknownContract answers a contract the state does not have as neo-go
// does (no data); other failures keep their text.
func unknownContract(err error) *result.Error {
	if isNotFound(err) {
		return result.ErrUnknownContract
	}
	return result.ErrUnknownContract.WithData(err.Error())
}

// nativeByName finds a native contract by its manifest name, ignoring case.
func (s *Server) nativeByName(d StateView, name string) (util.Uint160, bool) {
	cs, _ := d.NativeContracts() // a native that cannot be read is not found
	for _, c := range cs {
		if strings.EqualFold(c.Manifest.Name, name) {
			return c.Hash, true
		}
	}
	return util.Uint160{}, false
}

// contractIDFromParam resolves a contract given by hash or id to its id.
func (s *Server) contractIDFromParam(d StateView, p *params.Param) (int32, *result.Error) {
	if p == nil {
		return 0, result.ErrInvalidParams
	}
	if h, err := p.GetUint160FromHex(); err == nil {
		c, err := d.GetContract(h)
		if err != nil {
			return 0, result.ErrUnknownContract
		}
		return c.ID, nil
	}
	id, err := p.GetInt()
	if err != nil {
		return 0, result.ErrInvalidParams
	}
	if id < math.MinInt32 || id > math.MaxInt32 {
		return 0, result.ErrInvalidParams.WithData("value should fit int32")
	}
	return int32(id), nil
}

func (s *Server) getContractState(ps params.Params) (any, *result.Error) {
	d := s.chain.LatestView()
	h, rerr := s.contractHashFromParam(d, ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	c, err := d.GetContract(h)
	if err != nil {
		return nil, unknownContract(err)
	}
	return c, nil
}

// getNativeContracts lists the states of the natives deployed so far, in
// the reference's order.
func (s *Server) getNativeContracts(params.Params) (any, *result.Error) {
	out, err := s.chain.LatestView().NativeContracts()
	if err != nil {
		return nil, internal("native contract state", err)
	}
	return out, nil
}

func (s *Server) getStorage(ps params.Params) (any, *result.Error) {
	d := s.chain.LatestView()
	id, rerr := s.contractIDFromParam(d, ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	key, err := ps.Value(1).GetBytesBase64()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	v, err := d.GetStorageItem(id, key)
	if err != nil {
		if isNotFound(err) {
			return nil, result.ErrUnknownStorageItem
		}
		return nil, internal("storage", err)
	}
	return v, nil
}

func (s *Server) findStorage(ps params.Params) (any, *result.Error) {
	if len(ps) < 2 {
		return nil, result.ErrInvalidParams
	}
	d := s.chain.LatestView()
	id, rerr := s.contractIDFromParam(d, ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	res, rerr, err := findStoragePage(d, id, ps, 1, s.cfg.MaxFindStorageResultItems)
	if rerr != nil {
		return nil, rerr
	}
	if err != nil {
		return nil, internal("storage", err)
	}
	return res, nil
}

// findStoragePage is the page findstorage and findstoragehistoric answer:
// contract id's items under the prefix ps[at] (base64), from the index
// ps[at+1] (0 when absent), at most max of them. rerr is a bad parameter,
// err the storage's (the page then holds what was read before it).
func findStoragePage(d StateView, id int32, ps params.Params, at, max int) (res *result.FindStorage,
	rerr *result.Error, err error) {
	prefix, err := ps.Value(at).GetBytesBase64()
	if err != nil {
		return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("invalid prefix: %s", err)), nil
	}
	var start int64
	if len(ps) > at+1 {
		if start, err = ps.Value(at + 1).GetInt(); err != nil {
			return nil, paramError("invalid start", err), nil
		}
	}
	take := int64(max)
	res = &result.FindStorage{Results: []result.KeyValue{}} // "results":[] when empty, as neo-go
	var i int64
	err = d.SeekStorage(id, prefix, func(k, v []byte) bool {
		switch {
		case i < start:
		case i < start+take:
			res.Results = append(res.Results, result.KeyValue{Key: bytes.Clone(k), Value: bytes.Clone(v)})
		default:
			res.Truncated = true
			return false
		}
		i++
		return true
	})
	res.Next = int(i)
	return res, nil, err
}

func (s *Server) getStateRoot(ps params.Params) (any, *result.Error) {
	p := ps.Value(0)
	if p == nil {
		return nil, result.NewInvalidParamsError("missing stateroot identifier")
	}
	var index uint32
	if n, err := p.GetIntStrict(); err == nil {
		if n < 0 || n > math.MaxUint32 {
			return nil, result.ErrInvalidParams.WithData("value should fit uint32")
		}
		index = uint32(n)
	} else if h, err := p.GetUint256(); err == nil {
		hdr, err := s.chain.GetHeader(h)
		if err != nil {
			return nil, unknown(result.ErrUnknownStateRoot, err)
		}
		index = hdr.Index
	} else {
		return nil, result.ErrUnknownStateRoot // neither an index nor a hash: neo-go's answer
	}
	sr, err := s.chain.StateRoot(index)
	if err != nil {
		return nil, unknown(result.ErrUnknownStateRoot, err)
	}
	out := result.StateRoot{Version: sr.Version, Index: sr.Index, RootHash: sr.Root,
		Witnesses: make([]result.WitnessJSON, len(sr.Witnesses))}
	for i, w := range sr.Witnesses {
		out.Witnesses[i] = result.WitnessJSON{Invocation: w.InvocationScript, Verification: w.VerificationScript}
	}
	return out, nil
}

// getStateHeight: the local root index and the last one the state
// validators signed (0 when none was, as the reference).
func (s *Server) getStateHeight(params.Params) (any, *result.Error) {
	v, err := s.chain.ValidatedStateHeight()
	if err != nil {
		return nil, result.NewInternalError(err.Error())
	}
	return result.StateHeight{Local: s.chain.BlockHeight(), Validated: v}, nil
}
