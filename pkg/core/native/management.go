package native

import (
	"errors"
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// ContractManagement storage keys besides the contract states (prefix 8)
// and the id → hash map (prefix 12) that pkg/core/dao writes.
const (
	mgmtPrefixContractHash = 12
	mgmtNextAvailableID    = 15
	mgmtMinimumDeployFee   = 20
)

// DefaultMinimumDeploymentFee is the initial minimum deployment fee
// (10 GAS).
const DefaultMinimumDeploymentFee = 10_0000_0000

// Event names of ContractManagement.
const (
	EventDeploy  = "Deploy"
	EventUpdate  = "Update"
	EventDestroy = "Destroy"
)

// Management is the ContractManagement native: deployment, update and
// destruction of contracts, and the deployment of the natives themselves
// (in its OnPersist, see management_persist.go).
type Management struct {
	md *ContractMD
	// NEO checks committee witnesses.
	NEO Committee
	// Policy blocks destroyed contracts and refuses blocked ones.
	Policy *Policy
	// reg is set by NewRegistry.
	reg *Registry
}

var _ Contract = (*Management)(nil)

// NewManagement returns ContractManagement.
func NewManagement(policy *Policy) *Management {
	m := &Management{md: NewContractMD(ManagementName, ManagementID, protocol.HFDefault), Policy: policy}
	p := manifest.NewParameter
	const (
		arr   = smartcontract.ArrayType
		bytes = smartcontract.ByteArrayType
		voidT = smartcontract.VoidType
		intT  = smartcontract.IntegerType
		boolT = smartcontract.BoolType
		h160  = smartcontract.Hash160Type
	)
	add := func(name string, ret smartcontract.ParamType, fee int64, flags callflag.CallFlag, from, till protocol.Hardfork, h Handler, ps ...manifest.Parameter) {
		m.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: fee, Flags: flags, From: from, Till: till, Handler: h})
	}
	const rd, stNotify = callflag.ReadStates, callflag.States | callflag.AllowNotify
	add("getContract", arr, 1<<15, rd, 0, 0, m.getContract, p("hash", h160))
	add("getContractById", arr, 1<<15, rd, 0, 0, m.getContractByID, p("id", intT))
	add("getContractHashes", smartcontract.InteropInterfaceType, 1<<15, rd, 0, 0, m.getContractHashes)
	add("hasMethod", boolT, 1<<15, rd, 0, 0, m.hasMethod, p("hash", h160), p("method", smartcontract.StringType), p("pcount", intT))
	add("isContract", boolT, 1<<14, rd, protocol.HFEchidna, 0, m.isContract, p("hash", h160))
	add("getMinimumDeploymentFee", intT, 1<<15, rd, 0, 0, m.getMinimumDeploymentFee)
	add("setMinimumDeploymentFee", voidT, 1<<15, callflag.States, 0, 0, m.setMinimumDeploymentFee, p("value", intT))
	add("deploy", arr, 0, stNotify, 0, 0, m.deploy, p("nefFile", bytes), p("manifest", bytes))
	add("deploy", arr, 0, stNotify, 0, 0, m.deploy, p("nefFile", bytes), p("manifest", bytes), p("data", smartcontract.AnyType))
	add("update", voidT, 0, stNotify, 0, 0, m.update, p("nefFile", bytes), p("manifest", bytes))
	add("update", voidT, 0, stNotify, 0, 0, m.update, p("nefFile", bytes), p("manifest", bytes), p("data", smartcontract.AnyType))
	add("destroy", voidT, 1<<15, stNotify, 0, protocol.HFGorgon, m.destroy(false))
	add("destroy", voidT, 1<<15, stNotify, protocol.HFGorgon, 0, m.destroy(true))
	hashParam := []manifest.Parameter{p("Hash", h160)}
	for _, name := range []string{EventDeploy, EventUpdate, EventDestroy} {
		m.md.AddEvent(Event{Name: name, Params: hashParam})
	}
	m.md.Seal()
	return m
}

// Metadata implements Contract.
func (m *Management) Metadata() *ContractMD { return m.md }

// Initialize implements Contract: the minimum deployment fee and the next
// contract id at genesis.
func (m *Management) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	if hf != m.md.ActiveIn {
		return nil
	}
	if err := putInt(ic.DAO(), m.md.ID, []byte{mgmtMinimumDeployFee}, DefaultMinimumDeploymentFee); err != nil {
		return err
	}
	return putInt(ic.DAO(), m.md.ID, []byte{mgmtNextAvailableID}, 1)
}

// PostPersist implements Contract.
func (m *Management) PostPersist(*interop.Context) error { return nil }

// MinimumDeploymentFee returns the stored minimum deployment fee.
func (m *Management) MinimumDeploymentFee(d *dao.DAO) (int64, error) {
	return getInt(d, m.md.ID, []byte{mgmtMinimumDeployFee})
}

// getContractOrNil returns the contract with hash h, nil when absent.
func getContractOrNil(d *dao.DAO, h util.Uint160) (*state.Contract, error) {
	c, err := d.GetContract(h)
	if err != nil {
		if dao.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	return c, nil
}

func contractItem(c *state.Contract, err error) (stackitem.Item, error) {
	if err != nil {
		return nil, err
	}
	if c == nil {
		return stackitem.Null{}, nil
	}
	return c.ToStackItem()
}

func (m *Management) getContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argHash160(args[0])
	if err != nil {
		return nil, err
	}
	return contractItem(getContractOrNil(ic.DAO(), h))
}

// argHash160 is argUint160 worded as the reference's ContractManagement
// words it (its hash decoder's error, no "invalid value").
func argHash160(it stackitem.Item) (util.Uint160, error) {
	b, err := argBytes(it)
	if err != nil {
		return util.Uint160{}, err
	}
	h, err := util.Uint160DecodeBytesLE(b)
	if err != nil {
		return h, vm.Fault(ErrInvalidArgument, fmt.Sprintf("expected byte size of %d got %d", util.Uint160Size, len(b)), err)
	}
	return h, nil
}

func (m *Management) getContractByID(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	id, err := argInt32(args[0])
	if err != nil {
		if errors.Is(err, errValueRange) {
			return nil, interop.Fault(ErrInvalidArgument, "id is not a correct int32")
		}
		return nil, err
	}
	c, err := ic.DAO().GetContractByID(id)
	if err != nil && dao.IsNotFound(err) {
		return stackitem.Null{}, nil
	}
	return contractItem(c, err)
}

func (m *Management) isContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	c, err := getContractOrNil(ic.DAO(), h)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(c != nil), nil
}

func (m *Management) hasMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argHash160(args[0])
	if err != nil {
		return nil, err
	}
	method, err := argString(args[1])
	if err != nil {
		return nil, err
	}
	pcount, err := argInt32(args[2])
	if err != nil {
		return nil, err
	}
	c, err := getContractOrNil(ic.DAO(), h)
	if err != nil || c == nil {
		return stackitem.Bool(false), err
	}
	if pcount < -1 || pcount > math.MaxUint16 {
		return nil, fmt.Errorf("%w: pcount %d", ErrInvalidArgument, pcount)
	}
	return stackitem.Bool(c.Manifest.ABI.GetMethod(method, int(pcount)) != nil), nil
}

func (m *Management) getMinimumDeploymentFee(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	v, err := m.MinimumDeploymentFee(ic.DAO())
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(v), nil
}

func (m *Management) setMinimumDeploymentFee(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argBigInt(args[0])
	if err != nil {
		return nil, err
	}
	if v.Sign() < 0 {
		return nil, interop.Fault(ErrInvalidArgument, "MinimumDeploymentFee cannot be negative")
	}
	if err := checkCommittee(ic, m.NEO); err != nil {
		return nil, err
	}
	return nil, ic.DAO().PutStorageItem(m.md.ID, []byte{mgmtMinimumDeployFee}, bigint.ToBytes(v))
}

// checkCommittee fails unless the committee witnessed the execution.
func checkCommittee(ic *interop.Context, c Committee) error {
	if c == nil {
		return fmt.Errorf("%w: no committee source", ErrNoCommittee)
	}
	ok, err := c.CheckCommittee(ic)
	if err != nil {
		return err
	}
	if !ok {
		return errNoCommittee
	}
	return nil
}

// contractHashIterator iterates over the id → hash records of deployed
// (non-native) contracts: Struct [4-byte BE id, 20-byte hash].
type contractHashIterator struct {
	items [][2][]byte
	pos   int
}

var _ interop.Iterator = (*contractHashIterator)(nil)

func (it *contractHashIterator) Next() bool {
	if it.pos < len(it.items) {
		it.pos++
		return true
	}
	it.pos = len(it.items) + 1
	return false
}

func (it *contractHashIterator) Value() (stackitem.Item, error) {
	if it.pos == 0 || it.pos > len(it.items) {
		return nil, fmt.Errorf("%w: iterator has no current value", ErrInvalidArgument)
	}
	kv := it.items[it.pos-1]
	return stackitem.NewStruct([]stackitem.Item{stackitem.ByteString(kv[0]), stackitem.ByteString(kv[1])}), nil
}

func (m *Management) getContractHashes(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	it := &contractHashIterator{}
	err := ic.DAO().SeekStorage(m.md.ID, storageRange(mgmtPrefixContractHash), func(k, v []byte) bool {
		if len(k) == 5 && k[1]&0x80 == 0 { // ids ≥ 0 only
			it.items = append(it.items, [2][]byte{append([]byte(nil), k[1:]...), append([]byte(nil), v...)})
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return stackitem.NewInterop(it), nil
}

// errNoTx is a deploy outside a transaction.
var errNoTx = errors.New("native: deploy needs a transaction container")
