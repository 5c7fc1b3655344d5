package native

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Policy storage keys (reference PolicyContract prefixes).
const (
	policyFeePerByteKey      = 10
	policyBlockedAccount     = 15
	policyAttributeFee       = 20
	policyExecFeeFactorKey   = 18
	policyStoragePriceKey    = 19
	policyMsPerBlockKey      = 21
	policyMaxVUBIncrementKey = 22
	policyMaxTraceableKey    = 23
)

// Policy defaults and limits (reference PolicyContract).
const (
	DefaultExecFeeFactor       = 30
	DefaultFeePerByte          = 1000
	DefaultStoragePrice        = 100000
	DefaultNotaryAssistedFee   = 1000_0000
	DefaultAttributeFee        = 0
	MaxExecFeeFactor           = 100
	MaxFeePerByte              = 1_0000_0000
	MaxStoragePrice            = 1000_0000
	MaxAttributeFee            = 10_0000_0000
	MaxMillisecondsPerBlock    = 30_000
	MaxMaxValidUntilBlockIncr  = 86400
	MaxMaxTraceableBlocks      = 2_102_400
	millisecondsPerBlockChange = "MillisecondsPerBlockChanged"
)

// Committee answers whether the committee witnessed the current
// execution. NeoToken implements it; tests fake it.
type Committee interface {
	CheckCommittee(ic *interop.Context) (bool, error)
}

// Policy is the PolicyContract native: network fees and limits, blocked
// accounts. Values live in its storage (integers in the reference's
// encoding); nothing is cached.
type Policy struct {
	md *ContractMD
	// NEO checks committee witnesses; it must be set before use.
	NEO Committee
	// IsNative reports whether h is a native contract (they cannot be
	// blocked); set by the registry.
	IsNative func(h util.Uint160) bool
	// Genesis holds the values written when Echidna activates.
	Genesis config.Genesis
	// ReservedAttributes allows the reserved attribute types 0xe0..0xff
	// (neo-go extension).
	ReservedAttributes bool
}

var (
	_ Contract       = (*Policy)(nil)
	_ interop.Policy = (*Policy)(nil)
)

// NewPolicy returns the PolicyContract of a chain configured with cfg.
func NewPolicy(cfg *config.ProtocolConfiguration) *Policy {
	pc := &Policy{md: NewContractMD(PolicyName, PolicyID, protocol.HFDefault),
		Genesis: cfg.Genesis, ReservedAttributes: cfg.ReservedAttributes}
	p := manifest.NewParameter
	const (
		intT  = smartcontract.IntegerType
		voidT = smartcontract.VoidType
		boolT = smartcontract.BoolType
		h160  = smartcontract.Hash160Type
	)
	add := func(name string, ret smartcontract.ParamType, flags callflag.CallFlag, from, till protocol.Hardfork, h Handler, ps ...manifest.Parameter) {
		pc.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: 1 << 15, Flags: flags, From: from, Till: till, Handler: h})
	}
	const rd, st = callflag.ReadStates, callflag.States
	echidna := protocol.HFEchidna
	add("getFeePerByte", intT, rd, 0, 0, pc.getter(policyFeePerByteKey))
	add("setFeePerByte", voidT, st, 0, 0, pc.setFeePerByte, p("value", intT))
	add("getExecFeeFactor", intT, rd, 0, 0, pc.getter(policyExecFeeFactorKey))
	add("setExecFeeFactor", voidT, st, 0, 0, pc.setUint32(policyExecFeeFactorKey, 1, MaxExecFeeFactor), p("value", intT))
	add("getStoragePrice", intT, rd, 0, 0, pc.getter(policyStoragePriceKey))
	add("setStoragePrice", voidT, st, 0, 0, pc.setUint32(policyStoragePriceKey, 1, MaxStoragePrice), p("value", intT))
	add("isBlocked", boolT, rd, 0, 0, pc.isBlocked, p("account", h160))
	add("blockAccount", boolT, st, 0, protocol.HFFaun, pc.blockAccount, p("account", h160))
	add("unblockAccount", boolT, st, 0, 0, pc.unblockAccount, p("account", h160))
	add("getAttributeFee", intT, rd, 0, echidna, pc.getAttributeFee(false), p("attributeType", intT))
	add("getAttributeFee", intT, rd, echidna, 0, pc.getAttributeFee(true), p("attributeType", intT))
	add("setAttributeFee", voidT, st, 0, echidna, pc.setAttributeFee(false), p("attributeType", intT), p("value", intT))
	add("setAttributeFee", voidT, st, echidna, 0, pc.setAttributeFee(true), p("attributeType", intT), p("value", intT))
	add("getMillisecondsPerBlock", intT, rd, echidna, 0, pc.getter(policyMsPerBlockKey))
	add("setMillisecondsPerBlock", voidT, st|callflag.AllowNotify, echidna, 0, pc.setMillisecondsPerBlock, p("value", intT))
	add("getMaxValidUntilBlockIncrement", intT, rd, echidna, 0, pc.getter(policyMaxVUBIncrementKey))
	add("setMaxValidUntilBlockIncrement", voidT, st, echidna, 0, pc.setMaxVUBIncrement, p("value", intT))
	add("getMaxTraceableBlocks", intT, rd, echidna, 0, pc.getter(policyMaxTraceableKey))
	add("setMaxTraceableBlocks", voidT, st, echidna, 0, pc.setMaxTraceableBlocks, p("value", intT))
	pc.md.AddEvent(Event{Name: millisecondsPerBlockChange, Params: []manifest.Parameter{p("old", intT), p("new", intT)}, From: echidna})
	pc.md.Seal()
	return pc
}

// Metadata implements Contract.
func (pc *Policy) Metadata() *ContractMD { return pc.md }

// Initialize implements Contract: the defaults at genesis, the Genesis.*
// values of the configuration when Echidna activates.
func (pc *Policy) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	d := ic.DAO()
	switch hf {
	case pc.md.ActiveIn:
		for _, kv := range [...]struct {
			k byte
			v int64
		}{{policyFeePerByteKey, DefaultFeePerByte}, {policyExecFeeFactorKey, DefaultExecFeeFactor}, {policyStoragePriceKey, DefaultStoragePrice}} {
			if err := putInt(d, pc.md.ID, []byte{kv.k}, kv.v); err != nil {
				return err
			}
		}
	case protocol.HFEchidna:
		g := pc.Genesis
		for _, kv := range [...]struct {
			k []byte
			v int64
		}{
			{[]byte{policyMsPerBlockKey}, g.TimePerBlock.Milliseconds()},
			{[]byte{policyMaxVUBIncrementKey}, int64(g.MaxValidUntilBlockIncrement)},
			{[]byte{policyMaxTraceableKey}, int64(g.MaxTraceableBlocks)},
			{[]byte{policyAttributeFee, byte(transaction.AttrNotaryAssisted)}, DefaultNotaryAssistedFee},
		} {
			if err := putInt(d, pc.md.ID, kv.k, kv.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// OnPersist implements Contract.
func (pc *Policy) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (pc *Policy) PostPersist(*interop.Context) error { return nil }

func putInt(d *dao.DAO, id int32, key []byte, v int64) error {
	return d.PutBigInt(id, key, big.NewInt(v))
}

// getInt reads a stored integer; absent means 0.
func getInt(d *dao.DAO, id int32, key []byte) (int64, error) {
	n, err := d.GetBigInt(id, key)
	if err != nil {
		if dao.IsNotFound(err) {
			return 0, nil
		}
		return 0, err
	}
	if !n.IsInt64() {
		return 0, fmt.Errorf("%w: %x holds %s", ErrInvalidState, key, n)
	}
	return n.Int64(), nil
}

// FeePerByte returns the network fee per transaction byte (datoshi).
func (pc *Policy) FeePerByte(d *dao.DAO) (int64, error) {
	return getInt(d, pc.md.ID, []byte{policyFeePerByteKey})
}

// ExecFeeFactor returns the opcode price multiplier.
func (pc *Policy) ExecFeeFactor(d *dao.DAO) (int64, error) {
	return getInt(d, pc.md.ID, []byte{policyExecFeeFactorKey})
}

// StoragePrice returns the price of one stored byte (datoshi).
func (pc *Policy) StoragePrice(d *dao.DAO) (int64, error) {
	return getInt(d, pc.md.ID, []byte{policyStoragePriceKey})
}

// MillisecondsPerBlock returns the Policy block time (from Echidna).
func (pc *Policy) MillisecondsPerBlock(d *dao.DAO) (uint32, error) {
	v, err := getInt(d, pc.md.ID, []byte{policyMsPerBlockKey})
	return uint32(v), err
}

// MaxValidUntilBlockIncrement returns the Policy value (from Echidna).
func (pc *Policy) MaxValidUntilBlockIncrement(d *dao.DAO) (uint32, error) {
	v, err := getInt(d, pc.md.ID, []byte{policyMaxVUBIncrementKey})
	return uint32(v), err
}

// MaxTraceableBlocks returns the Policy value (from Echidna).
func (pc *Policy) MaxTraceableBlocks(d *dao.DAO) (uint32, error) {
	v, err := getInt(d, pc.md.ID, []byte{policyMaxTraceableKey})
	return uint32(v), err
}

// AttributeFee returns the extra network fee of attribute type t.
func (pc *Policy) AttributeFee(d *dao.DAO, t transaction.AttrType) (int64, error) {
	v, err := d.GetBigInt(pc.md.ID, []byte{policyAttributeFee, byte(t)})
	if err != nil {
		if dao.IsNotFound(err) {
			return DefaultAttributeFee, nil
		}
		return 0, err
	}
	return v.Int64(), nil
}

// IsBlocked reports whether account h is blocked.
func (pc *Policy) IsBlocked(d *dao.DAO, h util.Uint160) (bool, error) {
	_, err := d.GetStorageItem(pc.md.ID, blockedKey(h))
	if err != nil {
		if dao.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

func blockedKey(h util.Uint160) []byte {
	return append([]byte{policyBlockedAccount}, h[:]...)
}

func (pc *Policy) getter(key byte) Handler {
	return func(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
		v, err := getInt(ic.DAO(), pc.md.ID, []byte{key})
		if err != nil {
			return nil, err
		}
		return stackitem.NewInt(v), nil
	}
}

func (pc *Policy) checkCommittee(ic *interop.Context) error {
	if pc.NEO == nil {
		return fmt.Errorf("%w: no committee source", ErrNoCommittee)
	}
	ok, err := pc.NEO.CheckCommittee(ic)
	if err != nil {
		return err
	}
	if !ok {
		return ErrNoCommittee
	}
	return nil
}

// setValue checks the committee and stores v under key.
func (pc *Policy) setValue(ic *interop.Context, key []byte, v int64) (stackitem.Item, error) {
	if err := pc.checkCommittee(ic); err != nil {
		return nil, err
	}
	return nil, putInt(ic.DAO(), pc.md.ID, key, v)
}

func (pc *Policy) setFeePerByte(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argInt64(args[0])
	if err != nil {
		return nil, err
	}
	if v < 0 || v > MaxFeePerByte {
		return nil, fmt.Errorf("%w: FeePerByte %d out of [0, %d]", ErrInvalidArgument, v, MaxFeePerByte)
	}
	return pc.setValue(ic, []byte{policyFeePerByteKey}, v)
}

// setUint32 makes a setter of a uint32 value in [lo, hi].
func (pc *Policy) setUint32(key byte, lo, hi uint32) Handler {
	return func(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		v, err := argUint32(args[0])
		if err != nil {
			return nil, err
		}
		if v < lo || v > hi {
			return nil, fmt.Errorf("%w: %d out of [%d, %d]", ErrInvalidArgument, v, lo, hi)
		}
		return pc.setValue(ic, []byte{key}, int64(v))
	}
}

func (pc *Policy) isBlocked(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	ok, err := pc.IsBlocked(ic.DAO(), h)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}

func (pc *Policy) blockAccount(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if err := pc.checkCommittee(ic); err != nil {
		return nil, err
	}
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	ok, err := pc.blockAccountInternal(ic, h)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}

// blockAccountInternal blocks h unless it already is (reference
// BlockAccountInternal before Faun).
func (pc *Policy) blockAccountInternal(ic *interop.Context, h util.Uint160) (bool, error) {
	if pc.IsNative != nil && pc.IsNative(h) {
		return false, fmt.Errorf("%w: cannot block native contract %s", ErrInvalidArgument, h)
	}
	blocked, err := pc.IsBlocked(ic.DAO(), h)
	if err != nil || blocked {
		return false, err
	}
	if err := ic.DAO().PutStorageItem(pc.md.ID, blockedKey(h), []byte{}); err != nil {
		return false, err
	}
	return true, nil
}

// WhitelistedFee implements interop.Policy. The Faun fee whitelist is not
// implemented: no method is whitelisted.
func (pc *Policy) WhitelistedFee(*dao.DAO, util.Uint160, *manifest.Method) (int64, bool, error) {
	return 0, false, nil
}

func (pc *Policy) unblockAccount(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if err := pc.checkCommittee(ic); err != nil {
		return nil, err
	}
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	blocked, err := pc.IsBlocked(ic.DAO(), h)
	if err != nil || !blocked {
		return stackitem.Bool(false), err
	}
	if err := ic.DAO().DeleteStorageItem(pc.md.ID, blockedKey(h)); err != nil {
		return nil, err
	}
	return stackitem.Bool(true), nil
}

// validAttrType reports whether t is an attribute type the reference
// defines (or, with reserved attributes enabled, one of 0xe0..0xff).
func validAttrType(t byte, reserved, allowNotaryAssisted bool) bool {
	switch transaction.AttrType(t) {
	case transaction.AttrHighPriority, transaction.AttrOracleResponse,
		transaction.AttrNotValidBefore, transaction.AttrConflicts:
		return true
	case transaction.AttrNotaryAssisted:
		return allowNotaryAssisted
	}
	return reserved && t >= 0xe0
}

func (pc *Policy) getAttributeFee(allowNotary bool) Handler {
	return func(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		t, err := argUint8(args[0])
		if err != nil {
			return nil, err
		}
		if !validAttrType(t, pc.ReservedAttributes, allowNotary) {
			return nil, fmt.Errorf("%w: attribute type %d", ErrInvalidArgument, t)
		}
		v, err := pc.AttributeFee(ic.DAO(), transaction.AttrType(t))
		if err != nil {
			return nil, err
		}
		return stackitem.NewInt(v), nil
	}
}

func (pc *Policy) setAttributeFee(allowNotary bool) Handler {
	return func(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		t, err := argUint8(args[0])
		if err != nil {
			return nil, err
		}
		v, err := argUint32(args[1])
		if err != nil {
			return nil, err
		}
		if !validAttrType(t, pc.ReservedAttributes, allowNotary) {
			return nil, fmt.Errorf("%w: attribute type %d", ErrInvalidArgument, t)
		}
		if v > MaxAttributeFee {
			return nil, fmt.Errorf("%w: attribute fee %d over %d", ErrInvalidArgument, v, MaxAttributeFee)
		}
		return pc.setValue(ic, []byte{policyAttributeFee, t}, int64(v))
	}
}

func (pc *Policy) setMillisecondsPerBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argUint32(args[0])
	if err != nil {
		return nil, err
	}
	if v == 0 || v > MaxMillisecondsPerBlock {
		return nil, fmt.Errorf("%w: MillisecondsPerBlock %d out of [1, %d]", ErrInvalidArgument, v, MaxMillisecondsPerBlock)
	}
	old, err := pc.MillisecondsPerBlock(ic.DAO())
	if err != nil {
		return nil, err
	}
	if _, err := pc.setValue(ic, []byte{policyMsPerBlockKey}, int64(v)); err != nil {
		return nil, err
	}
	return nil, ic.SendNotification(pc.md.Hash, millisecondsPerBlockChange,
		stackitem.NewArray([]stackitem.Item{stackitem.NewInt(int64(old)), stackitem.NewInt(int64(v))}))
}

func (pc *Policy) setMaxVUBIncrement(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argUint32(args[0])
	if err != nil {
		return nil, err
	}
	if v == 0 || v > MaxMaxValidUntilBlockIncr {
		return nil, fmt.Errorf("%w: MaxValidUntilBlockIncrement %d out of [1, %d]", ErrInvalidArgument, v, MaxMaxValidUntilBlockIncr)
	}
	mtb, err := pc.MaxTraceableBlocks(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v >= mtb {
		return nil, fmt.Errorf("%w: MaxValidUntilBlockIncrement %d not below MaxTraceableBlocks %d", ErrInvalidArgument, v, mtb)
	}
	return pc.setValue(ic, []byte{policyMaxVUBIncrementKey}, int64(v))
}

func (pc *Policy) setMaxTraceableBlocks(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argUint32(args[0])
	if err != nil {
		return nil, err
	}
	if v == 0 || v > MaxMaxTraceableBlocks {
		return nil, fmt.Errorf("%w: MaxTraceableBlocks %d out of [1, %d]", ErrInvalidArgument, v, MaxMaxTraceableBlocks)
	}
	old, err := pc.MaxTraceableBlocks(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v > old {
		return nil, fmt.Errorf("%w: MaxTraceableBlocks %d over the current %d", ErrInvalidArgument, v, old)
	}
	vub, err := pc.MaxValidUntilBlockIncrement(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v <= vub {
		return nil, fmt.Errorf("%w: MaxTraceableBlocks %d not above MaxValidUntilBlockIncrement %d", ErrInvalidArgument, v, vub)
	}
	return pc.setValue(ic, []byte{policyMaxTraceableKey}, int64(v))
}
