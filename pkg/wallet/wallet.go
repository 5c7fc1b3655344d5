package wallet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// Version is the NEP-6 version this package writes.
const Version = "1.0"

// MaxFileSize bounds the wallet files Open and FromBytes accept.
const MaxFileSize = 16 << 20

// Sentinel errors.
var (
	// ErrNoPath means Save was called on a wallet without a file path.
	ErrNoPath = errors.New("wallet: no file path")
	// ErrNotFound means no account or token matches.
	ErrNotFound = errors.New("wallet: account not found")
	// ErrTooLarge means a wallet file exceeds MaxFileSize.
	ErrTooLarge = errors.New("wallet: file too large")
)

// Wallet is a NEP-6 wallet. The exported fields are its JSON form.
type Wallet struct {
	// Name is the wallet's name; omitted from the file when empty (neo-go
	// never writes it).
	Name string
	// Version is the NEP-6 version, "1.0".
	Version string
	// Accounts are the wallet's accounts, in file order.
	Accounts []*Account
	// Scrypt are the NEP-2 parameters of every key in the wallet.
	Scrypt keys.ScryptParams
	// Extra is arbitrary data kept verbatim (neo-go keeps its token list
	// here); null when absent.
	Extra json.RawMessage

	path string
}

// walletJSON fixes the field order of the file.
type walletJSON struct {
	Name     string            `json:"name,omitempty"`
	Version  string            `json:"version"`
	Accounts []*Account        `json:"accounts"`
	Scrypt   keys.ScryptParams `json:"scrypt"`
	Extra    json.RawMessage   `json:"extra"`
}

// New returns an empty wallet that Save writes to path (nothing is written
// until then). An empty path makes an in-memory wallet.
func New(path string) *Wallet {
	return &Wallet{
		Version:  Version,
		Accounts: []*Account{},
		Scrypt:   keys.NEP2ScryptParams(),
		path:     path,
	}
}

// Open reads a wallet file; Save writes back to the same path.
func Open(path string) (*Wallet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("wallet: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("wallet: read %s: %w", path, err)
	}
	w, err := FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w.path = path
	return w, nil
}

// FromBytes parses a wallet and checks it (see Validate).
func FromBytes(data []byte) (*Wallet, error) {
	if len(data) > MaxFileSize {
		return nil, ErrTooLarge
	}
	w := new(Wallet)
	if err := json.Unmarshal(data, w); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// MarshalJSON writes the wallet in the field order of neo-go's files.
func (w *Wallet) MarshalJSON() ([]byte, error) {
	j := walletJSON{Name: w.Name, Version: w.Version, Accounts: w.Accounts, Scrypt: w.Scrypt, Extra: w.Extra}
	if j.Accounts == nil {
		j.Accounts = []*Account{}
	}
	if len(j.Extra) == 0 {
		j.Extra = json.RawMessage("null")
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a wallet object.
func (w *Wallet) UnmarshalJSON(data []byte) error {
	var j walletJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if bytes.Equal(j.Extra, []byte("null")) {
		j.Extra = nil
	}
	w.Name, w.Version, w.Accounts, w.Scrypt, w.Extra = j.Name, j.Version, j.Accounts, j.Scrypt, j.Extra
	return nil
}

// Validate checks what the reference needs to use a wallet: a version, sane
// scrypt parameters and accounts with valid addresses.
func (w *Wallet) Validate() error {
	if w.Version == "" {
		return fmt.Errorf("%w: no version", ErrInvalid)
	}
	if err := w.Scrypt.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	for i, a := range w.Accounts {
		if a == nil {
			return fmt.Errorf("%w: account %d is null", ErrInvalid, i)
		}
		if _, err := a.ScriptHash(); err != nil {
			return fmt.Errorf("account %d: %w", i, err)
		}
	}
	return nil
}

// JSON returns the wallet as written to disk (two-space indentation).
func (w *Wallet) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("wallet: %w", err)
	}
	return b, nil
}

// Path returns the file the wallet is saved to.
func (w *Wallet) Path() string { return w.path }

// SetPath changes the file the wallet is saved to.
func (w *Wallet) SetPath(path string) { w.path = path }

// Save writes the wallet to its path atomically (a temporary file renamed
// over the old one), readable by the owner only.
func (w *Wallet) Save() error {
	if w.path == "" {
		return ErrNoPath
	}
	data, err := w.JSON()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(w.path), ".wallet-*")
	if err != nil {
		return fmt.Errorf("wallet: save: %w", err)
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp.Name()) // best effort; the write error is what matters
		return fmt.Errorf("wallet: save: %w", err)
	}
	if err := os.Rename(tmp.Name(), w.path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("wallet: save: %w", err)
	}
	return nil
}

// AddAccount appends an account.
func (w *Wallet) AddAccount(a *Account) { w.Accounts = append(w.Accounts, a) }

// CreateAccount adds a new single-signature account with a fresh key
// encrypted with passphrase, and returns it (with the key decrypted).
func (w *Wallet) CreateAccount(label, passphrase string) (*Account, error) {
	a, err := NewAccount()
	if err != nil {
		return nil, err
	}
	a.Label = label
	if err := a.Encrypt(passphrase, w.Scrypt); err != nil {
		return nil, err
	}
	w.AddAccount(a)
	return a, nil
}

// RemoveAccount removes the account with the given address.
func (w *Wallet) RemoveAccount(addr string) error {
	for i, a := range w.Accounts {
		if a.Address == addr {
			a.Close()
			w.Accounts = append(w.Accounts[:i], w.Accounts[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("%w: %s", ErrNotFound, addr)
}

// GetAccount returns the account of a script hash, or nil.
func (w *Wallet) GetAccount(h util.Uint160) *Account {
	addr := address.Uint160ToString(h)
	for _, a := range w.Accounts {
		if a.Address == addr {
			return a
		}
	}
	return nil
}

// DefaultAccount returns the account marked default, else the first
// single-signature account, else nil.
func (w *Wallet) DefaultAccount() *Account {
	var first *Account
	for _, a := range w.Accounts {
		if a.Default {
			return a
		}
		if first == nil && a.Contract != nil && scripts.IsSignatureContract(a.Contract.Script) {
			first = a
		}
	}
	return first
}

// DecryptAll decrypts every account that carries a key. Accounts sharing a
// NEP-2 string (a key and its multisig accounts) cost one scrypt run.
func (w *Wallet) DecryptAll(passphrase string) error {
	done := make(map[string]*Account)
	for _, a := range w.Accounts {
		if !a.HasKey() {
			continue
		}
		if prev, ok := done[*a.Key]; ok {
			d := prev.priv.Bytes()
			k, err := keys.NewPrivateKeyFromBytes(d)
			clear(d)
			if err != nil {
				return fmt.Errorf("wallet: %w", err)
			}
			a.Close()
			a.priv = k
			continue
		}
		if err := a.Decrypt(passphrase, w.Scrypt); err != nil {
			return err
		}
		done[*a.Key] = a
	}
	return nil
}

// Close wipes every decrypted key.
func (w *Wallet) Close() {
	for _, a := range w.Accounts {
		a.Close()
	}
}
