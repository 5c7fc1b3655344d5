package client

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// HaltState is the VM state of a successful run.
const HaltState = "HALT"

// Invoke is the answer of invokescript and invokefunction.
type Invoke struct {
	State          string
	GasConsumed    int64
	Script         []byte
	Stack          []stackitem.Item
	FaultException string
	Notifications  []state.NotificationEvent
	Session        string
}

type invokeJSON struct {
	State          string                    `json:"state"`
	GasConsumed    int64                     `json:"gasconsumed,string"`
	Script         []byte                    `json:"script"`
	Stack          []json.RawMessage         `json:"stack"`
	FaultException *string                   `json:"exception"`
	Notifications  []state.NotificationEvent `json:"notifications"`
	Session        string                    `json:"session"`
}

// UnmarshalJSON implements json.Unmarshaler. A null stack (the server
// could not print an item) is an empty one.
func (r *Invoke) UnmarshalJSON(data []byte) error {
	var aux invokeJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = Invoke{State: aux.State, GasConsumed: aux.GasConsumed, Script: aux.Script,
		Notifications: aux.Notifications, Session: aux.Session}
	if aux.FaultException != nil {
		r.FaultException = *aux.FaultException
	}
	r.Stack = make([]stackitem.Item, len(aux.Stack))
	for i, raw := range aux.Stack {
		it, err := itemjson.Unmarshal(raw)
		if err != nil {
			return fmt.Errorf("stack item %d: %w", i, err)
		}
		r.Stack[i] = it
	}
	return nil
}

// Err returns nil for a run that ended in HALT, else an error with the
// state and the fault.
func (r *Invoke) Err() error {
	if r.State == HaltState {
		return nil
	}
	return fmt.Errorf("%w (%s state) due to an error: %s", ErrScriptFailed, r.State, r.FaultException)
}

// ErrScriptFailed is a test run that did not end in HALT.
var ErrScriptFailed = errors.New("script failed")

// ErrStack is a test run whose result stack is not what the caller expects.
var ErrStack = errors.New("unexpected result stack")

// TopItem returns the only (or the last) stack item of a HALTed run.
func (r *Invoke) TopItem() (stackitem.Item, error) {
	if err := r.Err(); err != nil {
		return nil, err
	}
	if len(r.Stack) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrStack)
	}
	return r.Stack[len(r.Stack)-1], nil
}

// UnclaimedGas is the getunclaimedgas answer.
type UnclaimedGas struct {
	Address   util.Uint160
	Unclaimed *big.Int
}

// UnmarshalJSON implements json.Unmarshaler.
func (g *UnclaimedGas) UnmarshalJSON(data []byte) error {
	var aux struct {
		Address   string `json:"address"`
		Unclaimed string `json:"unclaimed"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	h, err := address.StringToUint160(aux.Address)
	if err != nil {
		return fmt.Errorf("address: %w", err)
	}
	n, ok := new(big.Int).SetString(aux.Unclaimed, 10)
	if !ok {
		return fmt.Errorf("unclaimed: not a number: %q", aux.Unclaimed)
	}
	g.Address, g.Unclaimed = h, n
	return nil
}

// ApplicationLog is the getapplicationlog answer of a transaction or a
// block.
type ApplicationLog struct {
	TxHash     *util.Uint256     `json:"txid"`
	BlockHash  *util.Uint256     `json:"blockhash"`
	Executions []state.Execution `json:"executions"`
}

// Param is a typed contract argument of invokefunction, written as
// {"type":"Hash160","value":"0x..."}. Value holds, by Type: util.Uint160
// (Hash160), *big.Int (Integer), []byte (ByteArray and Signature, base64;
// PublicKey, the encoded key in hex), string (String), bool (Boolean),
// []Param (Array), nil (Any).
type Param struct {
	Type  smartcontract.ParamType
	Value any
}

// MarshalJSON implements json.Marshaler.
func (p Param) MarshalJSON() ([]byte, error) {
	v, err := p.jsonValue()
	if err != nil {
		return nil, err
	}
	if v == nil {
		return json.Marshal(struct {
			Type smartcontract.ParamType `json:"type"`
		}{p.Type})
	}
	return json.Marshal(struct {
		Type  smartcontract.ParamType `json:"type"`
		Value any                     `json:"value"`
	}{p.Type, v})
}

func (p Param) jsonValue() (any, error) {
	bad := fmt.Errorf("param: %s value of type %T", p.Type, p.Value)
	switch p.Type {
	case smartcontract.AnyType:
		return nil, nil
	case smartcontract.Hash160Type:
		h, ok := p.Value.(util.Uint160)
		if !ok {
			return nil, bad
		}
		return h.String(), nil
	case smartcontract.IntegerType:
		n, ok := p.Value.(*big.Int)
		if !ok || n == nil {
			return nil, bad
		}
		return n.String(), nil
	case smartcontract.ByteArrayType, smartcontract.SignatureType:
		b, ok := p.Value.([]byte)
		if !ok {
			return nil, bad
		}
		return base64.StdEncoding.EncodeToString(b), nil
	case smartcontract.PublicKeyType:
		b, ok := p.Value.([]byte)
		if !ok {
			return nil, bad
		}
		return hex.EncodeToString(b), nil
	case smartcontract.StringType, smartcontract.BoolType:
		switch p.Value.(type) {
		case string, bool:
			return p.Value, nil
		}
		return nil, bad
	case smartcontract.ArrayType:
		ps, ok := p.Value.([]Param)
		if !ok {
			return nil, bad
		}
		if ps == nil {
			ps = []Param{}
		}
		return ps, nil
	}
	return nil, fmt.Errorf("param: unsupported type %s", p.Type)
}
