package state

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Limits of stored execution records.
const (
	// MaxEventNameLen is the reference MaxEventName.
	MaxEventNameLen = 32
	// MaxItemBytes bounds one serialized stack item in a stored record.
	MaxItemBytes = 16 << 20
	// MaxStackItems bounds the result stack and notification count of a
	// stored record (the reference MaxStackSize is far lower).
	MaxStackItems = 1 << 16
	// MaxExceptionLen bounds a stored fault text.
	MaxExceptionLen = 1 << 16
)

// NotificationEvent is one notification: the contract that sent it, the
// event name and the (immutable, deep-copied) state array.
type NotificationEvent struct {
	ScriptHash util.Uint160
	Name       string
	Item       *stackitem.Array
}

// EncodeBinary writes hash ‖ var string name ‖ var bytes serialized state.
func (ne *NotificationEvent) EncodeBinary(w *io.BinWriter) {
	w.WriteBytes(ne.ScriptHash[:])
	w.WriteString(ne.Name)
	var it stackitem.Item = stackitem.NewArray(nil)
	if ne.Item != nil {
		it = ne.Item
	}
	b, err := stackitem.SerializeLimited(it, MaxItemBytes, MaxStackItems)
	if err != nil {
		if w.Err == nil {
			w.Err = fmt.Errorf("%w: %w", ErrInvalidNotification, err)
		}
		return
	}
	w.WriteVarBytes(b)
}

// DecodeBinary reads the form EncodeBinary writes.
func (ne *NotificationEvent) DecodeBinary(r *io.BinReader) {
	r.ReadBytes(ne.ScriptHash[:])
	ne.Name = r.ReadString(MaxEventNameLen)
	b := r.ReadVarBytesNoCopy(MaxItemBytes)
	if r.Err != nil {
		return
	}
	it, err := stackitem.DeserializeLimited(b, MaxItemBytes, MaxStackItems)
	if err != nil {
		r.Err = fmt.Errorf("%w: %w", ErrInvalidNotification, err)
		return
	}
	arr, ok := it.(*stackitem.Array)
	if !ok {
		r.Err = fmt.Errorf("%w: state is %s", ErrInvalidNotification, it.Type())
		return
	}
	ne.Item = arr
}

type notificationJSON struct {
	ScriptHash util.Uint160    `json:"contract"`
	Name       string          `json:"eventname"`
	Item       json.RawMessage `json:"state"`
}

// MarshalJSON writes {"contract","eventname","state"} as getapplicationlog
// prints it.
func (ne NotificationEvent) MarshalJSON() ([]byte, error) {
	var it stackitem.Item = stackitem.NewArray(nil)
	if ne.Item != nil {
		it = ne.Item
	}
	st, err := itemjson.Marshal(it)
	if err != nil {
		st = errorJSON(err)
	}
	return json.Marshal(notificationJSON{ScriptHash: ne.ScriptHash, Name: ne.Name, Item: st})
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (ne *NotificationEvent) UnmarshalJSON(data []byte) error {
	var aux notificationJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidNotification, err)
	}
	it, err := itemjson.Unmarshal(aux.Item)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidNotification, err)
	}
	arr, ok := it.(*stackitem.Array)
	if !ok || arr.IsStruct() {
		return fmt.Errorf("%w: state is %s", ErrInvalidNotification, it.Type())
	}
	*ne = NotificationEvent{ScriptHash: aux.ScriptHash, Name: aux.Name, Item: arr}
	return nil
}

// errorJSON is what the RPC prints for an item it cannot convert.
func errorJSON(err error) []byte {
	b, _ := json.Marshal("error: " + err.Error()) // a string always marshals
	return b
}
