package result

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// The WebSocket event messages. Only neo-go has them (docs/notifications.md
// of neo-go), so field names and order follow neo-go's own JSON of the
// records it sends, which differs from the getblock/getrawtransaction/
// getapplicationlog forms: no "size" in blocks and headers,
// "nextconsensus" before "primary", "attributes" before "signers", a
// "container" field in executions and notifications.

// Notification is a server-to-client JSON-RPC notification:
// {"jsonrpc":"2.0","method":<event name>,"params":[...]}.
type Notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

// headerEventJSON is neo-go's block header JSON (block.Header).
type headerEventJSON struct {
	Hash          util.Uint256          `json:"hash"`
	Version       uint32                `json:"version"`
	PrevHash      util.Uint256          `json:"previousblockhash"`
	MerkleRoot    util.Uint256          `json:"merkleroot"`
	Timestamp     uint64                `json:"time"`
	Nonce         string                `json:"nonce"`
	Index         uint32                `json:"index"`
	NextConsensus string                `json:"nextconsensus"`
	PrimaryIndex  uint8                 `json:"primary"`
	Witnesses     []transaction.Witness `json:"witnesses"`
}

func newHeaderEventJSON(h *block.Header) headerEventJSON {
	return headerEventJSON{
		Hash: h.Hash(), Version: h.Version, PrevHash: h.PrevHash, MerkleRoot: h.MerkleRoot,
		Timestamp: h.Timestamp, Nonce: fmt.Sprintf("%016X", h.Nonce), Index: h.Index,
		NextConsensus: address.Uint160ToString(h.NextConsensus), PrimaryIndex: h.PrimaryIndex,
		Witnesses: []transaction.Witness{h.Witness},
	}
}

// HeaderEvent is the header_of_added_block payload: the verbose
// getblockheader form without size, confirmations and nextblockhash.
type HeaderEvent struct {
	*block.Header
}

// MarshalJSON implements json.Marshaler.
func (h HeaderEvent) MarshalJSON() ([]byte, error) {
	return json.Marshal(newHeaderEventJSON(h.Header))
}

// BlockEvent is the block_added payload: the verbose getblock form
// without size, confirmations and nextblockhash.
type BlockEvent struct {
	*block.Block
}

// MarshalJSON implements json.Marshaler.
func (b BlockEvent) MarshalJSON() ([]byte, error) {
	aux := struct {
		headerEventJSON
		Transactions []TxEvent `json:"tx"`
	}{newHeaderEventJSON(&b.Header), make([]TxEvent, len(b.Transactions))}
	for i, tx := range b.Transactions {
		aux.Transactions[i] = TxEvent{tx}
	}
	return json.Marshal(aux)
}

// TxEvent is the transaction_added payload (and a transaction of the
// other events): the verbose getrawtransaction form without block
// metadata, in neo-go's key order.
type TxEvent struct {
	*transaction.Transaction
}

// MarshalJSON implements json.Marshaler.
func (t TxEvent) MarshalJSON() ([]byte, error) {
	aux := struct {
		Hash            util.Uint256            `json:"hash"`
		Size            int                     `json:"size"`
		Version         uint8                   `json:"version"`
		Nonce           uint32                  `json:"nonce"`
		Sender          string                  `json:"sender"`
		SystemFee       int64                   `json:"sysfee,string"`
		NetworkFee      int64                   `json:"netfee,string"`
		ValidUntilBlock uint32                  `json:"validuntilblock"`
		Attributes      []transaction.Attribute `json:"attributes"`
		Signers         []transaction.Signer    `json:"signers"`
		Script          []byte                  `json:"script"`
		Witnesses       []transaction.Witness   `json:"witnesses"`
	}{t.Hash(), t.Size(), t.Version, t.Nonce, address.Uint160ToString(t.Sender()), t.SystemFee, t.NetworkFee,
		t.ValidUntilBlock, t.Attributes, t.Signers, t.Script, t.Witnesses}
	// Decoded transactions have empty lists, never null ones.
	if aux.Attributes == nil {
		aux.Attributes = []transaction.Attribute{}
	}
	if aux.Signers == nil {
		aux.Signers = []transaction.Signer{}
	}
	if aux.Script == nil {
		aux.Script = []byte{}
	}
	if aux.Witnesses == nil {
		aux.Witnesses = []transaction.Witness{}
	}
	return json.Marshal(aux)
}

// ExecutionEvent is the transaction_executed payload: one execution of
// getapplicationlog with its container hash in front, except that an
// execution without notifications has "notifications": null (neo-go sends
// the live record, whose list is nil then).
type ExecutionEvent struct {
	*state.AppExecResult
}

type executionEventJSON struct {
	Container     util.Uint256              `json:"container"`
	Trigger       trigger.Type              `json:"trigger"`
	VMState       string                    `json:"vmstate"`
	GasConsumed   int64                     `json:"gasconsumed,string"`
	Stack         []json.RawMessage         `json:"stack"`
	Notifications []state.NotificationEvent `json:"notifications"`
	Exception     *string                   `json:"exception"`
	Invocations   []struct{}                `json:"invocations"` // null: not saved
}

// MarshalJSON implements json.Marshaler.
func (e ExecutionEvent) MarshalJSON() ([]byte, error) {
	aux := executionEventJSON{
		Container: e.Container, Trigger: e.Trigger, VMState: e.VMState.String(),
		GasConsumed: e.GasConsumed, Stack: make([]json.RawMessage, len(e.Stack)),
		Notifications: e.Events,
	}
	if len(aux.Notifications) == 0 {
		aux.Notifications = nil // neo-go: null when the run emitted none
	}
	if e.FaultException != "" {
		aux.Exception = &e.FaultException
	}
	for i, it := range e.Stack {
		aux.Stack[i] = itemJSON(it)
	}
	return json.Marshal(aux)
}

// NotificationEvent is the notification_from_execution payload: a
// getapplicationlog notification with the hash of the transaction or block
// whose execution emitted it.
type NotificationEvent struct {
	Container util.Uint256
	*state.NotificationEvent
}

// MarshalJSON implements json.Marshaler.
func (n NotificationEvent) MarshalJSON() ([]byte, error) {
	var st json.RawMessage = []byte(`{"type":"Array","value":[]}`)
	if n.Item != nil {
		st = itemJSON(n.Item)
	}
	return json.Marshal(struct {
		Container util.Uint256    `json:"container"`
		Contract  util.Uint160    `json:"contract"`
		Name      string          `json:"eventname"`
		State     json.RawMessage `json:"state"`
	}{n.Container, n.ScriptHash, n.Name, st})
}

// Mempool event types.
const (
	MempoolAdded   = "added"
	MempoolRemoved = "removed"
)

// MempoolEvent is the mempool_event payload: "added" or "removed" and the
// transaction (the getrawtransaction form without block metadata).
type MempoolEvent struct {
	Type string  `json:"type"`
	Tx   TxEvent `json:"transaction"`
}

// itemJSON is an item's RPC JSON, or the error text the reference prints
// for an item it cannot convert.
func itemJSON(it stackitem.Item) json.RawMessage {
	b, err := itemjson.Marshal(it)
	if err != nil {
		b, _ = json.Marshal("error: " + err.Error()) // a string always marshals
	}
	return b
}
