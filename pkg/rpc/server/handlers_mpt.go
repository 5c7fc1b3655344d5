package server

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// checkRoot refuses old roots on a node that keeps only the latest state.
func (s *Server) checkRoot(root util.Uint256) *result.Error {
	if !s.cfg.KeepOnlyLatestState {
		return nil
	}
	sr, err := s.chain.StateRoot(s.chain.BlockHeight())
	if err != nil {
		return internal("state root", err)
	}
	if sr.Root != root {
		return result.ErrUnsupportedState.WithData(
			fmt.Sprintf("'getstate' is not supported for old states: only latest state is supported"))
	}
	return nil
}

// contractAt reads the state of contract h from the trie at root.
func contractAt(t TrieView, h util.Uint160) (*state.Contract, *result.Error) {
	c, err := t.Contract(h)
	switch {
	case errors.Is(err, chain.ErrBadRecord):
		return nil, internal("contract state", err)
	case err != nil:
		return nil, result.ErrUnknownContract.WithData(fmt.Sprintf("Failed to get historical contract state: %s", mptErrText(err)))
	}
	return c, nil
}

// mptErrText words a trie read error as neo-go's state module does: a
// missing key or root node is "item not found".
func mptErrText(err error) string {
	if errors.Is(err, mpt.ErrNotFound) || errors.Is(err, mpt.ErrMissingNode) {
		return "item not found"
	}
	return err.Error()
}

// stateParamErrs are the answers of stateParams to bad parameters, which
// neo-go words differently per method.
type stateParamErrs struct {
	root, contract, key func(err error) *result.Error
}

// plainParamErrs is getproof's: the generic invalid-params answer.
var plainParamErrs = stateParamErrs{
	root:     func(error) *result.Error { return result.ErrInvalidParams },
	contract: func(error) *result.Error { return result.ErrInvalidParams },
	key:      func(error) *result.Error { return result.ErrInvalidParams },
}

// stateParams reads root, contract hash and key (or prefix) and opens the
// trie with the contract's state.
func (s *Server) stateParams(ps params.Params, perr stateParamErrs) (TrieView, *state.Contract, []byte, *result.Error) {
	root, err := ps.Value(0).GetUint256()
	if err != nil {
		return nil, nil, nil, perr.root(err)
	}
	if rerr := s.checkRoot(root); rerr != nil {
		return nil, nil, nil, rerr
	}
	h, err := ps.Value(1).GetUint160FromHex()
	if err != nil {
		return nil, nil, nil, perr.contract(err)
	}
	key, err := ps.Value(2).GetBytesBase64()
	if err != nil {
		return nil, nil, nil, perr.key(err)
	}
	t, err := s.chain.TrieAt(root)
	if err != nil {
		return nil, nil, nil, internal("state trie", err)
	}
	c, rerr := contractAt(t, h)
	if rerr != nil {
		return nil, nil, nil, rerr
	}
	return t, c, key, nil
}

func invalidParam(data string) func(error) *result.Error {
	return func(error) *result.Error { return result.ErrInvalidParams.WithData(data) }
}

func invalidParamCause(what string) func(error) *result.Error {
	return func(err error) *result.Error { return result.ErrInvalidParams.WithData(what + ": " + err.Error()) }
}

func (s *Server) getState(ps params.Params) (any, *result.Error) {
	t, c, key, rerr := s.stateParams(ps, stateParamErrs{root: invalidParam("invalid stateroot"),
		contract: invalidParam("invalid contract hash"), key: invalidParam("invalid key")})
	if rerr != nil {
		return nil, rerr
	}
	v, err := t.Get(c.ID, key)
	switch {
	case errors.Is(err, mpt.ErrNotFound):
		return nil, result.ErrInvalidParams.WithData("invalid key: " + mptErrText(err))
	case err != nil:
		return nil, result.NewInternalError(fmt.Sprintf("Failed to get historical item state: %s", err))
	}
	return v, nil
}

// proofString is the getproof form: base64 of varbytes key ‖ var count ‖
// varbytes node*.
func proofString(key []byte, proof [][]byte) (string, error) {
	w := io.NewBufBinWriter()
	w.WriteVarBytes(key)
	w.WriteVarUint(uint64(len(proof)))
	for _, p := range proof {
		w.WriteVarBytes(p)
	}
	if w.Err != nil {
		return "", w.Err
	}
	return base64.StdEncoding.EncodeToString(w.Bytes()), nil
}

// maxProofNodes bounds the nodes of a proof given to verifyproof (a path
// is at most 2 × 64 × 2 nibbles deep).
const maxProofNodes = 1024

func parseProof(s string) ([]byte, [][]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, nil, err
	}
	r := io.NewBinReaderFromBuf(raw)
	key := r.ReadVarBytes(mpt.MaxKeyLength)
	n := r.ReadVarUint()
	if n > maxProofNodes {
		return nil, nil, fmt.Errorf("%d proof nodes", n)
	}
	proof := make([][]byte, 0, n)
	for range n {
		proof = append(proof, r.ReadVarBytes(io.MaxArraySize))
		if r.Err != nil {
			break
		}
	}
	if r.Err == nil && r.Len() != 0 {
		return nil, nil, errors.New("trailing bytes")
	}
	return key, proof, r.Err
}

func (s *Server) getProof(ps params.Params) (any, *result.Error) {
	if s.cfg.KeepOnlyLatestState {
		return nil, result.ErrUnsupportedState.WithData("'getproof' is not supported: only latest state is supported")
	}
	t, c, key, rerr := s.stateParams(ps, plainParamErrs)
	if rerr != nil {
		return nil, rerr
	}
	sk, proof, err := t.Proof(c.ID, key)
	switch {
	case errors.Is(err, mpt.ErrNotFound):
		return nil, result.ErrUnknownStorageItem
	case err != nil:
		return nil, result.NewInternalError(fmt.Sprintf("failed to get proof: %s", err))
	}
	str, err := proofString(sk, proof)
	if err != nil {
		return nil, internal("proof", err)
	}
	return str, nil
}

func (s *Server) verifyProof(ps params.Params) (any, *result.Error) {
	if s.cfg.KeepOnlyLatestState {
		return nil, result.ErrUnsupportedState.WithData("'verifyproof' is not supported: only latest state is supported")
	}
	root, err := ps.Value(0).GetUint256()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	str, err := ps.Value(1).GetString()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	key, proof, err := parseProof(str)
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	v, err := mpt.VerifyProof(root, key, proof)
	if err != nil {
		return "invalid", nil
	}
	return v, nil
}

func (s *Server) findStates(ps params.Params) (any, *result.Error) {
	t, c, prefix, rerr := s.stateParams(ps, stateParamErrs{root: invalidParam("invalid stateroot"),
		contract: invalidParamCause("invalid contract hash"), key: invalidParamCause("invalid prefix")})
	if rerr != nil {
		return nil, rerr
	}
	var from []byte
	if len(ps) > 3 {
		key, err := ps.Value(3).GetBytesBase64()
		if err != nil {
			return nil, result.ErrInvalidParams.WithData("invalid key: " + err.Error())
		}
		if len(key) > 0 {
			if !bytes.HasPrefix(key, prefix) {
				return nil, result.ErrInvalidParams.WithData("key doesn't match prefix")
			}
			from = key[len(prefix):]
		}
	}
	num := s.cfg.MaxFindResultItems
	if len(ps) > 4 {
		n, err := ps.Value(4).GetInt()
		if err != nil {
			return nil, result.ErrInvalidParams.WithData("invalid count: " + err.Error())
		}
		num = int(min(n, int64(num)))
	}
	kvs, err := t.Find(c.ID, prefix, from, num+1)
	if err != nil && !errors.Is(err, mpt.ErrNotFound) {
		return nil, result.NewInternalError(fmt.Sprintf("failed to find state items: %s", err))
	}
	res := result.FindStates{Results: []result.KeyValue{}}
	if len(kvs) == num+1 {
		res.Truncated, kvs = true, kvs[:num]
	}
	for i, kv := range kvs {
		if i == 0 || i == len(kvs)-1 {
			sk, proof, err := t.Proof(c.ID, kv.Key)
			if err != nil {
				return nil, result.NewInternalError(fmt.Sprintf("failed to get proof: %s", err))
			}
			str, err := proofString(sk, proof)
			if err != nil {
				return nil, internal("proof", err)
			}
			if i == 0 {
				res.FirstProof = str
			}
			if i == len(kvs)-1 && i > 0 {
				res.LastProof = str
			}
		}
		res.Results = append(res.Results, result.KeyValue{Key: kv.Key, Value: kv.Value})
	}
	return res, nil
}
