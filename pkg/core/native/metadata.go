package native

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// CompilerName is the compiler field of every native NEF.
const CompilerName = "neo-core-v3.0"

// CallNativeSyscall is the interop name native method stubs call.
const CallNativeSyscall = "System.Contract.CallNative"

// methodStubSize is the length of one method stub: PUSH0, SYSCALL id, RET.
const methodStubSize = 7

// syscallOffsetInStub is where the SYSCALL sits in a method stub; the
// CallNative handler sees it as the IP.
const syscallOffsetInStub = 1

// Method describes one native method: its ABI, prices, required call
// flags, the hardfork range it exists in and its implementation.
type Method struct {
	Name   string
	Params []manifest.Parameter
	Return smartcontract.ParamType
	// CPUFee is charged × the exec fee factor (datoshi × factor).
	CPUFee int64
	// StorageFee is charged × the storage price.
	StorageFee int64
	// Flags are the call flags the calling context must hold. A method is
	// safe when it needs nothing beyond ReadStates|AllowCall.
	Flags callflag.CallFlag
	// From is the hardfork the method appears in (HFDefault: genesis).
	From protocol.Hardfork
	// Till is the hardfork that removes it (HFDefault: never).
	Till protocol.Hardfork
	// Handler implements the method.
	Handler Handler
}

// Safe reports whether the method is declared safe in the manifest.
func (m *Method) Safe() bool {
	return m.Flags&^callflag.ReadOnly == 0
}

// activeAt reports whether the method exists once hf is the latest enabled
// hardfork.
func activeAt(from, till, hf protocol.Hardfork) bool {
	return from <= hf && (till == protocol.HFDefault || hf < till)
}

// Event describes a native event and its hardfork range.
type Event struct {
	Name   string
	Params []manifest.Parameter
	From   protocol.Hardfork
	Till   protocol.Hardfork
}

// BoundMethod is a method as placed in the NEF of one hardfork.
type BoundMethod struct {
	*Method
	// Offset is the method's offset in the NEF script (the manifest value).
	Offset int
	// index is the method's index in the snapshot's manifest ABI.
	index int
}

// Snapshot is a native contract as of one hardfork: its NEF, manifest
// and the methods in manifest order. It is built once and read-only.
type Snapshot struct {
	HF       protocol.Hardfork
	NEF      nef.File
	Manifest manifest.Manifest
	Methods  []BoundMethod
}

// MethodByIP returns the method whose CallNative syscall is at ip (the
// instruction pointer the VM reports while the syscall runs).
func (s *Snapshot) MethodByIP(ip int) (*BoundMethod, bool) {
	off := ip - syscallOffsetInStub
	if off < 0 || off%methodStubSize != 0 {
		return nil, false
	}
	i := off / methodStubSize
	if i >= len(s.Methods) {
		return nil, false
	}
	return &s.Methods[i], true
}

// MethodByOffset returns the method at the manifest offset off.
func (s *Snapshot) MethodByOffset(off int) (*BoundMethod, bool) {
	if off < 0 || off%methodStubSize != 0 || off/methodStubSize >= len(s.Methods) {
		return nil, false
	}
	return &s.Methods[off/methodStubSize], true
}

// Method returns the method name with pcount parameters.
func (s *Snapshot) Method(name string, pcount int) (*BoundMethod, bool) {
	for i := range s.Methods {
		if s.Methods[i].Name == name && len(s.Methods[i].Params) == pcount {
			return &s.Methods[i], true
		}
	}
	return nil, false
}

// ContractState returns the contract state of the snapshot with the given
// update counter.
func (s *Snapshot) ContractState(md *ContractMD, updateCounter uint16) *state.Contract {
	return &state.Contract{
		ID:            md.ID,
		UpdateCounter: updateCounter,
		Hash:          md.Hash,
		NEF:           s.NEF,
		Manifest:      s.Manifest,
	}
}

// ContractMD is the hardfork-independent description of a native
// contract. Build it with NewContractMD, AddMethod and AddEvent, then call
// Seal once; afterwards it is read-only and safe for concurrent use.
type ContractMD struct {
	Name string
	ID   int32
	Hash util.Uint160
	// ActiveIn is the hardfork that deploys the contract (HFDefault:
	// genesis).
	ActiveIn protocol.Hardfork
	// Standards returns the supported standards of the manifest at hf
	// (nil: none).
	Standards func(hf protocol.Hardfork) []string

	methods   []Method
	events    []Event
	updateHFs map[protocol.Hardfork]struct{}
	snapshots []*Snapshot // indexed by hardfork, nil before ActiveIn
	sealed    bool
}

// NewContractMD starts the description of the native name with id.
func NewContractMD(name string, id int32, activeIn protocol.Hardfork) *ContractMD {
	return &ContractMD{
		Name:      name,
		ID:        id,
		Hash:      smartcontract.CreateNativeContractHash(name),
		ActiveIn:  activeIn,
		updateHFs: make(map[protocol.Hardfork]struct{}),
	}
}

// AddMethod adds m; methods are kept in the reference's order (ordinal
// name, then parameter count).
func (c *ContractMD) AddMethod(m Method) {
	c.mustNotBeSealed()
	if m.Params == nil {
		m.Params = []manifest.Parameter{}
	}
	i, _ := slices.BinarySearchFunc(c.methods, m, func(a, b Method) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(len(a.Params), len(b.Params)))
	})
	c.methods = slices.Insert(c.methods, i, m)
	c.addRange(m.From, m.Till)
}

// AddEvent adds e; events keep their insertion order.
func (c *ContractMD) AddEvent(e Event) {
	c.mustNotBeSealed()
	if e.Params == nil {
		e.Params = []manifest.Parameter{}
	}
	c.events = append(c.events, e)
	c.addRange(e.From, e.Till)
}

// AddUpdateHardfork makes the contract update (new manifest, update
// counter + 1, Initialize) at hf although no method or event changes then.
func (c *ContractMD) AddUpdateHardfork(hf protocol.Hardfork) {
	c.mustNotBeSealed()
	c.updateHFs[hf] = struct{}{}
}

func (c *ContractMD) addRange(from, till protocol.Hardfork) {
	if from != protocol.HFDefault {
		c.updateHFs[from] = struct{}{}
	}
	if till != protocol.HFDefault {
		c.updateHFs[till] = struct{}{}
	}
}

func (c *ContractMD) mustNotBeSealed() {
	if c.sealed {
		panic(fmt.Sprintf("native: %s metadata changed after Seal", c.Name))
	}
}

// IsUpdateHardfork reports whether the contract changes at hf (its
// activation hardfork excluded).
func (c *ContractMD) IsUpdateHardfork(hf protocol.Hardfork) bool {
	if hf == c.ActiveIn {
		return false
	}
	_, ok := c.updateHFs[hf]
	return ok
}

// Seal builds the snapshot of every hardfork. It panics on an invalid
// description (a programming error).
func (c *ContractMD) Seal() {
	if c.sealed {
		return
	}
	all := append([]protocol.Hardfork{protocol.HFDefault}, protocol.Hardforks()...)
	c.snapshots = make([]*Snapshot, int(all[len(all)-1])+1)
	var prev *Snapshot
	for _, hf := range all {
		if hf < c.ActiveIn {
			continue
		}
		if prev == nil || hf == c.ActiveIn || c.IsUpdateHardfork(hf) {
			s, err := c.buildSnapshot(hf)
			if err != nil {
				panic(fmt.Sprintf("native: %s at %s: %v", c.Name, hf, err))
			}
			prev = s
		}
		c.snapshots[hf] = prev
	}
	c.sealed = true
}

// Snapshot returns the contract as of hf, the latest enabled hardfork (nil
// if hf precedes ActiveIn). Unknown later hardforks get the last snapshot.
func (c *ContractMD) Snapshot(hf protocol.Hardfork) *Snapshot {
	if int(hf) >= len(c.snapshots) {
		hf = protocol.Hardfork(len(c.snapshots) - 1)
	}
	return c.snapshots[hf]
}

func (c *ContractMD) buildSnapshot(hf protocol.Hardfork) (*Snapshot, error) {
	b := emit.NewBuilder()
	s := &Snapshot{HF: hf}
	m := manifest.DefaultManifest(c.Name)
	m.ABI.Methods = []manifest.Method{}
	m.ABI.Events = []manifest.Event{}
	for i := range c.methods {
		md := &c.methods[i]
		if !activeAt(md.From, md.Till, hf) {
			continue
		}
		off := b.Len()
		b.Opcodes(opcode.PUSH0).Syscall(CallNativeSyscall).Opcodes(opcode.RET)
		s.Methods = append(s.Methods, BoundMethod{Method: md, Offset: off, index: len(s.Methods)})
		m.ABI.Methods = append(m.ABI.Methods, manifest.Method{
			Name:       md.Name,
			Parameters: slices.Clone(md.Params),
			ReturnType: md.Return,
			Offset:     off,
			Safe:       md.Safe(),
		})
	}
	for i := range c.events {
		e := &c.events[i]
		if !activeAt(e.From, e.Till, hf) {
			continue
		}
		m.ABI.Events = append(m.ABI.Events, manifest.Event{Name: e.Name, Parameters: slices.Clone(e.Params)})
	}
	if c.Standards != nil {
		if std := c.Standards(hf); std != nil {
			m.SupportedStandards = std
		}
	}
	script, err := b.Script()
	if err != nil {
		return nil, err
	}
	f, err := nef.NewFile(CompilerName, "", []nef.MethodToken{}, script)
	if err != nil {
		return nil, err
	}
	s.NEF = *f
	s.Manifest = *m
	return s, nil
}
