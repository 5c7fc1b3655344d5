package wallet

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// Sentinel errors.
var (
	// ErrNoKey means an account has no encrypted key (a watch-only or
	// contract account) or its key is not decrypted.
	ErrNoKey = errors.New("wallet: account has no usable key")
	// ErrLocked means the account is locked.
	ErrLocked = errors.New("wallet: account is locked")
	// ErrNotMember means the account's key is not among the multisig keys.
	ErrNotMember = errors.New("wallet: own key is not among the multisig keys")
	// ErrInvalid means a malformed wallet or account.
	ErrInvalid = errors.New("wallet: invalid wallet")
)

// Account is one NEP-6 account. The exported fields are its JSON form.
type Account struct {
	// Address is the N3 address of the account's script hash.
	Address string `json:"address"`
	// Key is the NEP-2 encrypted private key; nil for accounts without one
	// (written as null; an empty string read from a file is kept as is).
	Key *string `json:"key"`
	// Label is a free-form name.
	Label string `json:"label"`
	// Contract is the verification contract; nil for watch-only accounts.
	Contract *Contract `json:"contract"`
	// Locked marks an account that must not sign.
	Locked bool `json:"lock"`
	// Default marks the default account.
	Default bool `json:"isDefault"`
	// Extra is arbitrary data kept verbatim (omitted when absent).
	Extra json.RawMessage `json:"extra,omitempty"`

	priv *keys.PrivateKey
}

// Contract is an account's verification contract.
type Contract struct {
	// Script is the verification script (base64 in JSON).
	Script []byte
	// Parameters name and type the invocation's arguments.
	Parameters []ContractParam
	// Deployed tells whether the contract is a deployed one (its script is
	// then empty and the account's hash is the contract's).
	Deployed bool
}

// ContractParam is one parameter of a verification contract.
type ContractParam struct {
	Name string                  `json:"name"`
	Type smartcontract.ParamType `json:"type"`
}

type contractJSON struct {
	Script     []byte          `json:"script"`
	Parameters []ContractParam `json:"parameters"`
	Deployed   bool            `json:"deployed"`
}

// MarshalJSON writes script, parameters, deployed; a missing script or
// parameter list is written as "" and [], never null (the reference cannot
// read null there).
func (c Contract) MarshalJSON() ([]byte, error) {
	j := contractJSON{Script: c.Script, Parameters: c.Parameters, Deployed: c.Deployed}
	if j.Script == nil {
		j.Script = []byte{}
	}
	if j.Parameters == nil {
		j.Parameters = []ContractParam{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a contract object.
func (c *Contract) UnmarshalJSON(data []byte) error {
	var j contractJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*c = Contract(j)
	return nil
}

// ScriptHash returns the hash of the verification script.
func (c *Contract) ScriptHash() util.Uint160 { return hash.Hash160(c.Script) }

// signatureParams returns n parameters "parameter0".. of type Signature, as
// the reference and neo-go name them.
func signatureParams(n int) []ContractParam {
	ps := make([]ContractParam, n)
	for i := range ps {
		ps[i] = ContractParam{Name: fmt.Sprintf("parameter%d", i), Type: smartcontract.SignatureType}
	}
	return ps
}

// NewAccount makes an account with a fresh secp256r1 key (not encrypted yet:
// call Encrypt before saving).
func NewAccount() (*Account, error) {
	k, err := keys.NewPrivateKey()
	if err != nil {
		return nil, fmt.Errorf("wallet: %w", err)
	}
	return NewAccountFromPrivateKey(k), nil
}

// NewAccountFromPrivateKey makes the standard single-signature account of a
// key. The key is held decrypted; call Encrypt before saving.
func NewAccountFromPrivateKey(k *keys.PrivateKey) *Account {
	pub := k.PublicKey()
	return &Account{
		Address: pub.Address(),
		Contract: &Contract{
			Script:     pub.VerificationScript(),
			Parameters: signatureParams(1),
		},
		priv: k,
	}
}

// NewAccountFromWIF imports a WIF key as a single-signature account.
func NewAccountFromWIF(wif string) (*Account, error) {
	k, err := keys.NewPrivateKeyFromWIF(wif)
	if err != nil {
		return nil, fmt.Errorf("wallet: %w", err)
	}
	return NewAccountFromPrivateKey(k), nil
}

// ScriptHash returns the account's script hash, decoded from its address.
func (a *Account) ScriptHash() (util.Uint160, error) {
	h, err := address.StringToUint160(a.Address)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return h, nil
}

// HasKey tells whether the account carries an encrypted key.
func (a *Account) HasKey() bool { return a.Key != nil && *a.Key != "" }

// Decrypt decrypts the account's NEP-2 key and keeps it in memory.
func (a *Account) Decrypt(passphrase string, params keys.ScryptParams) error {
	if !a.HasKey() {
		return ErrNoKey
	}
	k, err := keys.NEP2Decrypt(*a.Key, passphrase, params)
	if err != nil {
		return fmt.Errorf("wallet: account %s: %w", a.Address, err)
	}
	if a.priv != nil {
		a.priv.Destroy()
	}
	a.priv = k
	return nil
}

// Encrypt stores the decrypted key NEP-2 encrypted with passphrase.
func (a *Account) Encrypt(passphrase string, params keys.ScryptParams) error {
	if a.priv == nil {
		return ErrNoKey
	}
	s, err := keys.NEP2Encrypt(a.priv, passphrase, params)
	if err != nil {
		return fmt.Errorf("wallet: account %s: %w", a.Address, err)
	}
	a.Key = &s
	return nil
}

// PrivateKey returns the decrypted key, or nil.
func (a *Account) PrivateKey() *keys.PrivateKey { return a.priv }

// PublicKey returns the decrypted key's public key, or nil.
func (a *Account) PublicKey() *keys.PublicKey {
	if a.priv == nil {
		return nil
	}
	return a.priv.PublicKey()
}

// CanSign tells whether the account is unlocked and its key decrypted.
func (a *Account) CanSign() bool { return !a.Locked && a.priv != nil }

// Close wipes the decrypted key from memory.
func (a *Account) Close() {
	if a.priv != nil {
		a.priv.Destroy()
		a.priv = nil
	}
}

// MultisigAccount returns a new account for the m-of-n multi-signature
// contract of pubs, signed with this account's key: same encrypted key,
// the multisig script and m Signature parameters. The account's key must be
// decrypted and be one of pubs.
func (a *Account) MultisigAccount(m int, pubs keys.PublicKeys) (*Account, error) {
	if a.Locked {
		return nil, ErrLocked
	}
	if a.priv == nil {
		return nil, ErrNoKey
	}
	if !pubs.Contains(a.priv.PublicKey()) {
		return nil, ErrNotMember
	}
	script, err := scripts.MultiSigContract(m, pubs)
	if err != nil {
		return nil, fmt.Errorf("wallet: %w", err)
	}
	// Each account owns its copy of the key, so closing one leaves the
	// other usable.
	d := a.priv.Bytes()
	defer clear(d)
	priv, err := keys.NewPrivateKeyFromBytes(d)
	if err != nil {
		return nil, fmt.Errorf("wallet: %w", err)
	}
	acc := &Account{
		Address:  scripts.Address(script),
		Contract: &Contract{Script: script, Parameters: signatureParams(m)},
		priv:     priv,
	}
	if a.Key != nil {
		k := *a.Key
		acc.Key = &k
	}
	return acc, nil
}
