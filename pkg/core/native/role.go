package native

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Role is a node role RoleManagement designates (its storage prefix).
type Role byte

// Node roles (reference Role).
const (
	RoleStateValidator    Role = 4
	RoleOracle            Role = 8
	RoleNeoFSAlphabetNode Role = 16
	RoleP2PNotary         Role = 32
)

// maxDesignatedNodes bounds one designation.
const maxDesignatedNodes = 32

func (r Role) valid() bool {
	switch r {
	case RoleStateValidator, RoleOracle, RoleNeoFSAlphabetNode, RoleP2PNotary:
		return true
	}
	return false
}

// Designate is the RoleManagement native: per role, the node keys
// designated by the committee from a block height on, stored under
// role ‖ u32 BE height.
type Designate struct {
	md *ContractMD
	// NEO checks committee witnesses; set by NewGovernance.
	NEO *NEO
	// genesis holds the designations made when the contract is deployed
	// (Genesis.Roles, a neo-go extension), keyed by role.
	genesis map[Role][][]byte
}

// genesisRoleOrder is the order in which genesis designations are made
// (and notified): the reference's role enumeration order.
var genesisRoleOrder = []Role{RoleStateValidator, RoleOracle, RoleNeoFSAlphabetNode, RoleP2PNotary}

// genesisRoleNames maps the Genesis.Roles configuration names to roles.
var genesisRoleNames = map[string]Role{
	"StateValidator": RoleStateValidator,
	"Oracle":         RoleOracle,
	"NeoFSAlphabet":  RoleNeoFSAlphabetNode,
	"P2PNotary":      RoleP2PNotary,
}

var _ Contract = (*Designate)(nil)

func newDesignate(genesis map[Role][][]byte) *Designate {
	s := &Designate{md: NewContractMD(DesignateName, DesignateID, protocol.HFDefault), genesis: genesis}
	p := manifest.NewParameter
	intT, arr := smartcontract.IntegerType, smartcontract.ArrayType
	s.md.AddMethod(Method{Name: "getDesignatedByRole", Return: arr, CPUFee: 1 << 15, Flags: callflag.ReadStates,
		Params: []manifest.Parameter{p("role", intT), p("index", intT)}, Handler: s.getDesignatedByRoleMethod})
	s.md.AddMethod(Method{Name: "designateAsRole", Return: smartcontract.VoidType, CPUFee: 1 << 15,
		Flags: callflag.States | callflag.AllowNotify, Params: []manifest.Parameter{p("role", intT), p("nodes", arr)},
		Handler: s.designateAsRoleMethod})
	s.md.AddEvent(Event{Name: "Designation", Params: []manifest.Parameter{p("Role", intT), p("BlockIndex", intT)},
		Till: protocol.HFEchidna})
	s.md.AddEvent(Event{Name: "Designation", Params: []manifest.Parameter{
		p("Role", intT), p("BlockIndex", intT), p("Old", arr), p("New", arr)}, From: protocol.HFEchidna})
	s.md.Seal()
	return s
}

// Metadata implements Contract.
func (s *Designate) Metadata() *ContractMD { return s.md }

// Initialize implements Contract: at deployment (genesis) it designates the
// configured Genesis.Roles, role by role in the reference's order, exactly
// as a committee call in the genesis block would (stored at height 1, with
// a Designation notification), but without the committee witness check.
func (s *Designate) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	if hf != protocol.HFDefault {
		return nil
	}
	for _, r := range genesisRoleOrder {
		nodes, ok := s.genesis[r]
		if !ok {
			continue
		}
		if err := s.designateNodes(ic, r, nodes); err != nil {
			return fmt.Errorf("genesis designation of role %d: %w", r, err)
		}
	}
	return nil
}

// genesisRoles converts Genesis.Roles (role name → hex public keys) into
// the compressed keys Initialize designates.
func genesisRoles(cfg map[string][]string) (map[Role][][]byte, error) {
	if len(cfg) == 0 {
		return nil, nil
	}
	out := make(map[Role][][]byte, len(cfg))
	for name, list := range cfg {
		r, ok := genesisRoleNames[name]
		if !ok {
			return nil, fmt.Errorf("%w: unknown genesis role %q", ErrInvalidArgument, name)
		}
		ks, err := keys.NewPublicKeysFromStrings(list)
		if err != nil {
			return nil, fmt.Errorf("%w: genesis role %s: %w", ErrInvalidArgument, name, err)
		}
		nodes := make([][]byte, len(ks))
		for i, k := range ks {
			nodes[i] = k.Bytes()
		}
		out[r] = nodes
	}
	return out, nil
}

// OnPersist implements Contract.
func (s *Designate) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (s *Designate) PostPersist(*interop.Context) error { return nil }

func roleKey(r Role, index uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{byte(r)}, index)
}

// DesignatedByRole returns the nodes of role r at block index: the latest
// designation at or below index (none: empty).
func (s *Designate) DesignatedByRole(d *dao.DAO, r Role, index uint32) (neostate.NodeList, error) {
	var out neostate.NodeList
	var inner error
	rng := storage.SeekRange{Prefix: []byte{byte(r)}, Start: binary.BigEndian.AppendUint32(nil, index), Backwards: true}
	err := d.SeekStorage(s.md.ID, rng, func(_, v []byte) bool {
		out, inner = neostate.NodeListFromBytes(v)
		return false
	})
	if err != nil {
		return nil, err
	}
	if inner != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidState, inner)
	}
	return out, nil
}

func argRole(it stackitem.Item) (Role, error) {
	v, err := argUint8(it)
	if err != nil {
		return 0, errInvalidRole
	}
	if !Role(v).valid() {
		return 0, errInvalidRole
	}
	return Role(v), nil
}

func (s *Designate) getDesignatedByRoleMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	r, err := argRole(args[0])
	if err != nil {
		return nil, err
	}
	index, err := argUint32(args[1])
	if err != nil {
		return nil, errInvalidIndex
	}
	cur, err := currentIndex(ic.DAO())
	if err != nil {
		return nil, err
	}
	if uint64(cur)+1 < uint64(index) {
		return nil, errInvalidIndex
	}
	l, err := s.DesignatedByRole(ic.DAO(), r, index)
	if err != nil {
		return nil, err
	}
	return keysItem(l), nil
}

func (s *Designate) designateAsRoleMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	r, err := argRole(args[0])
	if err != nil {
		return nil, err
	}
	arr, ok := args[1].(*stackitem.Array)
	if !ok {
		return nil, interop.Fault(ErrInvalidArgument, "not an array")
	}
	nodes := make([][]byte, arr.Len())
	for i, it := range arr.Items() {
		k, err := argECPoint(it)
		if err != nil {
			return nil, err
		}
		nodes[i] = k
	}
	if len(nodes) == 0 {
		return nil, interop.Fault(ErrInvalidArgument, "node list is empty")
	}
	if len(nodes) > maxDesignatedNodes {
		return nil, interop.Fault(ErrInvalidArgument, "node list is too large")
	}
	if err := s.NEO.assertCommittee(ic); err != nil {
		if errors.Is(err, ErrNoCommittee) {
			return nil, interop.Fault(ErrNoCommittee, "witness check failed")
		}
		return nil, err
	}
	return nil, s.designateNodes(ic, r, nodes)
}

// designateNodes stores nodes for role r from the next block on and sends
// the Designation notification; the caller has checked the committee
// witness (or is the genesis initialisation).
func (s *Designate) designateNodes(ic *interop.Context, r Role, nodes [][]byte) error {
	if len(nodes) == 0 || len(nodes) > maxDesignatedNodes {
		return fmt.Errorf("%w: %d nodes, want 1..%d", ErrInvalidArgument, len(nodes), maxDesignatedNodes)
	}
	b := ic.Block()
	if b == nil {
		return interop.Fault(ErrInvalidArgument, "no persisting block in the context")
	}
	index := b.Index + 1
	d := ic.DAO()
	if _, err := d.GetStorageItem(s.md.ID, roleKey(r, index)); err == nil {
		return interop.Fault(ErrInvalidArgument, "already designated given role at current block")
	} else if !dao.IsNotFound(err) {
		return err
	}
	sorted := slices.Clone(nodes)
	neostate.SortKeys(sorted)
	for i := 1; i < len(sorted); i++ {
		if string(sorted[i]) == string(sorted[i-1]) {
			return interop.Fault(ErrInvalidArgument, "node list contains duplicate entries")
		}
	}
	if err := d.PutStorageItem(s.md.ID, roleKey(r, index), neostate.NodeList(sorted).Bytes()); err != nil {
		return err
	}
	state := []stackitem.Item{stackitem.NewInt(int64(r)), stackitem.NewInt(int64(b.Index))}
	if ic.IsHardforkEnabled(protocol.HFEchidna) {
		old, err := s.DesignatedByRole(d, r, index-1)
		if err != nil {
			return err
		}
		// The new list in its sorted (stored) order, as the reference Go
		// node notifies it (C# neo notifies the argument's order).
		state = append(state, keysItem(old), keysItem(sorted))
	}
	return ic.SendNotification(s.md.Hash, "Designation", stackitem.NewArray(state))
}
