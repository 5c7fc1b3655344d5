package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// Neo Legacy (Neo 2) facts needed to read its NEP-6 wallets.
const (
	legacyAddressVersion = 0x17
	legacyCheckSig       = 0xAC
	legacyCheckMultiSig  = 0xAE
	legacyRet            = 0x66
	legacyPushBytes33    = 0x21
	legacyPushBytes1     = 0x01
	legacyPushBytes2     = 0x02
	legacyPush1          = 0x51
	legacyPush16         = 0x60
	legacySigScriptLen   = 1 + keys.CompressedLen + 1
)

var errLegacyMultisig = errors.New("invalid multisig contract")

// legacyWallet is a Neo Legacy NEP-6 wallet: hex scripts and Neo 2
// addresses, otherwise the N3 layout.
type legacyWallet struct {
	Version  string            `json:"version"`
	Accounts []legacyAccount   `json:"accounts"`
	Scrypt   keys.ScryptParams `json:"scrypt"`
}

type legacyAccount struct {
	Address  string `json:"address"`
	Key      string `json:"key"`
	Label    string `json:"label"`
	Contract *struct {
		Script     string                 `json:"script"`
		Parameters []wallet.ContractParam `json:"parameters"`
		Deployed   bool                   `json:"deployed"`
	} `json:"contract"`
	Locked  bool `json:"lock"`
	Default bool `json:"isDefault"`
}

// convertWallet writes the N3 form of a Neo Legacy wallet: each key is
// decrypted with the legacy password check and encrypted again for N3
// with the same password; multisig scripts are rebuilt for N3.
func convertWallet(_ context.Context, c *walletCtx) error {
	path, pass, err := c.location()
	if err != nil {
		return err
	}
	if path == "-" {
		return errNoStdin
	}
	lw, err := readLegacyWallet(path)
	if err != nil {
		return err
	}
	out := c.cmd.String("out")
	if err := ensureAbsent(out); err != nil {
		return err
	}
	if err := lw.Scrypt.Validate(); err != nil {
		return fmt.Errorf("legacy wallet %s: %w", path, err)
	}
	nw := wallet.New(out)
	defer nw.Close()
	nw.Scrypt = lw.Scrypt
	conv := newLegacyConverter(lw.Scrypt)
	defer conv.close()
	for i := range lw.Accounts {
		la := &lw.Accounts[i]
		p := ""
		if len(lw.Accounts) == 1 && pass != nil {
			p = *pass
		} else {
			prompt := fmt.Sprintf("Enter password for account %s (label '%s') > ", la.Address, la.Label)
			if p, err = c.in.readPassword(prompt); err != nil {
				return fmt.Errorf("error reading password: %w", err)
			}
		}
		acc, err := conv.convert(la, p)
		if err != nil {
			return fmt.Errorf("account %s: %w", la.Address, err)
		}
		nw.AddAccount(acc)
	}
	return nw.Save()
}

func readLegacyWallet(path string) (*legacyWallet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read wallet: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, wallet.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("failed to read wallet %s: %w", path, err)
	}
	if len(data) > wallet.MaxFileSize {
		return nil, fmt.Errorf("%s: %w", path, wallet.ErrTooLarge)
	}
	lw := new(legacyWallet)
	if err := json.Unmarshal(data, lw); err != nil {
		return nil, fmt.Errorf("legacy wallet %s: %w", path, err)
	}
	return lw, nil
}

// legacyConverter converts accounts; a key shared by several accounts (a
// key and its multisig accounts) with the same password is decrypted and
// encrypted once.
type legacyConverter struct {
	params keys.ScryptParams
	done   map[[2]string]converted
}

// converted is a decrypted legacy key and its N3 NEP-2 form.
type converted struct {
	priv *keys.PrivateKey
	nep2 string
}

func newLegacyConverter(params keys.ScryptParams) *legacyConverter {
	return &legacyConverter{params: params, done: make(map[[2]string]converted)}
}

func (lc *legacyConverter) close() {
	for _, c := range lc.done {
		c.priv.Destroy()
	}
}

// convert returns the N3 account of a legacy one, encrypted with pass.
func (lc *legacyConverter) convert(la *legacyAccount, pass string) (*wallet.Account, error) {
	id := [2]string{la.Key, pass}
	c, ok := lc.done[id]
	if !ok {
		priv, err := keys.NEP2DecryptFor(la.Key, pass, lc.params, legacyAddress)
		if err != nil {
			return nil, err
		}
		nep2, err := keys.NEP2Encrypt(priv, pass, lc.params)
		if err != nil {
			priv.Destroy()
			return nil, err
		}
		c = converted{priv: priv, nep2: nep2}
		lc.done[id] = c
	}
	acc, err := la.account(c.priv.PublicKey())
	if err != nil {
		return nil, err
	}
	nep2 := c.nep2
	acc.Key = &nep2
	return acc, nil
}

// account builds the N3 account of la for its key: the key's signature
// contract, or the N3 form of a legacy multisig contract.
func (la *legacyAccount) account(pub *keys.PublicKey) (*wallet.Account, error) {
	acc := &wallet.Account{Contract: &wallet.Contract{
		Script:     scripts.SignatureContract(pub),
		Parameters: signatureParams(1),
	}}
	if la.Contract != nil {
		script, err := hex.DecodeString(la.Contract.Script)
		if err != nil {
			return nil, fmt.Errorf("contract script: %w", err)
		}
		// A simple signature script is the key's, which acc already has.
		if len(script) != legacySigScriptLen {
			m, pubs, err := parseLegacyMultisig(script)
			if err != nil {
				return nil, err
			}
			n3, err := scripts.MultiSigContract(m, pubs)
			if err != nil {
				return nil, fmt.Errorf("can't create new multisig contract: %w", err)
			}
			acc.Contract = &wallet.Contract{Script: n3, Parameters: la.Contract.Parameters, Deployed: la.Contract.Deployed}
		}
	}
	acc.Address = address.Uint160ToString(hash.Hash160(acc.Contract.Script))
	acc.Default, acc.Label, acc.Locked = la.Default, la.Label, la.Locked
	return acc, nil
}

// legacyAddress is the Neo 2 address of a key's signature contract
// (PUSHBYTES33 key CHECKSIG).
func legacyAddress(pub *keys.PublicKey) string {
	script := make([]byte, 0, legacySigScriptLen)
	script = append(script, legacyPushBytes33)
	script = append(script, pub.Bytes()...)
	script = append(script, legacyCheckSig)
	return address.EncodeWithVersion(hash.Hash160(script), legacyAddressVersion)
}

// legacyCount reads a Neo 2 small-integer push: PUSH1..PUSH16, PUSHBYTES1
// or PUSHBYTES2 (little-endian). It returns the value and its length.
func legacyCount(s []byte) (int, int, bool) {
	switch {
	case len(s) == 0:
		return 0, 0, false
	case s[0] >= legacyPush1 && s[0] <= legacyPush16:
		return int(s[0]-legacyPush1) + 1, 1, true
	case s[0] == legacyPushBytes1 && len(s) >= 2:
		return int(s[1]), 2, true
	case s[0] == legacyPushBytes2 && len(s) >= 3:
		return int(binary.LittleEndian.Uint16(s[1:])), 3, true
	}
	return 0, 0, false
}

// parseLegacyMultisig reads a Neo 2 multisig script: m, n keys pushed with
// PUSHBYTES33, n, CHECKMULTISIG (optionally RET). Keys are in script order.
func parseLegacyMultisig(s []byte) (int, keys.PublicKeys, error) {
	m, off, ok := legacyCount(s)
	if !ok || m < 1 {
		return 0, nil, errLegacyMultisig
	}
	var pubs keys.PublicKeys
	for off < len(s) && s[off] == legacyPushBytes33 {
		if len(s)-off < 1+keys.CompressedLen {
			return 0, nil, errLegacyMultisig
		}
		pub, err := keys.NewPublicKeyFromBytes(s[off+1 : off+1+keys.CompressedLen])
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %w", errLegacyMultisig, err)
		}
		pubs = append(pubs, pub)
		off += 1 + keys.CompressedLen
	}
	n, l, ok := legacyCount(s[off:])
	if !ok || n != len(pubs) || m > n {
		return 0, nil, errLegacyMultisig
	}
	end := s[off+l:]
	if !bytes.Equal(end, []byte{legacyCheckMultiSig}) && !bytes.Equal(end, []byte{legacyCheckMultiSig, legacyRet}) {
		return 0, nil, errLegacyMultisig
	}
	return m, pubs, nil
}
