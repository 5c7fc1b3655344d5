package native

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// OracleContract storage prefixes, limits and defaults (reference
// OracleContract).
const (
	oraclePrefixPrice     = 5
	oraclePrefixIDList    = 6
	oraclePrefixRequest   = 7
	oraclePrefixRequestID = 9

	oracleMaxURLLength      = 256
	oracleMaxFilterLength   = 128
	oracleMaxCallbackLength = 32
	oracleMaxUserDataLength = 512
	oracleMaxPendingPerURL  = 256
	oracleMinGASForResponse = 10_000_000
	// DefaultOraclePrice is the request price at genesis.
	DefaultOraclePrice = 50_000_000
)

// Oracle is the OracleContract native: requests from contracts, the
// pending-request bookkeeping, the response callback (finish) and the
// oracle nodes' rewards.
type Oracle struct {
	md *ContractMD
	// GAS, NEO and Designate are set by NewGovernance.
	GAS       *GAS
	NEO       *NEO
	Designate *Designate
}

var _ Contract = (*Oracle)(nil)

func newOracle() *Oracle {
	o := &Oracle{md: NewContractMD(OracleName, OracleID, protocol.HFDefault)}
	o.md.Standards = func(hf protocol.Hardfork) []string {
		if hf >= protocol.HFFaun {
			return []string{"NEP-30"}
		}
		return nil
	}
	o.md.AddUpdateHardfork(protocol.HFFaun)
	p := manifest.NewParameter
	str, intT := smartcontract.StringType, smartcontract.IntegerType
	voidT := smartcontract.VoidType
	o.md.AddMethod(Method{Name: "request", Return: voidT, Flags: callflag.States | callflag.AllowNotify, Handler: o.requestMethod,
		Params: []manifest.Parameter{p("url", str), p("filter", str), p("callback", str),
			p("userData", smartcontract.AnyType), p("gasForResponse", intT)}})
	o.md.AddMethod(Method{Name: "finish", Return: voidT, Flags: callflag.States | callflag.AllowCall | callflag.AllowNotify,
		Handler: o.finishMethod})
	o.md.AddMethod(Method{Name: "verify", Return: smartcontract.BoolType, CPUFee: 1 << 15, Flags: callflag.None,
		Handler: o.verifyMethod})
	o.md.AddMethod(Method{Name: "getPrice", Return: intT, CPUFee: 1 << 15, Flags: callflag.ReadStates, Handler: o.getPriceMethod})
	o.md.AddMethod(Method{Name: "setPrice", Return: voidT, CPUFee: 1 << 15, Flags: callflag.States, Handler: o.setPriceMethod,
		Params: []manifest.Parameter{p("price", intT)}})
	o.md.AddEvent(Event{Name: "OracleRequest", Params: []manifest.Parameter{
		p("Id", intT), p("RequestContract", smartcontract.Hash160Type), p("Url", str), p("Filter", str)}})
	o.md.AddEvent(Event{Name: "OracleResponse", Params: []manifest.Parameter{
		p("Id", intT), p("OriginalTx", smartcontract.Hash256Type)}})
	o.md.Seal()
	return o
}

// Metadata implements Contract.
func (o *Oracle) Metadata() *ContractMD { return o.md }

// Initialize implements Contract: request id counter and price.
func (o *Oracle) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	if hf != o.md.ActiveIn {
		return nil
	}
	d := ic.DAO()
	if err := d.PutBigInt(o.md.ID, []byte{oraclePrefixRequestID}, new(big.Int)); err != nil {
		return err
	}
	return d.PutBigInt(o.md.ID, []byte{oraclePrefixPrice}, big.NewInt(DefaultOraclePrice))
}

// OnPersist implements Contract.
func (o *Oracle) OnPersist(*interop.Context) error { return nil }

func requestKey(id uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{oraclePrefixRequest}, id)
}

func idListKey(url string) []byte {
	h := hash.Hash160([]byte(url))
	return append([]byte{oraclePrefixIDList}, h.BytesLE()...)
}

// Price returns the request price in datoshi.
func (o *Oracle) Price(d *dao.DAO) (int64, error) {
	v, err := d.GetBigInt(o.md.ID, []byte{oraclePrefixPrice})
	if err != nil {
		return 0, err
	}
	if !v.IsInt64() {
		return 0, fmt.Errorf("%w: oracle price %s", ErrInvalidState, v)
	}
	return v.Int64(), nil
}

func (o *Oracle) getPriceMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	v, err := o.Price(ic.DAO())
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(v), nil
}

func (o *Oracle) setPriceMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argInt64(args[0])
	if err != nil {
		return nil, err
	}
	if v <= 0 {
		return nil, interop.Fault(ErrInvalidArgument, "invalid register price")
	}
	if err := o.NEO.assertCommittee(ic); err != nil {
		return nil, err
	}
	return nil, ic.DAO().PutBigInt(o.md.ID, []byte{oraclePrefixPrice}, big.NewInt(v))
}

// Request returns pending request id (nil if absent).
func (o *Oracle) Request(d *dao.DAO, id uint64) (*neostate.OracleRequest, error) {
	return getRecord(d, o.md.ID, requestKey(id), neostate.OracleRequestFromBytes)
}

func (o *Oracle) idList(d *dao.DAO, url string) (neostate.IDList, error) {
	return getRecord(d, o.md.ID, idListKey(url), neostate.IDListFromBytes)
}

func oracleResponse(tx *transaction.Transaction) *transaction.OracleResponse {
	if tx == nil {
		return nil
	}
	attrs := tx.GetAttributes(transaction.AttrOracleResponse)
	if len(attrs) == 0 {
		return nil
	}
	r, _ := attrs[0].Value.(*transaction.OracleResponse)
	return r
}

func (o *Oracle) verifyMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.Bool(oracleResponse(ic.Tx()) != nil), nil
}

// requestArgs are request's checked arguments.
type requestArgs struct {
	url, callback string
	filter        *string
	userItem      stackitem.Item
	gas           int64
}

// utf8Arg is a UTF-8 argument of at most limit bytes.
func utf8Arg(it stackitem.Item, limit int) (string, error) {
	s, err := argString(it)
	if err != nil {
		return "", err
	}
	if len(s) > limit {
		return "", interop.Fault(ErrInvalidArgument, "some of the arguments are invalid")
	}
	return s, nil
}

func parseRequestArgs(args []stackitem.Item) (*requestArgs, error) {
	var r requestArgs
	var err error
	if r.url, err = utf8Arg(args[0], oracleMaxURLLength); err != nil {
		return nil, err
	}
	if !isNull(args[1]) {
		f, err := utf8Arg(args[1], oracleMaxFilterLength)
		if err != nil {
			return nil, err
		}
		r.filter = &f
	}
	if r.callback, err = utf8Arg(args[2], oracleMaxCallbackLength); err != nil {
		return nil, err
	}
	if strings.HasPrefix(r.callback, "_") {
		return nil, interop.Fault(ErrInvalidArgument, "disallowed callback method (starts with '_')")
	}
	if r.gas, err = argInt64(args[4]); err != nil {
		return nil, err
	}
	if r.gas < oracleMinGASForResponse {
		return nil, interop.Fault(ErrInvalidArgument, "not enough gas for response")
	}
	r.userItem = args[3]
	return &r, nil
}

func (o *Oracle) requestMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	r, err := parseRequestArgs(args)
	if err != nil {
		return nil, err
	}
	d := ic.DAO()
	price, err := o.Price(d)
	if err != nil {
		return nil, err
	}
	if err := ic.AddFee(price); err != nil {
		return nil, err
	}
	if err := ic.AddFee(r.gas); err != nil {
		return nil, err
	}
	if err := o.GAS.Mint(ic, o.md.Hash, big.NewInt(r.gas), false); err != nil {
		return nil, err
	}
	return nil, o.storeRequest(ic, r)
}

func (o *Oracle) storeRequest(ic *interop.Context, r *requestArgs) error {
	d := ic.DAO()
	idn, err := d.GetBigInt(o.md.ID, []byte{oraclePrefixRequestID})
	if err != nil {
		return err
	}
	if !idn.IsUint64() {
		return fmt.Errorf("%w: request id %s", ErrInvalidState, idn)
	}
	id := idn.Uint64()
	if err := d.PutBigInt(o.md.ID, []byte{oraclePrefixRequestID}, idn.Add(idn, big.NewInt(1))); err != nil {
		return err
	}
	caller, ok := ic.CallingScriptHash()
	isContract := false
	if ok {
		if isContract, err = contractExists(d, caller); err != nil {
			return err
		}
	}
	if !isContract {
		// The reference fails looking the caller's contract up.
		return interop.Fault(ErrInvalidArgument, "key not found")
	}
	orig, err := o.originalTxID(ic)
	if err != nil {
		return err
	}
	userData, err := stackitem.SerializeLimited(r.userItem, oracleMaxUserDataLength, stackitem.MaxClonableItems)
	if err != nil {
		return fmt.Errorf("%w: user data: %w", ErrInvalidArgument, err)
	}
	req := &neostate.OracleRequest{OriginalTxID: orig, GasForResponse: r.gas, URL: r.url, Filter: r.filter,
		CallbackContract: caller, CallbackMethod: r.callback, UserData: userData}
	if err := d.PutStorageItem(o.md.ID, requestKey(id), req.Bytes()); err != nil {
		return err
	}
	l, err := o.idList(d, r.url)
	if err != nil {
		return err
	}
	if len(l) >= oracleMaxPendingPerURL {
		return fmt.Errorf("%w: too many pending requests for %q", ErrInvalidArgument, r.url)
	}
	if err := d.PutStorageItem(o.md.ID, idListKey(r.url), append(l, id).Bytes()); err != nil {
		return err
	}
	var filter stackitem.Item = stackitem.Null{}
	if r.filter != nil {
		filter = stackitem.ByteString(*r.filter)
	}
	return ic.SendNotification(o.md.Hash, "OracleRequest", stackitem.NewArray([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).SetUint64(id)), stackitem.ByteString(caller.BytesLE()),
		stackitem.ByteString(r.url), filter,
	}))
}

// originalTxID is the request transaction, or for a request made while
// answering another one, that one's original transaction.
func (o *Oracle) originalTxID(ic *interop.Context) (util.Uint256, error) {
	tx := ic.Tx()
	if tx == nil {
		return util.Uint256{}, fmt.Errorf("%w: oracle request outside a transaction", ErrInvalidArgument)
	}
	resp := oracleResponse(tx)
	if resp == nil {
		return tx.Hash(), nil
	}
	req, err := o.Request(ic.DAO(), resp.ID)
	if err != nil {
		return util.Uint256{}, err
	}
	if req == nil {
		return util.Uint256{}, fmt.Errorf("%w: oracle request %d", ErrNotFound, resp.ID)
	}
	return req.OriginalTxID, nil
}

// invocationCounter is the interop API finish needs: how many times the
// contract was invoked in this execution.
type invocationCounter interface {
	InvocationCounter(h util.Uint160) int
}

func (o *Oracle) finishMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	if len(ic.VM().InvocationStack()) != 2 {
		return nil, interop.Fault(ErrInvalidArgument, "'Oracle.finish' called from non-entry script")
	}
	ctr, ok := any(ic).(invocationCounter)
	if !ok {
		return nil, fmt.Errorf("%w: interop context has no invocation counter", ErrInvalidState)
	}
	if ctr.InvocationCounter(o.md.Hash) != 1 {
		return nil, interop.Fault(ErrInvalidArgument, "'Oracle.finish' called multiple times")
	}
	resp := oracleResponse(ic.Tx())
	if resp == nil {
		return nil, interop.Fault(ErrInvalidArgument, "oracle response not found")
	}
	req, err := o.Request(ic.DAO(), resp.ID)
	if err != nil {
		return nil, err
	}
	if req == nil {
		return nil, interop.Fault(ErrNotFound, "oracle request not found")
	}
	err = ic.SendNotification(o.md.Hash, "OracleResponse", stackitem.NewArray([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).SetUint64(resp.ID)), stackitem.ByteString(req.OriginalTxID.BytesLE()),
	}))
	if err != nil {
		return nil, err
	}
	userData, err := stackitem.Deserialize(req.UserData)
	if err != nil {
		return nil, fmt.Errorf("%w: user data: %w", ErrInvalidState, err)
	}
	args := []stackitem.Item{stackitem.ByteString(req.URL), userData,
		stackitem.NewInt(int64(resp.Code)), stackitem.ByteString(resp.Result)}
	return nil, ic.CallFromNative(o.md.Hash, req.CallbackContract, req.CallbackMethod, args, false, nil)
}

// PostPersist implements Contract: answered requests are removed and the
// oracle nodes paid the price of each.
func (o *Oracle) PostPersist(ic *interop.Context) error {
	d := ic.DAO()
	var nodes []util.Uint160
	var rewards []int64
	for _, tx := range ic.Block().Transactions {
		resp := oracleResponse(tx)
		if resp == nil {
			continue
		}
		req, err := o.Request(d, resp.ID)
		if err != nil {
			return err
		}
		if req == nil {
			continue
		}
		if err := o.removeRequest(d, resp.ID, req.URL); err != nil {
			return err
		}
		if nodes == nil {
			l, err := o.Designate.DesignatedByRole(d, RoleOracle, ic.Block().Index)
			if err != nil {
				return err
			}
			nodes = make([]util.Uint160, len(l))
			for i, k := range l {
				nodes[i] = signatureHash(k)
			}
			rewards = make([]int64, len(l))
		}
		if len(nodes) > 0 {
			price, err := o.Price(d)
			if err != nil {
				return err
			}
			rewards[resp.ID%uint64(len(nodes))] += price
		}
	}
	for i, h := range nodes {
		if rewards[i] > 0 {
			if err := o.GAS.Mint(ic, h, big.NewInt(rewards[i]), false); err != nil {
				return err
			}
		}
	}
	return nil
}

func (o *Oracle) removeRequest(d *dao.DAO, id uint64, url string) error {
	if err := d.DeleteStorageItem(o.md.ID, requestKey(id)); err != nil {
		return err
	}
	l, err := o.idList(d, url)
	if err != nil {
		return err
	}
	i := -1
	for j, v := range l {
		if v == id {
			i = j
			break
		}
	}
	if i < 0 {
		return fmt.Errorf("%w: request %d not in the list of its url", ErrInvalidState, id)
	}
	l = append(l[:i], l[i+1:]...)
	if len(l) == 0 {
		return d.DeleteStorageItem(o.md.ID, idListKey(url))
	}
	return d.PutStorageItem(o.md.ID, idListKey(url), l.Bytes())
}
