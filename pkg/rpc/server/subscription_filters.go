package server

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// The subscription filters of neo-go's WebSocket extension, with its JSON
// field names. A missing field (or null) matches everything; the fields
// given must all match. Unknown fields are an error.

// MaxNotificationFilterParameters bounds NotificationFilter.Parameters
// (neo-go's limit).
const MaxNotificationFilterParameters = 16

// ErrInvalidFilter is a filter that decodes but cannot be used.
var ErrInvalidFilter = errors.New("invalid subscription filter")

// BlockFilter selects block_added and header_of_added_block events by the
// primary (speaker) index and an inclusive range of block indexes.
type BlockFilter struct {
	Primary *uint8  `json:"primary,omitzero"`
	Since   *uint32 `json:"since,omitzero"`
	Till    *uint32 `json:"till,omitzero"`
}

// TxFilter selects transaction_added events by sender and by one signer.
type TxFilter struct {
	Sender *util.Uint160 `json:"sender,omitzero"`
	Signer *util.Uint160 `json:"signer,omitzero"`
}

// NotificationFilter selects notification_from_execution events by
// contract, event name and leading state parameters (an Any parameter, or
// one without a value, matches any item).
type NotificationFilter struct {
	Contract   *util.Uint160     `json:"contract,omitzero"`
	Name       *string           `json:"name,omitzero"`
	Parameters []FilterParameter `json:"parameters,omitzero"`
}

// FilterParameter is one typed value of NotificationFilter.Parameters in
// the invokefunction argument form ({"type":"Integer","value":"1"}).
type FilterParameter struct {
	Type  smartcontract.ParamType `json:"type"`
	Value json.RawMessage         `json:"value,omitzero"`
}

// ExecutionFilter selects transaction_executed events by VM state ("HALT"
// or "FAULT") and container hash.
type ExecutionFilter struct {
	State     *string       `json:"state,omitzero"`
	Container *util.Uint256 `json:"container,omitzero"`
}

// MempoolEventFilter selects mempool_event events by type ("added" or
// "removed"), sender and one signer.
type MempoolEventFilter struct {
	Sender *util.Uint160 `json:"sender,omitzero"`
	Signer *util.Uint160 `json:"signer,omitzero"`
	Type   *MempoolType  `json:"type,omitzero"`
}

// MempoolType is the type of a mempool event: "added" or "removed".
type MempoolType string

// UnmarshalJSON accepts "added" and "removed" only.
func (t *MempoolType) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if s != result.MempoolAdded && s != result.MempoolRemoved {
		return errors.New("invalid event type name")
	}
	*t = MempoolType(s)
	return nil
}

// filter is a parsed, validated filter.
type filter interface {
	matches(e *subEvent) bool
}

// parseFilter decodes and checks the filter of stream id (raw is one JSON
// value, bounded by the request size).
func parseFilter(id eventID, raw []byte) (filter, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	var err error
	switch id {
	case eventBlock, eventHeader:
		f := new(BlockFilter)
		if err = d.Decode(f); err == nil {
			return f, nil
		}
	case eventTransaction:
		f := new(TxFilter)
		if err = d.Decode(f); err == nil {
			return f, nil
		}
	case eventNotification:
		f := new(NotificationFilter)
		if err = d.Decode(f); err == nil {
			return f.compile()
		}
	case eventExecution:
		f := new(ExecutionFilter)
		if err = d.Decode(f); err == nil {
			return f, f.validate()
		}
	case eventMempool:
		f := new(MempoolEventFilter)
		if err = d.Decode(f); err == nil {
			return f, nil
		}
	default:
		return nil, fmt.Errorf("%w: stream %d has no filter", ErrInvalidFilter, id)
	}
	return nil, err
}

func (f *BlockFilter) matches(e *subEvent) bool {
	h := &e.block.Header
	return (f.Primary == nil || *f.Primary == h.PrimaryIndex) &&
		(f.Since == nil || *f.Since <= h.Index) &&
		(f.Till == nil || h.Index <= *f.Till)
}

func (f *TxFilter) matches(e *subEvent) bool {
	return matchSenderSigner(f.Sender, f.Signer, e)
}

// matchSenderSigner checks the sender and one signer of e's transaction.
func matchSenderSigner(sender, signer *util.Uint160, e *subEvent) bool {
	if sender != nil && e.tx.Sender() != *sender {
		return false
	}
	if signer == nil {
		return true
	}
	for i := range e.tx.Signers {
		if e.tx.Signers[i].Account == *signer {
			return true
		}
	}
	return false
}

func (f *ExecutionFilter) validate() error {
	if f.State != nil && *f.State != vm.HaltState.String() && *f.State != vm.FaultState.String() {
		return fmt.Errorf("%w: ExecutionFilter state parameter must be either %s or %s",
			ErrInvalidFilter, vm.HaltState, vm.FaultState)
	}
	return nil
}

func (f *ExecutionFilter) matches(e *subEvent) bool {
	return (f.State == nil || e.exec.VMState.String() == *f.State) &&
		(f.Container == nil || e.exec.Container == *f.Container)
}

func (f *MempoolEventFilter) matches(e *subEvent) bool {
	return (f.Type == nil || string(*f.Type) == e.poolType) && matchSenderSigner(f.Sender, f.Signer, e)
}

// notificationFilter is a NotificationFilter with its parameters as stack
// items (nil: any item).
type notificationFilter struct {
	*NotificationFilter
	params []stackitem.Item
}

// compile checks f and converts its parameters.
func (f *NotificationFilter) compile() (filter, error) {
	if f.Name != nil && len(*f.Name) > state.MaxEventNameLen {
		return nil, fmt.Errorf("%w: NotificationFilter name parameter must be less than %d",
			ErrInvalidFilter, state.MaxEventNameLen)
	}
	n := len(f.Parameters)
	if n > MaxNotificationFilterParameters {
		return nil, fmt.Errorf("%w: NotificationFilter's parameters number exceeded: %d > %d",
			ErrInvalidFilter, n, MaxNotificationFilterParameters)
	}
	out := &notificationFilter{NotificationFilter: f, params: make([]stackitem.Item, n)}
	allAny := n > 0
	for i, p := range f.Parameters {
		if p.Type != smartcontract.AnyType {
			allAny = false
		}
		it, err := p.item()
		if err != nil {
			return nil, fmt.Errorf("%w: NotificationFilter %d filter parameter: %w", ErrInvalidFilter, i, err)
		}
		out.params[i] = it
	}
	if allAny {
		return nil, fmt.Errorf("%w: NotificationFilter cannot have all parameters of type %s",
			ErrInvalidFilter, smartcontract.AnyType)
	}
	return out, nil
}

// item converts the parameter as neo-go does; nil is a wildcard (Any, or
// a missing or null value).
func (p FilterParameter) item() (stackitem.Item, error) {
	switch p.Type {
	case smartcontract.AnyType, smartcontract.BoolType, smartcontract.IntegerType,
		smartcontract.ByteArrayType, smartcontract.StringType, smartcontract.Hash160Type,
		smartcontract.Hash256Type, smartcontract.PublicKeyType, smartcontract.SignatureType:
	default:
		return nil, fmt.Errorf("type %s is unsupported", p.Type)
	}
	v := bytes.TrimSpace(p.Value)
	if len(v) == 0 || bytes.Equal(v, []byte("null")) || p.Type == smartcontract.AnyType {
		return nil, nil
	}
	var s string
	switch p.Type {
	case smartcontract.BoolType:
		var b bool
		err := json.Unmarshal(v, &b)
		return stackitem.Bool(b), err
	case smartcontract.IntegerType:
		return integerParameter(v)
	case smartcontract.Hash160Type:
		var h util.Uint160
		err := json.Unmarshal(v, &h)
		return stackitem.ByteString(h.BytesLE()), err
	case smartcontract.Hash256Type:
		var h util.Uint256
		err := json.Unmarshal(v, &h)
		return stackitem.ByteString(h.BytesLE()), err
	}
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, err
	}
	switch p.Type {
	case smartcontract.StringType:
		return stackitem.ByteString(s), nil
	case smartcontract.PublicKeyType:
		b, err := hex.DecodeString(s)
		return stackitem.ByteString(b), err
	default: // ByteArray, Signature
		b, err := base64.StdEncoding.DecodeString(s)
		return stackitem.ByteString(b), err
	}
}

// integerParameter reads a JSON number or a decimal string of at most 32
// bytes.
func integerParameter(v []byte) (stackitem.Item, error) {
	var i int64
	if err := json.Unmarshal(v, &i); err == nil {
		return stackitem.NewInt(i), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, err
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	return stackitem.NewBigIntegerChecked(n)
}

func (f *notificationFilter) matches(e *subEvent) bool {
	ne := e.notification
	if (f.Contract != nil && ne.ScriptHash != *f.Contract) || (f.Name != nil && ne.Name != *f.Name) {
		return false
	}
	if len(f.params) == 0 {
		return true
	}
	if ne.Item == nil || len(f.params) > ne.Item.Len() {
		return false
	}
	for i, p := range f.params {
		if p != nil && !p.Equals(ne.Item.At(i)) {
			return false
		}
	}
	return true
}
