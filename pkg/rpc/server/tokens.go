package server

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// maxTransfersLimit bounds the page size of get*transfers (neo-go's).
const maxTransfersLimit = 1000

// maxTokenIDLen bounds the NEP-11 token IDs indexed (the storage key
// limit, as neo-go).
const maxTokenIDLen = 64

// transfer is one side of a token transfer as an account sees it: the
// amount is negative when the account sent it; id is the NEP-11 token
// (nil for NEP-17).
type transfer struct {
	asset        util.Uint160
	amount       *big.Int
	counterparty util.Uint160
	block        uint32
	timestamp    uint64
	tx           util.Uint256
	id           []byte
}

// account is what the tracker knows of one address.
type account struct {
	// lastUpdated is the last block with a transfer of an asset, NEP-17
	// and NEP-11 alike.
	lastUpdated map[util.Uint160]uint32
	nep17       []transfer // oldest first
	nep11       []transfer // oldest first
}

// tokenTracker indexes the NEP-17 (3 arguments) and NEP-11 (4 arguments:
// the token ID last) Transfer notifications of successful executions, as
// neo-go's transfer tracking does. It is kept in memory and brought up to
// the chain's height on demand (on the first token request it reads every
// application log of the chain).
type tokenTracker struct {
	mu       sync.Mutex
	next     uint32 // next block to index
	accounts map[util.Uint160]*account
}

// catchUp indexes the blocks added since the last call.
func (s *Server) catchUp() error {
	t := s.tokens
	height := s.chain.BlockHeight()
	for ; t.next <= height; t.next++ {
		h, ok := s.chain.GetHeaderHash(t.next)
		if !ok {
			return fmt.Errorf("no block %d", t.next)
		}
		b, err := s.chain.GetBlock(h)
		if err != nil {
			return err
		}
		containers := make([]util.Uint256, 0, len(b.Transactions)+1)
		containers = append(containers, h)
		for _, tx := range b.Transactions {
			containers = append(containers, tx.Hash())
		}
		var post []state.AppExecResult
		for i, c := range containers {
			aers, err := s.chain.GetAppExecResults(c, trigger.All)
			if err != nil {
				return err
			}
			for _, aer := range aers {
				if i == 0 && aer.Trigger == trigger.PostPersist {
					post = append(post, aer) // after the transactions
					continue
				}
				t.index(&aer, b.Index, b.Timestamp)
			}
		}
		for i := range post {
			t.index(&post[i], b.Index, b.Timestamp)
		}
	}
	return nil
}

func (t *tokenTracker) index(aer *state.AppExecResult, index uint32, ts uint64) {
	if aer.VMState != vm.HaltState {
		return
	}
	for i := range aer.Events {
		ev := &aer.Events[i]
		if ev.Name != "Transfer" || ev.Item == nil || (ev.Item.Len() != 3 && ev.Item.Len() != 4) {
			continue
		}
		from, ok1 := transferParty(ev.Item.At(0))
		to, ok2 := transferParty(ev.Item.At(1))
		amount, err := ev.Item.At(2).BigInt()
		if !ok1 || !ok2 || err != nil {
			continue
		}
		tr := transfer{asset: ev.ScriptHash, block: index, timestamp: ts, tx: aer.Container}
		if ev.Item.Len() == 4 {
			id, err := ev.Item.At(3).Bytes()
			if err != nil || len(id) > maxTokenIDLen {
				continue
			}
			tr.id = bytes.Clone(id)
			if tr.id == nil {
				tr.id = []byte{}
			}
		}
		if from != (util.Uint160{}) {
			out := tr
			out.amount, out.counterparty = new(big.Int).Neg(amount), to
			t.add(from, out)
		}
		if to != (util.Uint160{}) {
			in := tr
			in.amount, in.counterparty = new(big.Int).Set(amount), from
			t.add(to, in)
		}
	}
}

func (t *tokenTracker) add(h util.Uint160, tr transfer) {
	a := t.accounts[h]
	if a == nil {
		a = &account{lastUpdated: map[util.Uint160]uint32{}}
		t.accounts[h] = a
	}
	a.lastUpdated[tr.asset] = tr.block
	if tr.id != nil {
		a.nep11 = append(a.nep11, tr)
		return
	}
	a.nep17 = append(a.nep17, tr)
}

// transferParty reads a Transfer from/to: null (mint, burn) is the zero
// account.
func transferParty(it stackitem.Item) (util.Uint160, bool) {
	if _, ok := it.(stackitem.Null); ok {
		return util.Uint160{}, true
	}
	b, err := it.Bytes()
	if err != nil || len(b) != util.Uint160Size {
		return util.Uint160{}, false
	}
	h, err := util.Uint160DecodeBytesLE(b)
	return h, err == nil
}

// accountSnapshot returns a copy of what the tracker knows of h.
func (s *Server) accountSnapshot(h util.Uint160) (account, *result.Error) {
	t := s.tokens
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := s.catchUp(); err != nil {
		return account{}, internal("transfer tracking", err)
	}
	a := t.accounts[h]
	if a == nil {
		return account{lastUpdated: map[util.Uint160]uint32{}}, nil
	}
	return account{lastUpdated: maps.Clone(a.lastUpdated), nep17: slices.Clone(a.nep17), nep11: slices.Clone(a.nep11)}, nil
}

func (s *Server) getNEP17Balances(ps params.Params) (any, *result.Error) {
	h, err := ps.Value(0).GetUint160FromAddressOrHex()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	acc, rerr := s.accountSnapshot(h)
	if rerr != nil {
		return nil, rerr
	}
	d := s.chain.LatestView()
	cs, err := d.ContractsWithStandard("NEP-17")
	if err != nil {
		return nil, internal("NEP-17 contracts", err)
	}
	out := result.NEP17Balances{Address: address.Uint160ToString(h), Balances: []result.NEP17Balance{}}
	for _, c := range cs {
		bal, sym, dec, err := s.nep17Balance(d, c.Hash, h)
		if err != nil || bal.Sign() == 0 {
			continue
		}
		out.Balances = append(out.Balances, result.NEP17Balance{Asset: c.Hash, Amount: bal.String(),
			Decimals: dec, LastUpdated: acc.lastUpdated[c.Hash], Name: c.Manifest.Name, Symbol: sym})
	}
	return out, nil
}

// nep17Balance calls balanceOf, symbol and decimals of a token.
func (s *Server) nep17Balance(d StateView, token, h util.Uint160) (*big.Int, string, int, error) {
	items, err := s.readOnlyCalls(d, token, []call{{"balanceOf", []any{h}}, {"symbol", nil}, {"decimals", nil}})
	if err != nil {
		return nil, "", 0, err
	}
	bal, err := items[0].BigInt()
	if err != nil {
		return nil, "", 0, err
	}
	sym, err := items[1].Bytes()
	if err != nil {
		return nil, "", 0, err
	}
	dec, err := items[2].BigInt()
	if err != nil || !dec.IsInt64() || dec.Int64() < 0 || dec.Int64() > 255 {
		return nil, "", 0, fmt.Errorf("bad decimals %v", items[2])
	}
	return bal, string(sym), int(dec.Int64()), nil
}

func (s *Server) getNEP17Transfers(ps params.Params) (any, *result.Error) {
	h, acc, w, rerr := s.transfersParams(ps)
	if rerr != nil {
		return nil, rerr
	}
	out := result.NEP17Transfers{Address: address.Uint160ToString(h),
		Sent: []result.NEP17Transfer{}, Received: []result.NEP17Transfer{}}
	w.each(acc.nep17, func(tr *transfer, r result.NEP17Transfer, sent bool) {
		if sent {
			out.Sent = append(out.Sent, r)
		} else {
			out.Received = append(out.Received, r)
		}
	})
	return out, nil
}

// transfersParams reads the account and the window of get*transfers and
// returns what the tracker knows of the account.
func (s *Server) transfersParams(ps params.Params) (util.Uint160, account, transferWindowParams, *result.Error) {
	h, err := ps.Value(0).GetUint160FromAddressOrHex()
	if err != nil {
		return util.Uint160{}, account{}, transferWindowParams{}, result.ErrInvalidParams
	}
	var w transferWindowParams
	w.start, w.end, w.limit, w.page, err = transferWindow(ps, 1)
	if err != nil {
		return util.Uint160{}, account{}, transferWindowParams{},
			result.NewInvalidParamsError(fmt.Sprintf("malformed timestamps/limit: %s", err))
	}
	acc, rerr := s.accountSnapshot(h)
	return h, acc, w, rerr
}

// transferWindowParams is a time frame (ms, inclusive) and a page of it.
type transferWindowParams struct {
	start, end  uint64
	limit, page int
}

// each calls fn for the transfers of list (oldest first) in the window's
// page, newest first, with the answer's form of each.
func (w transferWindowParams) each(list []transfer, fn func(tr *transfer, r result.NEP17Transfer, sent bool)) {
	var inFrame, taken int
	for i := len(list) - 1; i >= 0; i-- {
		tr := &list[i]
		if tr.timestamp > w.end {
			continue
		}
		if tr.timestamp < w.start {
			break
		}
		inFrame++
		if w.page*w.limit >= inFrame {
			continue
		}
		r := result.NEP17Transfer{Timestamp: tr.timestamp, Asset: tr.asset, Index: tr.block, TxHash: tr.tx}
		if tr.counterparty != (util.Uint160{}) {
			r.Address = address.Uint160ToString(tr.counterparty)
		}
		sent := tr.amount.Sign() <= 0
		if sent {
			r.Amount = new(big.Int).Neg(tr.amount).String()
		} else {
			r.Amount = tr.amount.String()
		}
		fn(tr, r, sent)
		if taken++; taken >= w.limit {
			break
		}
	}
}

// transferWindow reads the optional start and end (ms timestamps, default
// the last 7 days), limit and page parameters from index on.
func transferWindow(ps params.Params, index int) (start, end uint64, limit, page int, err error) {
	limit = maxTransfersLimit
	if p := ps.Value(index + 3); p != nil {
		n, err := p.GetInt()
		switch {
		case err != nil:
			return 0, 0, 0, 0, err
		case n < 0:
			return 0, 0, 0, 0, errors.New("can't use negative page")
		}
		page = int(n)
	}
	if p := ps.Value(index + 2); p != nil {
		n, err := p.GetInt()
		switch {
		case err != nil:
			return 0, 0, 0, 0, err
		case n <= 0:
			return 0, 0, 0, 0, errors.New("can't use negative or zero limit")
		case n > maxTransfersLimit:
			return 0, 0, 0, 0, errors.New("too big limit requested")
		}
		limit = int(n)
	}
	now := time.Now()
	end, start = uint64(now.UnixMilli()), uint64(now.Add(-7*24*time.Hour).UnixMilli())
	if p := ps.Value(index + 1); p != nil {
		n, err := p.GetInt()
		if err != nil {
			return 0, 0, 0, 0, err
		}
		end = uint64(n)
	}
	if p := ps.Value(index); p != nil {
		n, err := p.GetInt()
		if err != nil {
			return 0, 0, 0, 0, err
		}
		start = uint64(n)
	}
	return start, end, limit, page, nil
}

// call is one read-only contract call of readOnlyCalls.
type call struct {
	method string
	args   []any
}

// readOnlyCalls runs the calls on token in one test script (ReadOnly
// flags, MaxGasInvoke) and returns their results in order.
func (s *Server) readOnlyCalls(d StateView, token util.Uint160, calls []call) ([]stackitem.Item, error) {
	b := emit.NewBuilder()
	for _, c := range calls {
		b.AppCall(token, c.method, byte(callflag.ReadOnly), c.args...)
	}
	script, err := b.Script()
	if err != nil {
		return nil, err
	}
	blk, err := s.fakeNextBlock(s.chain.BlockHeight())
	if err != nil {
		return nil, err
	}
	ic, err := d.TestContext(trigger.Application, nil, blk, int64(s.cfg.MaxGasInvoke))
	if err != nil {
		return nil, err
	}
	if _, err := ic.LoadScript(script, callflag.All, -1, 0); err != nil {
		return nil, err
	}
	// The texts are neo-go's (they reach getnep11properties' error data;
	// the hash big-endian without "0x", as in neo-go's texts).
	if err := ic.Run(); err != nil {
		return nil, fmt.Errorf("failed to run %d methods of %s: %w", len(calls), token.StringBE(), err)
	}
	items := ic.VM().ResultStack().Items()
	if ic.VM().State() != vm.HaltState {
		return nil, fmt.Errorf("failed to run %d methods of %s: %s", len(calls), token.StringBE(), ic.VM().State())
	}
	if len(items) != len(calls) {
		return nil, fmt.Errorf("invalid return values count: expected %d, got %d", len(calls), len(items))
	}
	return items, nil
}
