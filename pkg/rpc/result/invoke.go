package result

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Iterator is an iterator left on a test invocation's result stack. Without
// sessions its first values are dumped (Values, Truncated when more were
// left); with sessions it is known by ID and read with traverseiterator;
// with sessions and expansion it has both (ID only when values are left).
// As neo-go's, the JSON form omits "iterator" when there are no values,
// "id" without an ID and "truncated" when false.
type Iterator struct {
	ID        string
	Values    []stackitem.Item
	Truncated bool
}

type iteratorJSON struct {
	Type      string            `json:"type"`
	Interface string            `json:"interface,omitzero"`
	ID        string            `json:"id,omitzero"`
	Values    []json.RawMessage `json:"iterator,omitzero"`
	Truncated bool              `json:"truncated,omitzero"`
}

// MarshalJSON implements json.Marshaler.
func (it Iterator) MarshalJSON() ([]byte, error) {
	aux := iteratorJSON{Type: stackitem.InteropT.String(), Truncated: it.Truncated}
	if it.ID != "" {
		aux.Interface, aux.ID = "IIterator", it.ID
	}
	if len(it.Values) != 0 {
		aux.Values = make([]json.RawMessage, len(it.Values))
		for i, v := range it.Values {
			b, err := itemjson.Marshal(v)
			if err != nil {
				return nil, err
			}
			aux.Values[i] = b
		}
	}
	return json.Marshal(aux)
}

// Invoke is the answer of invokescript, invokefunction and
// invokecontractverify. Stack entries are stack items, or Iterator values
// (already dumped or registered by the server).
type Invoke struct {
	State          string
	GasConsumed    int64
	Script         []byte
	Stack          []any
	FaultException string
	Notifications  []state.NotificationEvent
	Diagnostics    *InvokeDiag // nil unless the request asked for it
	Session        string
}

// InvokeDiag is neo-go's "diagnostics" of a verbose invocation: the
// contract storage changes and the tree of the scripts it ran.
type InvokeDiag struct {
	Changes     []dao.StorageChange  `json:"storagechanges"`
	Invocations []*vm.InvocationTree `json:"invokedcontracts"`
}

type invokeJSON struct {
	State          string                    `json:"state"`
	GasConsumed    int64                     `json:"gasconsumed,string"`
	Script         []byte                    `json:"script"`
	Stack          json.RawMessage           `json:"stack"`
	FaultException *string                   `json:"exception"`
	Notifications  []state.NotificationEvent `json:"notifications"`
	Diagnostics    *InvokeDiag               `json:"diagnostics,omitzero"`
	Session        string                    `json:"session,omitzero"`
}

// MarshalJSON implements json.Marshaler. A stack item that cannot be
// printed (too big, circular) makes the stack null and is reported in the
// exception, as the reference does.
func (r Invoke) MarshalJSON() ([]byte, error) {
	fault := r.FaultException
	arr := make([]json.RawMessage, len(r.Stack))
	var stackErr error
	for i, v := range r.Stack {
		var b []byte
		switch v := v.(type) {
		case Iterator:
			b, stackErr = v.MarshalJSON()
		case stackitem.Item:
			b, stackErr = itemjson.Marshal(v)
		default:
			stackErr = fmt.Errorf("unexpected stack value %T", v)
		}
		if stackErr != nil {
			break
		}
		arr[i] = b
	}
	var st json.RawMessage
	if stackErr != nil {
		if fault != "" {
			fault += " / "
		}
		fault += "json error: " + stackErr.Error()
	} else {
		var err error
		if st, err = json.Marshal(arr); err != nil {
			return nil, err
		}
	}
	aux := invokeJSON{State: r.State, GasConsumed: r.GasConsumed, Script: r.Script, Stack: st,
		Notifications: r.Notifications, Diagnostics: r.Diagnostics, Session: r.Session}
	if aux.Notifications == nil {
		aux.Notifications = []state.NotificationEvent{}
	}
	if fault != "" {
		aux.FaultException = &fault
	}
	return json.Marshal(aux)
}
