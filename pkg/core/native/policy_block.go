package native

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// errNoVoteRevoker is a Faun blockAccount with a NEO that cannot revoke
// votes.
var errNoVoteRevoker = errors.New("native: NeoToken does not implement vote revocation")

func (pc *Policy) blockAccount(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	if err := pc.checkCommittee(ic); err != nil {
		return nil, err
	}
	ctx := ic.VM().Context()
	err = pc.blockAccountInternal(ic, h, func(_ *interop.Context, ok bool) error {
		return completeCall(ctx, 1, stackitem.Bool(ok))
	})
	return Deferred, err
}

// blockAccountInternal is the reference BlockAccountInternal: natives
// cannot be blocked, an already blocked account gives false; from Faun the
// account's vote is revoked first (which may call the account's
// onNEP17Payment) and the record holds the block time, before it is
// empty. then runs exactly once with the result, after the record was
// written (possibly as a continuation).
func (pc *Policy) blockAccountInternal(ic *interop.Context, h util.Uint160, then func(*interop.Context, bool) error) error {
	if pc.IsNative != nil && pc.IsNative(h) {
		return interop.Fault(ErrInvalidArgument, "cannot block native contract")
	}
	blocked, err := pc.IsBlocked(ic.DAO(), h)
	if err != nil {
		return err
	}
	if blocked {
		return then(ic, false)
	}
	if !ic.IsHardforkEnabled(protocol.HFFaun) {
		if err := pc.putBlocked(ic.DAO(), h, []byte{}); err != nil {
			return err
		}
		return then(ic, true)
	}
	rv, ok := pc.NEO.(VoteRevoker)
	if !ok {
		return errNoVoteRevoker
	}
	return rv.RevokeVote(ic, h, func(ic *interop.Context) error {
		now, err := blockTime(ic)
		if err != nil {
			return err
		}
		if err := pc.putBlocked(ic.DAO(), h, bigIntBytes(now)); err != nil {
			return err
		}
		return then(ic, true)
	})
}

func (pc *Policy) putBlocked(d *dao.DAO, h util.Uint160, v []byte) error {
	key := blockedKey(h)
	pc.blocked.add(key)
	return d.PutStorageItem(pc.md.ID, key, v)
}

func (pc *Policy) unblockAccount(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	if err := pc.checkCommittee(ic); err != nil {
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

// getBlockedAccounts iterates over the blocked account hashes in key
// order.
func (pc *Policy) getBlockedAccounts(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	it, err := interop.NewStorageIterator(ic.DAO(), pc.md.ID, []byte{policyBlockedAccount},
		interop.FindKeysOnly|interop.FindRemovePrefix)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInterop(it), nil
}

// recoverFund moves the whole balance of NEP-17 token held by account,
// blocked for at least RecoverFundDelay, to the Treasury (reference
// RecoverFund). It needs an almost full committee. Its result is true if
// something was moved.
func (pc *Policy) recoverFund(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	acc, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	token, err := argUint160(args[1])
	if err != nil {
		return nil, err
	}
	if err := pc.checkAlmostFullCommittee(ic); err != nil {
		return nil, err
	}
	if err := pc.checkRecoverDelay(ic, acc); err != nil {
		return nil, err
	}
	c, err := getContractOrNil(ic.DAO(), token)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: contract %s does not exist", ErrNotFound, token)
	}
	if !supportsStandard(&c.Manifest, "NEP-17") {
		return nil, fmt.Errorf("%w: contract %s does not implement NEP-17", ErrInvalidArgument, token)
	}
	ctx := ic.VM().Context()
	accItem := stackitem.ByteString(acc.BytesLE())
	err = ic.CallFromNative(acc, token, "balanceOf", []stackitem.Item{accItem}, true, func(ic *interop.Context) error {
		res, err := ctx.Estack().Pop()
		if err != nil {
			return err
		}
		balance, err := res.BigInt()
		if err != nil {
			return fmt.Errorf("%w: balanceOf result: %w", ErrInvalidArgument, err)
		}
		if balance.Sign() <= 0 {
			return completeCall(ctx, 2, stackitem.Bool(false))
		}
		treasury := smartcontract.CreateNativeContractHash(TreasuryName)
		targs := []stackitem.Item{accItem, stackitem.ByteString(treasury.BytesLE()), stackitem.NewBigInteger(balance), stackitem.Null{}}
		return ic.CallFromNative(acc, token, "transfer", targs, true, func(ic *interop.Context) error {
			res, err := ctx.Estack().Pop()
			if err != nil {
				return err
			}
			ok, err := res.Bool()
			if err != nil {
				return fmt.Errorf("%w: transfer result: %w", ErrInvalidArgument, err)
			}
			if !ok {
				return fmt.Errorf("%w: transfer of %s from %s to %s failed in %s", ErrInvalidArgument, balance, acc, treasury, token)
			}
			err = ic.SendNotification(pc.md.Hash, recoveredFund, stackitem.NewArray([]stackitem.Item{accItem}))
			if err != nil {
				return err
			}
			return completeCall(ctx, 2, stackitem.Bool(true))
		})
	})
	return Deferred, err
}

// checkRecoverDelay fails unless acc is blocked since RecoverFundDelay.
func (pc *Policy) checkRecoverDelay(ic *interop.Context, acc util.Uint160) error {
	v, err := ic.DAO().GetStorageItem(pc.md.ID, blockedKey(acc))
	if err != nil {
		if dao.IsNotFound(err) {
			return fmt.Errorf("%w: account %s is not blocked", ErrNotFound, acc)
		}
		return err
	}
	now, err := blockTime(ic)
	if err != nil {
		return err
	}
	elapsed := now.Sub(now, bigint.FromBytes(v))
	if left := new(big.Int).Sub(big.NewInt(RecoverFundDelay), elapsed); left.Sign() > 0 {
		return fmt.Errorf("%w: the account must be blocked for a year, %s ms left", ErrInvalidArgument, left)
	}
	return nil
}

func supportsStandard(m *manifest.Manifest, std string) bool {
	for _, s := range m.SupportedStandards {
		if s == std {
			return true
		}
	}
	return false
}

// checkAlmostFullCommittee is the reference AssertAlmostFullCommittee: a
// witness of the multisig of max(majority, n-2) of the n committee keys.
func (pc *Policy) checkAlmostFullCommittee(ic *interop.Context) error {
	src, ok := pc.NEO.(CommitteeKeys)
	if !ok {
		return fmt.Errorf("%w: no committee keys source", ErrNoCommittee)
	}
	ks, err := src.CommitteeKeys(ic.DAO())
	if err != nil {
		return err
	}
	pubs := make(keys.PublicKeys, len(ks))
	for i, k := range ks {
		if pubs[i], err = keys.NewPublicKeyFromBytes(k); err != nil {
			return fmt.Errorf("%w: committee key: %w", ErrInvalidState, err)
		}
	}
	n := len(pubs)
	script, err := scripts.MultiSigContract(max(scripts.MajorityThreshold(n), n-2, 1), pubs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidState, err)
	}
	ok, err = ic.CheckWitness(scripts.ScriptHash(script))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: an almost full committee multisig is required", ErrNoCommittee)
	}
	return nil
}

// whitelistKey is the storage key of the whitelisted method at offset of
// contract h: 16 ‖ hash ‖ int32 BE offset.
func whitelistKey(h util.Uint160, offset int) []byte {
	k := make([]byte, 1+util.Uint160Size, 1+util.Uint160Size+4)
	k[0] = policyWhitelistedFee
	copy(k[1:], h[:])
	return binary.BigEndian.AppendUint32(k, uint32(int32(offset)))
}

// whitelisted is a stored whitelist record (reference WhitelistedContract:
// Struct [hash, method, argCount, fixedFee]).
type whitelisted struct {
	hash     util.Uint160
	method   string
	argCount int64
	fee      int64
}

func (w *whitelisted) bytes() ([]byte, error) {
	return stackitem.Serialize(stackitem.NewStruct([]stackitem.Item{
		stackitem.ByteString(w.hash.BytesLE()), stackitem.ByteString(w.method),
		stackitem.NewInt(w.argCount), stackitem.NewInt(w.fee),
	}))
}

func whitelistedFromBytes(b []byte) (*whitelisted, error) {
	it, err := stackitem.Deserialize(b)
	if err != nil {
		return nil, fmt.Errorf("%w: whitelist record: %w", ErrInvalidState, err)
	}
	arr, ok := it.(*stackitem.Array)
	if !ok || arr.Len() < 4 {
		return nil, fmt.Errorf("%w: whitelist record is not a 4-field struct", ErrInvalidState)
	}
	w := new(whitelisted)
	if w.hash, err = argUint160(arr.At(0)); err == nil {
		if w.method, err = argString(arr.At(1)); err == nil {
			if w.argCount, err = argIntRange(arr.At(2), math.MinInt32, math.MaxInt32); err == nil {
				w.fee, err = argInt64(arr.At(3))
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: whitelist record: %w", ErrInvalidState, err)
	}
	return w, nil
}

// WhitelistedFee implements interop.Policy: the fixed fee (datoshi) of
// method m of contract h if the committee whitelisted it (Faun). The
// reference also checks that h is deployed; whitelist records of a
// destroyed contract are removed with it, so that cannot differ.
func (pc *Policy) WhitelistedFee(d *dao.DAO, h util.Uint160, m *manifest.Method) (int64, bool, error) {
	key := whitelistKey(h, m.Offset)
	maybe, err := pc.whitelist.mayHave(d, pc.md.ID, key)
	if err != nil || !maybe {
		return 0, false, err
	}
	v, err := d.GetStorageItem(pc.md.ID, key)
	if err != nil {
		if dao.IsNotFound(err) {
			return 0, false, nil
		}
		return 0, false, err
	}
	w, err := whitelistedFromBytes(v)
	if err != nil {
		return 0, false, err
	}
	return w.fee, true, nil
}

// whitelistTarget resolves the method of a whitelist call: contract h
// must exist and have exactly one method name with argCount parameters.
func whitelistTarget(d *dao.DAO, h util.Uint160, name string, argCount int64) (*manifest.Method, error) {
	c, err := getContractOrNil(d, h)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: %s is not a valid contract", ErrNotFound, h)
	}
	var found *manifest.Method
	for i := range c.Manifest.ABI.Methods {
		m := &c.Manifest.ABI.Methods[i]
		if m.Name == name && int64(len(m.Parameters)) == argCount {
			if found != nil {
				return nil, fmt.Errorf("%w: method %s with %d args is ambiguous in %s", ErrInvalidArgument, name, argCount, h)
			}
			found = m
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%w: method %s with %d args was not found in %s", ErrNotFound, name, argCount, h)
	}
	return found, nil
}

// whitelistArgs converts the contractHash, method and argCount arguments.
func whitelistArgs(args []stackitem.Item) (util.Uint160, string, int64, error) {
	h, err := argUint160(args[0])
	if err != nil {
		return h, "", 0, err
	}
	name, err := argString(args[1])
	if err != nil {
		return h, "", 0, err
	}
	n, err := argIntRange(args[2], math.MinInt32, math.MaxInt32)
	return h, name, n, err
}

func (pc *Policy) notifyWhitelist(ic *interop.Context, h util.Uint160, method string, argCount int64, fee stackitem.Item) error {
	return ic.SendNotification(pc.md.Hash, whitelistFeeChanged, stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(h.BytesLE()), stackitem.ByteString(method), stackitem.NewInt(argCount), fee,
	}))
}

// setWhitelistFeeContract makes calls of a method cost fixedFee instead
// of their execution. An existing record of the same method offset keeps
// its method name and count and gets the new fee (the reference updates
// the stored struct in place).
func (pc *Policy) setWhitelistFeeContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, name, argCount, err := whitelistArgs(args)
	if err != nil {
		return nil, err
	}
	fee, err := argInt64(args[3])
	if err != nil {
		return nil, err
	}
	if fee < 0 {
		return nil, fmt.Errorf("%w: negative fixed fee %d", ErrInvalidArgument, fee)
	}
	if err := pc.checkCommittee(ic); err != nil {
		return nil, err
	}
	m, err := whitelistTarget(ic.DAO(), h, name, argCount)
	if err != nil {
		return nil, err
	}
	key := whitelistKey(h, m.Offset)
	rec := &whitelisted{hash: h, method: name, argCount: argCount}
	if old, err := ic.DAO().GetStorageItem(pc.md.ID, key); err == nil {
		if rec, err = whitelistedFromBytes(old); err != nil {
			return nil, err
		}
	} else if !dao.IsNotFound(err) {
		return nil, err
	}
	rec.fee = fee
	b, err := rec.bytes()
	if err != nil {
		return nil, err
	}
	pc.whitelist.add(key)
	if err := ic.DAO().PutStorageItem(pc.md.ID, key, b); err != nil {
		return nil, err
	}
	return nil, pc.notifyWhitelist(ic, h, name, argCount, stackitem.NewInt(fee))
}

func (pc *Policy) removeWhitelistFeeContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, name, argCount, err := whitelistArgs(args)
	if err != nil {
		return nil, err
	}
	if err := pc.checkCommittee(ic); err != nil {
		return nil, err
	}
	m, err := whitelistTarget(ic.DAO(), h, name, argCount)
	if err != nil {
		return nil, err
	}
	key := whitelistKey(h, m.Offset)
	if _, err := ic.DAO().GetStorageItem(pc.md.ID, key); err != nil {
		if dao.IsNotFound(err) {
			return nil, fmt.Errorf("%w: whitelist of %s.%s/%d", ErrNotFound, h, name, argCount)
		}
		return nil, err
	}
	if err := ic.DAO().DeleteStorageItem(pc.md.ID, key); err != nil {
		return nil, err
	}
	return nil, pc.notifyWhitelist(ic, h, name, argCount, stackitem.Null{})
}

// getWhitelistFeeContracts iterates over the whitelist records
// (deserialized structs) in key order.
func (pc *Policy) getWhitelistFeeContracts(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	it, err := interop.NewStorageIterator(ic.DAO(), pc.md.ID, []byte{policyWhitelistedFee},
		interop.FindValuesOnly|interop.FindDeserializeValues)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInterop(it), nil
}

// cleanWhitelist removes every whitelist record of contract c with a
// WhitelistFeeChanged notification each, in key order (reference
// CleanWhitelist, run by destroy).
func (pc *Policy) cleanWhitelist(ic *interop.Context, c *state.Contract) error {
	prefix := append([]byte{policyWhitelistedFee}, c.Hash[:]...)
	type rec struct {
		key []byte
		w   *whitelisted
	}
	var recs []rec
	var derr error
	err := ic.DAO().SeekStorage(pc.md.ID, storageRangeBytes(prefix), func(k, v []byte) bool {
		w, err := whitelistedFromBytes(v)
		if err != nil {
			derr = err
			return false
		}
		recs = append(recs, rec{append([]byte(nil), k...), w})
		return true
	})
	if err = errors.Join(err, derr); err != nil {
		return err
	}
	for _, r := range recs {
		if err := ic.DAO().DeleteStorageItem(pc.md.ID, r.key); err != nil {
			return err
		}
		if err := pc.notifyWhitelist(ic, c.Hash, r.w.method, r.w.argCount, stackitem.Null{}); err != nil {
			return err
		}
	}
	return nil
}
