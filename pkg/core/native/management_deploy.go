package native

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func storageRange(prefix byte) storage.SeekRange {
	return storage.SeekRange{Prefix: []byte{prefix}}
}

// argNullableBytes is a nullable byte[] parameter: Null gives nil, ok=false.
func argNullableBytes(it stackitem.Item) ([]byte, bool, error) {
	if isNull(it) {
		return nil, false, nil
	}
	b, err := argBytes(it)
	return b, err == nil, err
}

// checkScript is the reference Helper.Check: the ABI against the script,
// parsed strictly (vm.ValidateScript's rules) from Basilisk.
func checkScript(ic *interop.Context, script []byte, abi *manifest.ABI) error {
	sc, err := vm.NewScriptChecker(script, ic.IsHardforkEnabled(protocol.HFBasilisk))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrContract, err)
	}
	if err := abi.Check(sc); err != nil {
		return fmt.Errorf("%w: %w", ErrContract, err)
	}
	return nil
}

// checkAllFlags is the Aspidochelone rule of deploy and update: the
// calling context must hold every call flag (the methods only declare
// States and AllowNotify).
func checkAllFlags(ic *interop.Context, method string) error {
	if !ic.IsHardforkEnabled(protocol.HFAspidochelone) {
		return nil
	}
	if have := interop.StateOf(ic.VM().Context()).CallFlags; !have.Has(callflag.All) {
		return fmt.Errorf("%w: %s needs all call flags, have %s", ErrMissingFlags, method, have)
	}
	return nil
}

func (m *Management) deploy(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if err := checkAllFlags(ic, "deploy"); err != nil {
		return nil, err
	}
	nefBytes, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	manBytes, err := argBytes(args[1])
	if err != nil {
		return nil, err
	}
	var data stackitem.Item = stackitem.Null{}
	if len(args) > 2 {
		data = args[2]
	}
	tx := ic.Tx()
	if tx == nil {
		return nil, errNoTx
	}
	if len(nefBytes) == 0 {
		return nil, interop.Fault(ErrInvalidArgument, "invalid NEF file: empty")
	}
	if len(manBytes) == 0 {
		return nil, interop.Fault(ErrInvalidArgument, "invalid manifest: empty")
	}
	minFee, err := m.MinimumDeploymentFee(ic.DAO())
	if err != nil {
		return nil, err
	}
	fee := max(ic.StoragePrice()*int64(len(nefBytes)+len(manBytes)), minFee)
	if err := ic.VM().AddPicoGas(fee * vm.FeeFactor); err != nil {
		return nil, err
	}
	nf, err := parseNEF(nefBytes)
	if err != nil {
		return nil, err
	}
	mf, err := parseManifest(manBytes)
	if err != nil {
		return nil, err
	}
	if err := checkScript(ic, nf.Script, &mf.ABI); err != nil {
		return nil, err
	}
	h := smartcontract.CreateContractHash(tx.Sender(), nf.Checksum, mf.Name)
	if m.Policy != nil {
		blocked, err := m.Policy.IsBlocked(ic.DAO(), h)
		if err != nil {
			return nil, err
		}
		if blocked {
			return nil, interop.Faultf(ErrContract, "the contract %s has been blocked", h.StringBE())
		}
	}
	old, err := getContractOrNil(ic.DAO(), h)
	if err != nil {
		return nil, err
	}
	if old != nil {
		return nil, interop.Fault(ErrContract, "contract already exists")
	}
	id, err := m.nextID(ic)
	if err != nil {
		return nil, err
	}
	c := &state.Contract{ID: id, Hash: h, NEF: *nf, Manifest: *mf}
	if err := mf.IsValid(h); err != nil {
		return nil, vm.Fault(ErrContract, "invalid manifest: "+err.Error(), err)
	}
	if err := ic.DAO().PutContract(c); err != nil {
		return nil, err
	}
	item, err := c.ToStackItem()
	if err != nil {
		return nil, err
	}
	return m.onDeploy(ic, c, data, false, len(args), item)
}

func (m *Management) nextID(ic *interop.Context) (int32, error) {
	id, err := getInt(ic.DAO(), m.md.ID, []byte{mgmtNextAvailableID})
	if err != nil {
		return 0, err
	}
	if id < math.MinInt32 || id >= math.MaxInt32 {
		return 0, fmt.Errorf("%w: next contract id %d", ErrInvalidState, id)
	}
	if err := putInt(ic.DAO(), m.md.ID, []byte{mgmtNextAvailableID}, id+1); err != nil {
		return 0, err
	}
	return int32(id), nil
}

// onDeploy calls _deploy(data, update) of c if it has one, then sends the
// Deploy or Update notification and completes the native call with res
// (nil for update). It returns Deferred: the stack is completed here or
// by the continuation.
func (m *Management) onDeploy(ic *interop.Context, c *state.Contract, data stackitem.Item, update bool, nargs int, res stackitem.Item) (stackitem.Item, error) {
	ctx := ic.VM().Context()
	name := EventDeploy
	if update {
		name = EventUpdate
	}
	finish := func(ic *interop.Context) error {
		if err := m.notifyHash(ic, name, c.Hash); err != nil {
			return err
		}
		return completeCall(ctx, nargs, res)
	}
	if c.Manifest.ABI.GetMethod(methodDeploy, 2) == nil {
		return Deferred, finish(ic)
	}
	err := ic.CallFromNative(m.md.Hash, c.Hash, methodDeploy, []stackitem.Item{data, stackitem.Bool(update)}, false, finish)
	return Deferred, err
}

func (m *Management) notifyHash(ic *interop.Context, name string, h util.Uint160) error {
	return ic.SendNotification(m.md.Hash, name, stackitem.NewArray([]stackitem.Item{stackitem.ByteString(h.BytesLE())}))
}

func (m *Management) update(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if err := checkAllFlags(ic, "update"); err != nil {
		return nil, err
	}
	nefBytes, hasNEF, err := argNullableBytes(args[0])
	if err != nil {
		return nil, err
	}
	manBytes, hasMan, err := argNullableBytes(args[1])
	if err != nil {
		return nil, err
	}
	var data stackitem.Item = stackitem.Null{}
	if len(args) > 2 {
		data = args[2]
	}
	if !hasNEF && !hasMan {
		return nil, interop.Fault(ErrInvalidArgument, "both NEF and manifest are nil")
	}
	if err := ic.VM().AddPicoGas(ic.StoragePrice() * vm.FeeFactor * int64(len(nefBytes)+len(manBytes))); err != nil {
		return nil, err
	}
	// The reference Go node decodes both before looking the contract up
	// (the order only decides which error text a FAULT shows).
	var (
		nf *nef.File
		mf *manifest.Manifest
	)
	if hasNEF {
		if len(nefBytes) == 0 {
			return nil, interop.Fault(ErrInvalidArgument, "invalid NEF file: empty")
		}
		if nf, err = parseNEF(nefBytes); err != nil {
			return nil, err
		}
	}
	if hasMan {
		if len(manBytes) == 0 {
			return nil, interop.Fault(ErrInvalidArgument, "invalid manifest: empty")
		}
		if mf, err = parseManifest(manBytes); err != nil {
			return nil, err
		}
	}
	caller, ok := ic.CallingScriptHash()
	if !ok {
		return nil, interop.Fault(ErrContract, "contract doesn't exist")
	}
	old, err := getContractOrNil(ic.DAO(), caller)
	if err != nil {
		return nil, err
	}
	if old == nil {
		return nil, interop.Fault(ErrContract, "contract doesn't exist")
	}
	if old.UpdateCounter == math.MaxUint16 {
		return nil, interop.Fault(ErrContract, "the contract reached the maximum number of updates")
	}
	c := *old // cached states are shared: update a copy
	if nf != nil {
		c.NEF = *nf
	}
	if mf != nil {
		if mf.Name != c.Manifest.Name {
			return nil, interop.Fault(ErrContract, "contract name can't be changed")
		}
		if err := mf.IsValid(c.Hash); err != nil {
			return nil, vm.Fault(ErrContract, "invalid manifest: "+err.Error(), err)
		}
		c.Manifest = *mf
	}
	if err := checkScript(ic, c.NEF.Script, &c.Manifest.ABI); err != nil {
		return nil, err
	}
	c.UpdateCounter++
	if err := ic.DAO().UpdateContract(&c); err != nil {
		return nil, err
	}
	return m.onDeploy(ic, &c, data, true, len(args), nil)
}

// destroy removes the calling contract and its storage, blocks its hash
// and drops its fee whitelist records (reference DestroyInternal). Before
// Gorgon (destroyV0) the contract is erased first, so blocking it (which
// revokes its vote from Faun) cannot call it back; from Gorgon (destroyV1)
// it is blocked first and may still receive the GAS of that revocation.
// A missing contract is a no-op.
func (m *Management) destroy(blockFirst bool) Handler {
	return func(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
		h, ok := ic.CallingScriptHash()
		if !ok {
			return nil, fmt.Errorf("%w: no calling contract", ErrContract)
		}
		c, err := getContractOrNil(ic.DAO(), h)
		if err != nil || c == nil {
			return nil, err
		}
		ctx := ic.VM().Context()
		finish := func(ic *interop.Context) error {
			if err := m.notifyHash(ic, EventDestroy, h); err != nil {
				return err
			}
			return completeCall(ctx, 0, nil)
		}
		if !blockFirst {
			if err := m.erase(ic, c); err != nil {
				return nil, err
			}
			return Deferred, m.blockDestroyed(ic, c, finish)
		}
		return Deferred, m.blockDestroyed(ic, c, func(ic *interop.Context) error {
			if err := m.erase(ic, c); err != nil {
				return err
			}
			return finish(ic)
		})
	}
}

// blockDestroyed blocks c's hash and cleans its whitelist, then runs then.
func (m *Management) blockDestroyed(ic *interop.Context, c *state.Contract, then func(*interop.Context) error) error {
	if m.Policy == nil {
		return then(ic)
	}
	return m.Policy.blockAccountInternal(ic, c.Hash, func(ic *interop.Context, _ bool) error {
		if err := m.Policy.cleanWhitelist(ic, c); err != nil {
			return err
		}
		return then(ic)
	})
}

// erase deletes the state, id record and storage of c.
func (m *Management) erase(ic *interop.Context, c *state.Contract) error {
	if err := ic.DAO().DeleteContract(c); err != nil {
		return err
	}
	var keys [][]byte
	err := ic.DAO().SeekStorage(c.ID, storage.SeekRange{}, func(k, _ []byte) bool {
		keys = append(keys, append([]byte(nil), k...))
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := ic.DAO().DeleteStorageItem(c.ID, k); err != nil {
			return err
		}
	}
	return nil
}

// parseNEF decodes a NEF argument; the error is worded as the reference
// Go node's.
func parseNEF(b []byte) (*nef.File, error) {
	nf, err := nef.FileFromBytes(b)
	if err != nil {
		text := err.Error()
		switch {
		case len(b) < 4 || binary.LittleEndian.Uint32(b) != nef.Magic:
			text = "invalid Magic"
		case errors.Is(err, nef.ErrChecksum):
			text = "checksum verification failure"
		case errors.Is(err, nef.ErrEmptyScript):
			text = "empty script"
		case errors.Is(err, nef.ErrReservedByte):
			text = "reserved bytes must be 0"
		}
		return nil, vm.Fault(ErrContract, "invalid NEF file: "+text, err)
	}
	return nf, nil
}

// parseManifest decodes a manifest argument; the error is prefixed as the
// reference Go node's (the JSON parser's own words differ).
func parseManifest(b []byte) (*manifest.Manifest, error) {
	mf, err := manifest.Parse(b)
	if err != nil {
		text := err.Error()
		if t, ok := goJSONText(err, false); ok {
			text = t
		}
		return nil, vm.Fault(ErrContract, "invalid manifest: "+text, err)
	}
	return mf, nil
}
