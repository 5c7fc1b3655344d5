package state

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Execution is the outcome of one script run.
type Execution struct {
	Trigger        trigger.Type
	VMState        vm.State
	GasConsumed    int64
	Stack          []stackitem.Item
	Events         []NotificationEvent
	FaultException string
}

// AppExecResult is an Execution with the hash of its container (the
// transaction, or the block for OnPersist/PostPersist).
type AppExecResult struct {
	Container util.Uint256
	Execution
}

// Stack entry kinds in the binary form.
const (
	entrySerialized byte = iota // var bytes: binary-serialized item
	entryInterop                // no payload
	entryPointer                // u32 position
	entryError                  // var string: why the item could not be kept
)

// EncodeBinary writes the execution: trigger, state, gas, stack, events,
// fault text.
func (e *Execution) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(e.Trigger))
	w.WriteU8(byte(e.VMState))
	w.WriteU64LE(uint64(e.GasConsumed))
	w.WriteVarUint(uint64(len(e.Stack)))
	for _, it := range e.Stack {
		encodeEntry(w, it)
	}
	w.WriteVarUint(uint64(len(e.Events)))
	for i := range e.Events {
		e.Events[i].EncodeBinary(w)
	}
	w.WriteString(e.FaultException)
}

func encodeEntry(w *io.BinWriter, it stackitem.Item) {
	switch v := it.(type) {
	case *stackitem.Interop:
		w.WriteU8(entryInterop)
		return
	case *stackitem.Pointer:
		w.WriteU8(entryPointer)
		w.WriteU32LE(uint32(v.Position()))
		return
	}
	b, err := stackitem.SerializeLimited(it, MaxItemBytes, MaxStackItems)
	if err != nil {
		w.WriteU8(entryError)
		w.WriteString(err.Error())
		return
	}
	w.WriteU8(entrySerialized)
	w.WriteVarBytes(b)
}

// DecodeBinary reads the form EncodeBinary writes.
func (e *Execution) DecodeBinary(r *io.BinReader) {
	e.Trigger = trigger.Type(r.ReadU8())
	e.VMState = vm.State(r.ReadU8())
	e.GasConsumed = int64(r.ReadU64LE())
	n := r.ReadVarLen(MaxStackItems)
	if r.Err != nil {
		return
	}
	e.Stack = make([]stackitem.Item, 0, min(n, 64))
	for range n {
		it := decodeEntry(r)
		if r.Err != nil {
			return
		}
		e.Stack = append(e.Stack, it)
	}
	n = r.ReadVarLen(MaxStackItems)
	if r.Err != nil {
		return
	}
	e.Events = make([]NotificationEvent, 0, min(n, 64))
	for range n {
		var ne NotificationEvent
		ne.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		e.Events = append(e.Events, ne)
	}
	e.FaultException = r.ReadString(MaxExceptionLen)
}

func decodeEntry(r *io.BinReader) stackitem.Item {
	switch kind := r.ReadU8(); kind {
	case entryInterop:
		return stackitem.NewInterop(nil)
	case entryPointer:
		return stackitem.NewPointer(int(r.ReadU32LE()), nil)
	case entryError:
		return stackitem.ByteString("error: " + r.ReadString(MaxExceptionLen))
	case entrySerialized:
		b := r.ReadVarBytesNoCopy(MaxItemBytes)
		if r.Err != nil {
			return nil
		}
		it, err := stackitem.DeserializeLimited(b, MaxItemBytes, MaxStackItems)
		if err != nil {
			r.Err = fmt.Errorf("%w: stack item: %w", ErrInvalidExecution, err)
			return nil
		}
		return it
	default:
		if r.Err == nil {
			r.Err = fmt.Errorf("%w: stack entry kind %d", ErrInvalidExecution, kind)
		}
		return nil
	}
}

// EncodeBinary writes the container hash and the execution.
func (a *AppExecResult) EncodeBinary(w *io.BinWriter) {
	w.WriteBytes(a.Container[:])
	a.Execution.EncodeBinary(w)
}

// DecodeBinary reads the form EncodeBinary writes.
func (a *AppExecResult) DecodeBinary(r *io.BinReader) {
	r.ReadBytes(a.Container[:])
	a.Execution.DecodeBinary(r)
}

type executionJSON struct {
	Trigger       trigger.Type        `json:"trigger"`
	VMState       string              `json:"vmstate"`
	Exception     *string             `json:"exception"`
	GasConsumed   int64               `json:"gasconsumed,string"`
	Stack         []json.RawMessage   `json:"stack"`
	Notifications []NotificationEvent `json:"notifications"`
}

// MarshalJSON writes one entry of getapplicationlog's "executions": trigger,
// vmstate, exception (null on success), gasconsumed (decimal string), stack
// (RPC item JSON), notifications.
func (e Execution) MarshalJSON() ([]byte, error) {
	aux := executionJSON{
		Trigger: e.Trigger, VMState: e.VMState.String(), GasConsumed: e.GasConsumed,
		Stack: make([]json.RawMessage, len(e.Stack)), Notifications: e.Events,
	}
	if aux.Notifications == nil {
		aux.Notifications = []NotificationEvent{}
	}
	if e.FaultException != "" {
		aux.Exception = &e.FaultException
	}
	for i, it := range e.Stack {
		b, err := itemjson.Marshal(it)
		if err != nil {
			b = errorJSON(err)
		}
		aux.Stack[i] = b
	}
	return json.Marshal(aux)
}

// UnmarshalJSON reads the form MarshalJSON writes. Stack entries that are
// error strings are kept as ByteStrings of their text.
func (e *Execution) UnmarshalJSON(data []byte) error {
	var aux executionJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidExecution, err)
	}
	st, err := parseVMState(aux.VMState)
	if err != nil {
		return err
	}
	*e = Execution{Trigger: aux.Trigger, VMState: st, GasConsumed: aux.GasConsumed, Events: aux.Notifications}
	if aux.Exception != nil {
		e.FaultException = *aux.Exception
	}
	e.Stack = make([]stackitem.Item, len(aux.Stack))
	for i, raw := range aux.Stack {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			e.Stack[i] = stackitem.ByteString(s)
			continue
		}
		it, err := itemjson.Unmarshal(raw)
		if err != nil {
			return fmt.Errorf("%w: stack: %w", ErrInvalidExecution, err)
		}
		e.Stack[i] = it
	}
	return nil
}

func parseVMState(s string) (vm.State, error) {
	for _, st := range []vm.State{vm.NoneState, vm.HaltState, vm.FaultState, vm.BreakState} {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, fmt.Errorf("%w: vm state %q", ErrInvalidExecution, s)
}

type appExecJSON struct {
	Container  util.Uint256 `json:"container"`
	Executions []Execution  `json:"executions"`
}

// MarshalJSON writes {"container": hash, "executions": [execution]}; the
// RPC server renames the container field to txid or blockhash.
func (a AppExecResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(appExecJSON{Container: a.Container, Executions: []Execution{a.Execution}})
}

// UnmarshalJSON reads the form MarshalJSON writes (exactly one execution).
func (a *AppExecResult) UnmarshalJSON(data []byte) error {
	var aux appExecJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidExecution, err)
	}
	if len(aux.Executions) != 1 {
		return fmt.Errorf("%w: %d executions", ErrInvalidExecution, len(aux.Executions))
	}
	*a = AppExecResult{Container: aux.Container, Execution: aux.Executions[0]}
	return nil
}
