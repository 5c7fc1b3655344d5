package server

import (
	"encoding/hex"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// NEP-11 (non-fungible tokens): getnep11balances, getnep11transfers and
// getnep11properties with neo-go's answers. Balances ask every contract
// declaring NEP-11 for tokensOf(account) (the first MaxNEP11Tokens IDs of
// each) and, for divisible tokens, balanceOf(account, id), and list at most
// MaxNEP11Tokens tokens in all (zero balances do not count), as neo-go;
// transfers come from the tracker of tokens.go.

const stdNEP11 = "NEP-11"

// knownNEP11Properties are printed as strings by getnep11properties, the
// other properties as base64 bytes (neo-go's list).
var knownNEP11Properties = map[string]bool{"description": true, "image": true, "name": true, "tokenURI": true}

func (s *Server) getNEP11Balances(ps params.Params) (any, *result.Error) {
	h, err := ps.Value(0).GetUint160FromAddressOrHex()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	acc, rerr := s.accountSnapshot(h)
	if rerr != nil {
		return nil, rerr
	}
	d := s.chain.LatestView()
	cs, err := d.ContractsWithStandard(stdNEP11)
	if err != nil {
		return nil, internal("NEP-11 contracts", err)
	}
	out := result.NEP11Balances{Address: address.Uint160ToString(h), Balances: []result.NEP11AssetBalance{}}
	left := s.cfg.MaxNEP11Tokens
	for _, c := range cs {
		if left <= 0 {
			break
		}
		ids, sym, dec, err := s.nep11Tokens(d, c.Hash, h, s.cfg.MaxNEP11Tokens)
		if err != nil || len(ids) == 0 {
			continue
		}
		divisible := nep11Divisible(&c.Manifest)
		bal := result.NEP11AssetBalance{Asset: c.Hash, Decimals: dec, Name: c.Manifest.Name, Symbol: sym,
			Tokens: make([]result.NEP11TokenBalance, 0, len(ids))}
		for _, id := range ids {
			amount := "1"
			if divisible {
				n, err := s.nep11Balance(d, c.Hash, h, id)
				if err != nil || n.Sign() == 0 {
					continue
				}
				amount = n.String()
			}
			bal.Tokens = append(bal.Tokens, result.NEP11TokenBalance{ID: hex.EncodeToString(id),
				Amount: amount, LastUpdated: acc.lastUpdated[c.Hash]})
			if left--; left <= 0 {
				break
			}
		}
		out.Balances = append(out.Balances, bal)
	}
	return out, nil
}

// nep11Tokens calls tokensOf(h), symbol and decimals of a token and reads
// at most limit token IDs.
func (s *Server) nep11Tokens(d StateView, token, h util.Uint160, limit int) ([][]byte, string, int, error) {
	items, err := s.readOnlyCalls(d, token, []call{{"tokensOf", []any{h}}, {"symbol", nil}, {"decimals", nil}})
	if err != nil {
		return nil, "", 0, err
	}
	in, ok := items[0].(*stackitem.Interop)
	if !ok {
		return nil, "", 0, fmt.Errorf("invalid `tokensOf` result type %s", items[0].Type())
	}
	it, ok := in.Value().(interop.Iterator)
	if !ok {
		return nil, "", 0, fmt.Errorf("invalid `tokensOf` result type %T", in.Value())
	}
	var ids [][]byte
	for len(ids) < limit && it.Next() {
		v, err := it.Value()
		if err != nil {
			return nil, "", 0, err
		}
		id, err := v.Bytes()
		if err != nil || len(id) > maxTokenIDLen {
			continue // not a token ID, as neo-go skips it
		}
		ids = append(ids, id)
	}
	sym, err := items[1].Bytes()
	if err != nil {
		return nil, "", 0, fmt.Errorf("`symbol` return value error: %w", err)
	}
	dec, err := items[2].BigInt()
	if err != nil || !dec.IsInt64() || dec.Sign() < 0 || dec.Int64() > 1<<31-1 {
		return nil, "", 0, fmt.Errorf("`decimals` returned a bad integer %v", items[2])
	}
	return ids, string(sym), int(dec.Int64()), nil
}

// nep11Balance calls balanceOf(h, id) of a divisible token.
func (s *Server) nep11Balance(d StateView, token, h util.Uint160, id []byte) (*big.Int, error) {
	items, err := s.readOnlyCalls(d, token, []call{{"balanceOf", []any{h, id}}})
	if err != nil {
		return nil, err
	}
	return items[0].BigInt()
}

func (s *Server) getNEP11Transfers(ps params.Params) (any, *result.Error) {
	h, acc, w, rerr := s.transfersParams(ps)
	if rerr != nil {
		return nil, rerr
	}
	out := result.NEP11Transfers{Address: address.Uint160ToString(h),
		Sent: []result.NEP11Transfer{}, Received: []result.NEP11Transfer{}}
	w.each(acc.nep11, func(tr *transfer, r result.NEP17Transfer, sent bool) {
		t := result.NEP11Transfer{Timestamp: r.Timestamp, Asset: r.Asset, Address: r.Address,
			ID: hex.EncodeToString(tr.id), Amount: r.Amount, Index: r.Index, TxHash: r.TxHash}
		if sent {
			out.Sent = append(out.Sent, t)
		} else {
			out.Received = append(out.Received, t)
		}
	})
	return out, nil
}

func (s *Server) getNEP11Properties(ps params.Params) (any, *result.Error) {
	asset, err := ps.Value(0).GetUint160FromAddressOrHex()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	id, err := ps.Value(1).GetBytesHex()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	props, err := s.nep11Properties(asset, id)
	if err != nil {
		return nil, result.ErrExecutionFailed.WithData(fmt.Sprintf("Failed to get NEP-11 properties: %s", err))
	}
	out := make(map[string]any, len(props))
	for _, kv := range props {
		k, err := kv.Key.Bytes()
		if err != nil {
			continue
		}
		key := string(k)
		if _, null := kv.Value.(stackitem.Null); null && !knownNEP11Properties[key] {
			out[key] = nil
			continue
		}
		v, err := kv.Value.Bytes()
		if err != nil {
			continue
		}
		if knownNEP11Properties[key] {
			out[key] = string(v)
		} else {
			out[key] = v
		}
	}
	return out, nil
}

// nep11Properties calls properties(id) of a token.
func (s *Server) nep11Properties(token util.Uint160, id []byte) ([]stackitem.MapElement, error) {
	items, err := s.readOnlyCalls(s.chain.LatestView(), token, []call{{"properties", []any{id}}})
	if err != nil {
		return nil, err
	}
	m, ok := items[0].(*stackitem.Map)
	if !ok {
		return nil, fmt.Errorf("invalid `properties` result type %s", items[0].Type())
	}
	return m.Elements(), nil
}

// nep11Divisible reports whether a manifest has the ABI of a divisible
// NEP-11 token (neo-go's standard.ComplyABI with Nep11Divisible: the
// decimal token base, NEP-11's base methods and Transfer event, and the
// divisible balanceOf, ownerOf and transfer; optional methods present
// must match too).
func nep11Divisible(m *manifest.Manifest) bool {
	for _, w := range nep11DivisibleMethods {
		md := m.ABI.GetMethod(w.name, len(w.params))
		if md == nil {
			if w.optional {
				continue
			}
			return false
		}
		if md.ReturnType != w.ret || md.Safe != w.safe {
			return false
		}
		for i, t := range w.params {
			if md.Parameters[i].Type != t {
				return false
			}
		}
	}
	ev := m.ABI.GetEvent("Transfer")
	if ev == nil || len(ev.Parameters) != len(nep11TransferEvent) {
		return false
	}
	for i, t := range nep11TransferEvent {
		if ev.Parameters[i].Type != t {
			return false
		}
	}
	return true
}

// wantMethod is a method a standard asks for.
type wantMethod struct {
	name     string
	params   []smartcontract.ParamType
	ret      smartcontract.ParamType
	safe     bool
	optional bool
}

const (
	h160T  = smartcontract.Hash160Type
	bytesT = smartcontract.ByteArrayType
	intT   = smartcontract.IntegerType
	anyT   = smartcontract.AnyType
	iterT  = smartcontract.InteropInterfaceType
	boolT  = smartcontract.BoolType
)

var nep11DivisibleMethods = []wantMethod{
	// The decimal token base.
	{name: "decimals", ret: intT, safe: true},
	{name: "symbol", ret: smartcontract.StringType, safe: true},
	{name: "totalSupply", ret: intT, safe: true},
	// NEP-11 base.
	{name: "balanceOf", params: []smartcontract.ParamType{h160T}, ret: intT, safe: true},
	{name: "tokensOf", params: []smartcontract.ParamType{h160T}, ret: iterT, safe: true},
	{name: "transfer", params: []smartcontract.ParamType{h160T, bytesT, anyT}, ret: boolT},
	{name: "properties", params: []smartcontract.ParamType{bytesT}, ret: smartcontract.MapType, safe: true, optional: true},
	{name: "tokens", ret: iterT, safe: true, optional: true},
	// Divisible.
	{name: "balanceOf", params: []smartcontract.ParamType{h160T, bytesT}, ret: intT, safe: true},
	{name: "ownerOf", params: []smartcontract.ParamType{bytesT}, ret: iterT, safe: true},
	{name: "transfer", params: []smartcontract.ParamType{h160T, h160T, intT, bytesT, anyT}, ret: boolT},
}

var nep11TransferEvent = []smartcontract.ParamType{h160T, h160T, intT, bytesT}
