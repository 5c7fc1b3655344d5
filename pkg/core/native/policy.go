package native

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Policy storage keys (reference PolicyContract prefixes).
const (
	policyFeePerByteKey      = 10
	policyBlockedAccount     = 15
	policyWhitelistedFee     = 16
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
	whitelistFeeChanged        = "WhitelistFeeChanged"
	recoveredFund              = "RecoveredFund"
	// RecoverFundDelay is how long (ms of block time) an account must have
	// been blocked before recoverFund may move its tokens.
	RecoverFundDelay = 365 * 24 * 60 * 60 * 1000
)

// Committee answers whether the committee witnessed the current
// execution. NeoToken implements it; tests fake it.
type Committee interface {
	CheckCommittee(ic *interop.Context) (bool, error)
}

// VoteRevoker is what NeoToken implements for the Faun blockAccount: the
// reference NeoToken.VoteInternal(engine, acc, null), i.e. acc's NEO
// stops backing a candidate, its unclaimed GAS is distributed and a Vote
// notification sent (nothing happens for an account without NEO). then
// must run exactly once: before RevokeVote returns if no contract call
// was scheduled, otherwise as the continuation of the last scheduled call
// (the onNEP17Payment of the GAS distribution), so that it sees the state
// that call left. Policy writes the blocked record in then.
type VoteRevoker interface {
	RevokeVote(ic *interop.Context, acc util.Uint160, then func(*interop.Context) error) error
}

// CommitteeKeys returns the current committee sorted by key; NeoToken
// implements it. recoverFund needs it for its almost-full-committee check.
type CommitteeKeys interface {
	CommitteeKeys(d *dao.DAO) ([][]byte, error)
}

// Policy is the PolicyContract native: network fees and limits, blocked
// accounts, the fee whitelist (Faun) and fund recovery from blocked
// accounts (Faun). Values live in its storage (integers in the
// reference's encoding); lookups of blocked accounts and whitelisted
// methods go through monotone key filters (policy_cache.go).
type Policy struct {
	md  *ContractMD
	hfs Hardforks
	// NEO checks committee witnesses; it must be set before use. From Faun
	// it must also implement VoteRevoker (blockAccount, destroy) and
	// CommitteeKeys (recoverFund).
	NEO Committee
	// IsNative reports whether h is a native contract (they cannot be
	// blocked); set by the registry.
	IsNative func(h util.Uint160) bool
	// Genesis holds the values written when Echidna activates.
	Genesis netconfig.Genesis
	// ReservedAttributes allows the reserved attribute types 0xe0..0xff
	// (neo-go extension).
	ReservedAttributes bool

	blocked   keyFilter // prefix 15 keys: blocked accounts
	whitelist keyFilter // prefix 16 keys: whitelisted methods
}

var (
	_ Contract       = (*Policy)(nil)
	_ interop.Policy = (*Policy)(nil)
)

// NewPolicy returns the PolicyContract of a chain configured with cfg.
func NewPolicy(cfg *netconfig.ProtocolConfiguration) *Policy {
	pc := &Policy{md: NewContractMD(PolicyName, PolicyID, protocol.HFDefault), hfs: cfg,
		Genesis: cfg.Genesis, ReservedAttributes: cfg.ReservedAttributes}
	pc.blocked.prefix, pc.whitelist.prefix = policyBlockedAccount, policyWhitelistedFee
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
	const rd, st, notify = callflag.ReadStates, callflag.States, callflag.AllowNotify
	echidna, faun := protocol.HFEchidna, protocol.HFFaun
	add("getFeePerByte", intT, rd, 0, 0, pc.getter(policyFeePerByteKey))
	add("setFeePerByte", voidT, st, 0, 0, pc.setFeePerByte, p("value", intT))
	add("getExecFeeFactor", intT, rd, 0, 0, pc.getExecFeeFactor)
	add("getExecPicoFeeFactor", intT, rd, faun, 0, pc.getter(policyExecFeeFactorKey))
	add("setExecFeeFactor", voidT, st, 0, 0, pc.setExecFeeFactor, p("value", intT))
	add("getStoragePrice", intT, rd, 0, 0, pc.getter(policyStoragePriceKey))
	add("setStoragePrice", voidT, st, 0, 0, pc.setUint32(policyStoragePriceKey, "StoragePrice", 1, MaxStoragePrice), p("value", intT))
	add("isBlocked", boolT, rd, 0, 0, pc.isBlocked, p("account", h160))
	add("blockAccount", boolT, st, 0, faun, pc.blockAccount, p("account", h160))
	add("blockAccount", boolT, st|notify, faun, 0, pc.blockAccount, p("account", h160))
	add("unblockAccount", boolT, st, 0, 0, pc.unblockAccount, p("account", h160))
	add("getBlockedAccounts", smartcontract.InteropInterfaceType, rd, faun, 0, pc.getBlockedAccounts)
	add("getAttributeFee", intT, rd, 0, echidna, pc.getAttributeFee(false), p("attributeType", intT))
	add("getAttributeFee", intT, rd, echidna, 0, pc.getAttributeFee(true), p("attributeType", intT))
	add("setAttributeFee", voidT, st, 0, echidna, pc.setAttributeFee(false), p("attributeType", intT), p("value", intT))
	add("setAttributeFee", voidT, st, echidna, 0, pc.setAttributeFee(true), p("attributeType", intT), p("value", intT))
	add("getMillisecondsPerBlock", intT, rd, echidna, 0, pc.getter(policyMsPerBlockKey))
	add("setMillisecondsPerBlock", voidT, st|notify, echidna, 0, pc.setMillisecondsPerBlock, p("value", intT))
	add("getMaxValidUntilBlockIncrement", intT, rd, echidna, 0, pc.getter(policyMaxVUBIncrementKey))
	add("setMaxValidUntilBlockIncrement", voidT, st, echidna, 0, pc.setMaxVUBIncrement, p("value", intT))
	add("getMaxTraceableBlocks", intT, rd, echidna, 0, pc.getter(policyMaxTraceableKey))
	add("setMaxTraceableBlocks", voidT, st, echidna, 0, pc.setMaxTraceableBlocks, p("value", intT))
	add("setWhitelistFeeContract", voidT, st|notify, faun, 0, pc.setWhitelistFeeContract,
		p("contractHash", h160), p("method", smartcontract.StringType), p("argCount", intT), p("fixedFee", intT))
	add("removeWhitelistFeeContract", voidT, st|notify, faun, 0, pc.removeWhitelistFeeContract,
		p("contractHash", h160), p("method", smartcontract.StringType), p("argCount", intT))
	add("getWhitelistFeeContracts", smartcontract.InteropInterfaceType, rd, faun, 0, pc.getWhitelistFeeContracts)
	add("recoverFund", boolT, callflag.All, faun, 0, pc.recoverFund, p("account", h160), p("token", h160))
	pc.md.AddEvent(Event{Name: millisecondsPerBlockChange, Params: []manifest.Parameter{p("old", intT), p("new", intT)}, From: echidna})
	pc.md.AddEvent(Event{Name: whitelistFeeChanged, Params: []manifest.Parameter{p("contract", h160),
		p("method", smartcontract.StringType), p("argCount", intT), p("fee", smartcontract.AnyType)}, From: faun})
	pc.md.AddEvent(Event{Name: recoveredFund, Params: []manifest.Parameter{p("account", h160)}, From: faun})
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
	case protocol.HFFaun:
		return pc.initializeFaun(ic)
	}
	return nil
}

// initializeFaun moves the exec fee factor to picoGAS and stamps every
// blocked account with the block time (the start of its recoverFund
// delay).
func (pc *Policy) initializeFaun(ic *interop.Context) error {
	d := ic.DAO()
	f, err := d.GetBigInt(pc.md.ID, []byte{policyExecFeeFactorKey})
	if err != nil {
		return fmt.Errorf("%w: exec fee factor: %w", ErrInvalidState, err)
	}
	if err := d.PutBigInt(pc.md.ID, []byte{policyExecFeeFactorKey}, f.Mul(f, big.NewInt(vm.FeeFactor))); err != nil {
		return err
	}
	now, err := blockTime(ic)
	if err != nil {
		return err
	}
	var keys [][]byte
	err = d.SeekStorage(pc.md.ID, storageRange(policyBlockedAccount), func(k, _ []byte) bool {
		keys = append(keys, bytes.Clone(k))
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := d.PutBigInt(pc.md.ID, k, now); err != nil {
			return err
		}
	}
	return nil
}

// blockTime is the reference engine.GetTime(): the persisting block's
// timestamp in milliseconds.
func blockTime(ic *interop.Context) (*big.Int, error) {
	b := ic.Block()
	if b == nil {
		return nil, fmt.Errorf("%w: no persisting block", ErrInvalidState)
	}
	return new(big.Int).SetUint64(b.Timestamp), nil
}

// OnPersist implements Contract.
func (pc *Policy) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (pc *Policy) PostPersist(*interop.Context) error { return nil }

// FeePerByte returns the network fee per transaction byte (datoshi).
func (pc *Policy) FeePerByte(d *dao.DAO) (int64, error) {
	return getInt(d, pc.md.ID, []byte{policyFeePerByteKey})
}

// ExecFeeFactor returns the stored opcode price multiplier: datoshi before
// the Faun initialisation, picoGAS after it (0 before genesis). Use
// ExecPicoFeeFactor to configure an execution.
func (pc *Policy) ExecFeeFactor(d *dao.DAO) (int64, error) {
	return getInt(d, pc.md.ID, []byte{policyExecFeeFactorKey})
}

// ExecPicoFeeFactor returns the opcode price multiplier in picoGAS for an
// execution with trigger trig in block index (the persisting block, or
// the current height for executions without one), as the reference
// engine sets it up: the stored value × vm.FeeFactor before Faun, the
// stored value from Faun on, except in the OnPersist of Faun's first
// block (the value is converted only by Policy's initialisation there).
// Before Policy is initialised it is the default.
func (pc *Policy) ExecPicoFeeFactor(d *dao.DAO, index uint32, trig trigger.Type) (int64, error) {
	f, err := pc.ExecFeeFactor(d)
	if err != nil {
		return 0, err
	}
	if f == 0 {
		return DefaultExecFeeFactor * vm.FeeFactor, nil
	}
	if !pc.hfs.Enabled(protocol.HFFaun, index) ||
		(trig == trigger.OnPersist && index > 0 && !pc.hfs.Enabled(protocol.HFFaun, index-1)) {
		return f * vm.FeeFactor, nil
	}
	return f, nil
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
	var k [1 + util.Uint160Size]byte // asked at every contract call: no allocation
	k[0] = policyBlockedAccount
	copy(k[1:], h[:])
	key := k[:]
	maybe, err := pc.blocked.mayHave(d, pc.md.ID, key)
	if err != nil || !maybe {
		return false, err
	}
	_, err = d.GetStorageItem(pc.md.ID, key)
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
		return errNoCommittee
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

// getExecFeeFactor returns the factor in datoshi (rounded down from the
// picoGAS value stored from Faun on).
func (pc *Policy) getExecFeeFactor(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	f, err := pc.ExecFeeFactor(ic.DAO())
	if err != nil {
		return nil, err
	}
	if ic.IsHardforkEnabled(protocol.HFFaun) {
		f /= vm.FeeFactor
	}
	return stackitem.NewInt(f), nil
}

// setExecFeeFactor takes datoshi before Faun, picoGAS from Faun on.
func (pc *Policy) setExecFeeFactor(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argBigInt(args[0])
	if err != nil {
		return nil, err
	}
	if v.Sign() < 0 || !v.IsUint64() {
		return nil, invalidValue("bigint is not in uint64 range")
	}
	hi := uint64(MaxExecFeeFactor)
	if ic.IsHardforkEnabled(protocol.HFFaun) {
		hi *= vm.FeeFactor
	}
	if u := v.Uint64(); u == 0 || u > hi {
		// The reference Go node names the pre-Faun bound even from Faun on.
		return nil, interop.Faultf(ErrInvalidArgument, "ExecFeeFactor must be between 1 and %d", MaxExecFeeFactor)
	}
	return pc.setValue(ic, []byte{policyExecFeeFactorKey}, v.Int64())
}

func (pc *Policy) setFeePerByte(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argInt64(args[0])
	if err != nil {
		return nil, err
	}
	if v < 0 || v > MaxFeePerByte {
		return nil, interop.Faultf(ErrInvalidArgument, "FeePerByte shouldn't be negative or greater than %d", MaxFeePerByte)
	}
	return pc.setValue(ic, []byte{policyFeePerByteKey}, v)
}

// setUint32 makes a setter of a uint32 value in [lo, hi]; name names it
// in the error.
func (pc *Policy) setUint32(key byte, name string, lo, hi uint32) Handler {
	return func(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		v, err := argUint32(args[0])
		if err != nil {
			return nil, err
		}
		if v < lo || v > hi {
			return nil, interop.Faultf(ErrInvalidArgument, "%s must be between %d and %d", name, lo, hi)
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
			return nil, interop.Faultf(ErrInvalidArgument, "invalid attribute type: %d", t)
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
			return nil, interop.Faultf(ErrInvalidArgument, "invalid attribute type: %d", t)
		}
		if v > MaxAttributeFee {
			return nil, interop.Faultf(ErrInvalidArgument, "attribute value is out of range: %d", v)
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
		return nil, interop.Faultf(ErrInvalidArgument, "MillisecondsPerBlock should be positive and not greater than %d, got %d", MaxMillisecondsPerBlock, v)
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
		return nil, interop.Faultf(ErrInvalidArgument, "MaxValidUntilBlockIncrement should be positive and not greater than %d, got %d", MaxMaxValidUntilBlockIncr, v)
	}
	mtb, err := pc.MaxTraceableBlocks(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v >= mtb {
		return nil, interop.Faultf(ErrInvalidArgument, "MaxValidUntilBlockIncrement should be less than MaxTraceableBlocks %d, got %d", mtb, v)
	}
	return pc.setValue(ic, []byte{policyMaxVUBIncrementKey}, int64(v))
}

func (pc *Policy) setMaxTraceableBlocks(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argUint32(args[0])
	if err != nil {
		return nil, err
	}
	if v == 0 || v > MaxMaxTraceableBlocks {
		return nil, interop.Faultf(ErrInvalidArgument, "MaxTraceableBlocks should be positive and not greater than %d, got %d", MaxMaxTraceableBlocks, v)
	}
	old, err := pc.MaxTraceableBlocks(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v > old {
		return nil, interop.Faultf(ErrInvalidArgument, "MaxTraceableBlocks should not be greater than previous value %d, got %d", old, v)
	}
	vub, err := pc.MaxValidUntilBlockIncrement(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v <= vub {
		return nil, interop.Faultf(ErrInvalidArgument, "MaxTraceableBlocks should be larger than MaxValidUntilBlockIncrement %d, got %d", vub, v)
	}
	return pc.setValue(ic, []byte{policyMaxTraceableKey}, int64(v))
}
