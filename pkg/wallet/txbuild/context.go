package txbuild

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	nio "github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// Type names of a ContractParametersContext holding a transaction: the
// N3 one and the Neo 2 one neo-go still reads.
const (
	TransactionType       = "Neo.Network.P2P.Payloads.Transaction"
	legacyTransactionType = "Neo.Core.ContractTransaction"
)

// MaxContextSize bounds a context file.
const MaxContextSize = 4 << 20

// Errors of contexts.
var (
	// ErrContext is a malformed context.
	ErrContext = errors.New("txbuild: bad context")
	// ErrSigned is a signature already in the context.
	ErrSigned = errors.New("txbuild: signature is already added")
	// ErrNotMember is a key that is not one of the multisig's keys.
	ErrNotMember = errors.New("txbuild: public key is not present in script")
	// ErrIncomplete is a context that lacks signatures.
	ErrIncomplete = errors.New("txbuild: context is not complete")
)

// Context is a ContractParametersContext: a transaction to sign, its
// network and, per script hash, the verification script and the
// signatures collected so far. Its JSON is neo-go's (and the C# node's):
//
//	{"type":"Neo.Network.P2P.Payloads.Transaction","network":860833102,
//	 "hash":"0x…","data":"<base64 unsigned tx>","items":{"0x<hash>":
//	 {"script":"<base64>","parameters":[{"type":"Signature","value":"<base64>"}],
//	  "signatures":{"<pubkey hex>":"<base64 sig>"}}}}
type Context struct {
	Type    string
	Network uint32
	Tx      *transaction.Transaction
	Items   map[util.Uint160]*ContextItem
}

// ContextItem is the witness data of one script hash.
type ContextItem struct {
	Script     []byte            `json:"script"`
	Parameters []ContextParam    `json:"parameters"`
	Signatures map[string][]byte `json:"signatures"`
}

// ContextParam is one parameter of a verification script; Value is nil
// until known (only Signature parameters are filled by this package).
type ContextParam struct {
	Type  smartcontract.ParamType `json:"type"`
	Value json.RawMessage         `json:"value,omitempty"`
}

// NewContext returns an empty context for tx on network.
func NewContext(network uint32, tx *transaction.Transaction) *Context {
	return &Context{Type: TransactionType, Network: network, Tx: tx, Items: map[util.Uint160]*ContextItem{}}
}

type contextJSON struct {
	Type    string                     `json:"type"`
	Network uint32                     `json:"network"`
	Hash    *util.Uint256              `json:"hash,omitempty"`
	Data    []byte                     `json:"data"`
	Items   map[string]json.RawMessage `json:"items"`
}

// MarshalJSON implements json.Marshaler.
func (c *Context) MarshalJSON() ([]byte, error) {
	w := nio.NewBufBinWriter()
	c.Tx.EncodeUnsigned(w.BinWriter)
	if w.Err != nil {
		return nil, fmt.Errorf("encode transaction: %w", w.Err)
	}
	h := c.Tx.Hash()
	aux := contextJSON{Type: c.Type, Network: c.Network, Hash: &h, Data: w.Bytes(),
		Items: make(map[string]json.RawMessage, len(c.Items))}
	for u, it := range c.Items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		aux.Items[u.String()] = b
	}
	return json.Marshal(aux)
}

// UnmarshalJSON implements json.Unmarshaler: the transaction is decoded
// from data and checked against hash when given.
func (c *Context) UnmarshalJSON(data []byte) error {
	var aux contextJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrContext, err)
	}
	if aux.Type != TransactionType && aux.Type != legacyTransactionType {
		return fmt.Errorf("%w: unsupported type %q", ErrContext, aux.Type)
	}
	tx, err := decodeUnsigned(aux.Data)
	if err != nil {
		return fmt.Errorf("%w: data: %w", ErrContext, err)
	}
	if aux.Hash != nil && !aux.Hash.IsZero() && *aux.Hash != tx.Hash() {
		return fmt.Errorf("%w: hash %s does not match the transaction's %s", ErrContext, aux.Hash, tx.Hash())
	}
	if len(aux.Items) > transaction.MaxAttributes {
		return fmt.Errorf("%w: %d items", ErrContext, len(aux.Items))
	}
	items := make(map[util.Uint160]*ContextItem, len(aux.Items))
	for k, raw := range aux.Items {
		u, err := util.Uint160DecodeStringBE(strings.TrimPrefix(k, "0x"))
		if err != nil {
			return fmt.Errorf("%w: item %q: %w", ErrContext, k, err)
		}
		it := new(ContextItem)
		if err := json.Unmarshal(raw, it); err != nil {
			return fmt.Errorf("%w: item %s: %w", ErrContext, k, err)
		}
		if it.Signatures == nil {
			it.Signatures = map[string][]byte{}
		}
		items[u] = it
	}
	*c = Context{Type: aux.Type, Network: aux.Network, Tx: tx, Items: items}
	return nil
}

// signersOffset is where the signer count starts in a transaction:
// version, nonce, system and network fees, ValidUntilBlock.
const signersOffset = 1 + 4 + 8 + 8 + 4

// decodeUnsigned decodes the unsigned part of a transaction (what its hash
// covers): it is completed with one empty witness per signer, then the
// witnesses are dropped.
func decodeUnsigned(data []byte) (*transaction.Transaction, error) {
	if len(data) <= signersOffset {
		return nil, fmt.Errorf("%d bytes: too short", len(data))
	}
	r := nio.NewBinReaderFromBuf(data[signersOffset:])
	n := r.ReadVarUint()
	if r.Err != nil {
		return nil, r.Err
	}
	if n > transaction.MaxAttributes {
		return nil, fmt.Errorf("%d signers", n)
	}
	full := slices.Clone(data)
	full = append(full, byte(n))
	full = append(full, make([]byte, 2*n)...)
	tx, err := transaction.NewTransactionFromBytes(full)
	if err != nil {
		return nil, err
	}
	tx.Witnesses = nil
	tx.InvalidateCache()
	return tx, nil
}

// ReadContext reads a context file (at most MaxContextSize bytes).
func ReadContext(path string) (*Context, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("can't read input file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxContextSize+1))
	if err != nil {
		return nil, fmt.Errorf("can't read input file: %w", err)
	}
	if len(data) > MaxContextSize {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrContext, path, MaxContextSize)
	}
	c := new(Context)
	if err := json.Unmarshal(data, c); err != nil {
		return nil, fmt.Errorf("can't parse transaction: %w", err)
	}
	return c, nil
}

// Save writes the context to path (replacing it).
func (c *Context) Save(path string) error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("can't marshal transaction: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("can't write transaction to file: %w", err)
	}
	return nil
}

// item returns the item of contract h, made from c's contract when new.
func (c *Context) item(h util.Uint160, ct *wallet.Contract) *ContextItem {
	if it, ok := c.Items[h]; ok {
		return it
	}
	it := &ContextItem{Parameters: make([]ContextParam, len(ct.Parameters)), Signatures: map[string][]byte{}}
	for i, p := range ct.Parameters {
		it.Parameters[i].Type = p.Type
	}
	if !ct.Deployed {
		it.Script = slices.Clone(ct.Script)
	}
	c.Items[h] = it
	return it
}

// AddSignature adds sig of key pub for the account h with contract ct. For
// an m-of-n multisig the parameters are filled once m signatures are in,
// highest key index first (the order the reference writes).
func (c *Context) AddSignature(h util.Uint160, ct *wallet.Contract, pub *keys.PublicKey, sig []byte) error {
	it := c.item(h, ct)
	if m, pubs, ok := scripts.ParseMultiSigContract(ct.Script); ok {
		return it.addMultiSig(m, pubs, pub, sig)
	}
	idx := -1
	for i, p := range ct.Parameters {
		if p.Type == smartcontract.SignatureType {
			if idx >= 0 {
				return errors.New("txbuild: multiple signature parameters in non-multisig contract")
			}
			idx = i
		}
	}
	if idx < 0 {
		if ct.Deployed {
			return nil
		}
		return errors.New("txbuild: missing signature parameter")
	}
	v, err := json.Marshal(sig)
	if err != nil {
		return err
	}
	it.Parameters[idx].Value = v
	return nil
}

func (it *ContextItem) addMultiSig(m int, pubs keys.PublicKeys, pub *keys.PublicKey, sig []byte) error {
	name := hex.EncodeToString(pub.Bytes())
	if it.Signatures[name] != nil {
		return ErrSigned
	}
	if !pubs.Contains(pub) {
		return ErrNotMember
	}
	it.Signatures[name] = slices.Clone(sig)
	if len(it.Signatures) < len(it.Parameters) {
		return nil
	}
	k := 0
	for i := len(pubs) - 1; i >= 0 && k < len(it.Parameters); i-- {
		s := it.Signatures[hex.EncodeToString(pubs[i].Bytes())]
		if s == nil {
			continue
		}
		v, err := json.Marshal(s)
		if err != nil {
			return err
		}
		it.Parameters[k] = ContextParam{Type: smartcontract.SignatureType, Value: v}
		k++
	}
	if k != len(it.Parameters) || k != m {
		return errors.New("txbuild: broken signature set (wrong keys?)")
	}
	return nil
}

// Witness returns the witness of script hash h from its item.
func (c *Context) Witness(h util.Uint160) (transaction.Witness, error) {
	it, ok := c.Items[h]
	if !ok {
		return transaction.Witness{}, fmt.Errorf("%w: no item for %s", ErrIncomplete, h)
	}
	b := emit.NewBuilder()
	for i := len(it.Parameters) - 1; i >= 0; i-- {
		p := it.Parameters[i]
		if p.Type != smartcontract.SignatureType {
			return transaction.Witness{}, fmt.Errorf("%w: unsupported %s parameter #%d", ErrContext, p.Type, i)
		}
		var sig []byte
		if len(p.Value) == 0 || string(p.Value) == "null" {
			return transaction.Witness{}, fmt.Errorf("%w: no value for parameter #%d (not signed yet?)", ErrIncomplete, i)
		}
		if err := json.Unmarshal(p.Value, &sig); err != nil {
			return transaction.Witness{}, fmt.Errorf("%w: parameter #%d: %w", ErrContext, i, err)
		}
		b.Bytes(sig)
	}
	inv, err := b.Script()
	if err != nil {
		return transaction.Witness{}, err
	}
	if it.Script != nil && hash.Hash160(it.Script) != h {
		return transaction.Witness{}, fmt.Errorf("%w: script of item %s has another hash", ErrContext, h)
	}
	return transaction.Witness{InvocationScript: inv, VerificationScript: it.Script}, nil
}

// CompleteTransaction returns the transaction with a witness per signer
// built from the items.
func (c *Context) CompleteTransaction() (*transaction.Transaction, error) {
	tx := c.Tx
	ws := make([]transaction.Witness, len(tx.Signers))
	for i, s := range tx.Signers {
		w, err := c.Witness(s.Account)
		if err != nil {
			return nil, fmt.Errorf("can't create witness for signer #%d: %w", i, err)
		}
		ws[i] = w
	}
	tx.Witnesses = ws
	tx.InvalidateCache()
	return tx, nil
}
