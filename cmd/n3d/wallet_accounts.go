package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// nep2Len is the length of every NEP-2 string (a WIF is 52 characters).
const nep2Len = 58

// initWallet creates a wallet file, with one account if -a is given. Unlike
// neo-go, an existing file is never overwritten (it may hold keys).
func initWallet(_ context.Context, c *walletCtx) error {
	path, pass, err := c.location()
	if err != nil {
		return err
	}
	if path == "-" {
		return errors.New("can't create a wallet on stdout: give a file path")
	}
	if err := ensureAbsent(path); err != nil {
		return err
	}
	w := wallet.New(path)
	defer w.Close()
	if c.cmd.Bool("account") {
		if err := c.createAccount(w, pass); err != nil {
			return err
		}
	}
	if err := w.Save(); err != nil {
		return err
	}
	if err := printWallet(c.out, w); err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.out, "wallet successfully created, file location is %s\n", w.Path())
	return err
}

// ensureAbsent refuses to overwrite an existing file.
func ensureAbsent(path string) error {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return fmt.Errorf("%s already exists: not overwriting it", path)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	default:
		return fmt.Errorf("check %s: %w", path, err)
	}
}

// addAccount adds a new account with a fresh key.
func addAccount(_ context.Context, c *walletCtx) error {
	w, pass, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	if err := c.createAccount(w, pass); err != nil {
		return err
	}
	return w.Save()
}

// createAccount adds a fresh account: named and protected as the user says,
// or unnamed with the --wallet-config password.
func (c *walletCtx) createAccount(w *wallet.Wallet, cfgPass *string) error {
	var name, pass string
	if cfgPass != nil {
		pass = *cfgPass
	} else {
		var err error
		if name, err = c.in.readLine(promptAccountName); err != nil {
			return fmt.Errorf("failed to read account label: %w", err)
		}
		if pass, err = c.in.readNewPassword(); err != nil {
			return fmt.Errorf("error reading password: %w", err)
		}
	}
	_, err := w.CreateAccount(name, pass)
	return err
}

// importWIF imports a WIF or NEP-2 key, optionally with a custom
// verification script.
func importWIF(_ context.Context, c *walletCtx) error {
	w, pass, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	wif := c.cmd.String("wif")
	if wif == "" {
		return errors.New("--wif is required")
	}
	var script []byte
	if s := c.cmd.String("contract"); s != "" {
		if script, err = hex.DecodeString(s); err != nil || len(script) == 0 {
			return fmt.Errorf("invalid contract: %q is not a hex script", s)
		}
	}
	acc, err := c.accountFromWIF(wif, w.Scrypt, c.label(), pass)
	if err != nil {
		return err
	}
	defer acc.Close()
	if script != nil {
		setCustomContract(acc, script)
	}
	return addAccountAndSave(w, acc)
}

// setCustomContract makes acc the account of a custom verification script.
// The address is the script's hash (neo-go keeps the key's address, which no
// witness with this script can match). A standard multisig script gets its
// m Signature parameters, any other script the one of the key.
func setCustomContract(acc *wallet.Account, script []byte) {
	acc.Contract.Script = script
	if m, _, ok := scripts.MultiSigCounts(script); ok {
		acc.Contract.Parameters = signatureParams(m)
	}
	acc.Address = address.Uint160ToString(hash.Hash160(script))
}

// signatureParams are n Signature parameters named as the reference does.
func signatureParams(n int) []wallet.ContractParam {
	ps := make([]wallet.ContractParam, n)
	for i := range ps {
		ps[i] = wallet.ContractParam{Name: fmt.Sprintf("parameter%d", i), Type: smartcontract.SignatureType}
	}
	return ps
}

// accountFromWIF makes an encrypted single-signature account from a WIF
// (encrypted with a new password) or a NEP-2 string (kept as is once the
// password opens it). The label is asked for when not given.
func (c *walletCtx) accountFromWIF(wif string, params keys.ScryptParams, label, cfgPass *string) (*wallet.Account, error) {
	name := ""
	if label != nil {
		name = *label
	} else {
		var err error
		if name, err = c.in.readLine(promptAccountName); err != nil {
			return nil, fmt.Errorf("failed to read account label: %w", err)
		}
	}
	if len(wif) == nep2Len {
		acc, err := c.accountFromNEP2(wif, params, cfgPass)
		if err != nil {
			return nil, err
		}
		acc.Label = name
		return acc, nil
	}
	acc, err := wallet.NewAccountFromWIF(wif)
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(c.out, "Provided WIF was unencrypted. Wallet can contain only encrypted keys.")
	pass := ""
	if cfgPass != nil {
		pass = *cfgPass
	} else if pass, err = c.in.readNewPassword(); err != nil {
		acc.Close()
		return nil, fmt.Errorf("failed to read new password: %w", err)
	}
	acc.Label = name
	if err := acc.Encrypt(pass, params); err != nil {
		acc.Close()
		return nil, err
	}
	return acc, nil
}

// accountFromNEP2 opens a NEP-2 key. A --wallet-config password that does
// not open it is followed by a prompt, as in neo-go (the key may have its
// own password).
func (c *walletCtx) accountFromNEP2(nep2 string, params keys.ScryptParams, cfgPass *string) (*wallet.Account, error) {
	pass, err := c.password(cfgPass, promptPassword)
	if err != nil {
		return nil, err
	}
	k, err := keys.NEP2Decrypt(nep2, pass, params)
	if err != nil && cfgPass != nil && errors.Is(err, keys.ErrWrongPassphrase) {
		if pass, err = c.password(nil, promptPassword); err != nil {
			return nil, err
		}
		k, err = keys.NEP2Decrypt(nep2, pass, params)
	}
	if err != nil {
		return nil, err
	}
	acc := wallet.NewAccountFromPrivateKey(k)
	acc.Key = &nep2
	return acc, nil
}

// addAccountAndSave appends acc unless its address is already there.
func addAccountAndSave(w *wallet.Wallet, acc *wallet.Account) error {
	for _, a := range w.Accounts {
		if a.Address == acc.Address {
			return fmt.Errorf("address '%s' is already in wallet", acc.Address)
		}
	}
	w.AddAccount(acc)
	return w.Save()
}

// importMultisig adds the m-of-n account of the given keys, converting the
// wallet's account of one of them or, failing that, the --wif key.
func importMultisig(_ context.Context, c *walletCtx) error {
	w, pass, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	m := c.cmd.Int("min")
	if m < 1 {
		return errors.New("--min must be at least 1")
	}
	if c.cmd.NArg() < m {
		return errors.New("insufficient number of public keys")
	}
	args := c.cmd.Args().Slice()
	pubs := make(keys.PublicKeys, len(args))
	for i, s := range args {
		if pubs[i], err = keys.NewPublicKeyFromString(s); err != nil {
			return fmt.Errorf("can't decode public key %d: %w", i, err)
		}
	}
	script, err := scripts.MultiSigContract(m, pubs)
	if err != nil {
		return err
	}
	label := c.label()
	if own := memberAccount(w, pubs); own != nil {
		acc := &wallet.Account{
			Address:  scripts.Address(script),
			Label:    own.Label,
			Contract: &wallet.Contract{Script: script, Parameters: signatureParams(m)},
			Locked:   own.Locked,
		}
		if own.Key != nil {
			k := *own.Key
			acc.Key = &k
		}
		if label != nil {
			acc.Label = *label
		}
		return addAccountAndSave(w, acc)
	}
	if !c.cmd.IsSet("wif") {
		return errors.New("none of the provided public keys correspond to an existing key in the wallet or multiple matching accounts found in the wallet, and no WIF is provided")
	}
	single, err := c.accountFromWIF(c.cmd.String("wif"), w.Scrypt, label, pass)
	if err != nil {
		return err
	}
	defer single.Close()
	acc, err := single.MultisigAccount(m, pubs)
	if err != nil {
		return err
	}
	acc.Label = single.Label
	return addAccountAndSave(w, acc)
}

// memberAccount returns the only account of the wallet that is the
// single-signature account of one of pubs; nil if none or several are.
func memberAccount(w *wallet.Wallet, pubs keys.PublicKeys) *wallet.Account {
	var found *wallet.Account
	for _, p := range pubs {
		a := w.GetAccount(p.ScriptHash())
		if a == nil {
			continue
		}
		if found != nil && found != a {
			return nil
		}
		found = a
	}
	return found
}

// removeAccount removes one account, after confirmation unless --force.
func removeAccount(_ context.Context, c *walletCtx) error {
	w, _, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	h, _, err := c.addressArg()
	if err != nil {
		return err
	}
	acc := w.GetAccount(h)
	if acc == nil {
		return errors.New("account wasn't found")
	}
	if !c.cmd.Bool("force") {
		fmt.Fprintf(c.out, "Account %s will be removed. This action is irreversible.\n", acc.Address)
		if !c.in.consent() {
			fmt.Fprintln(c.out, "Cancelled.")
			return nil
		}
	}
	if err := w.RemoveAccount(acc.Address); err != nil {
		return fmt.Errorf("error on remove: %w", err)
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error while saving wallet: %w", err)
	}
	return nil
}

// stripKeys removes every encrypted key (a watch-only wallet for offline
// signing setups), after confirmation unless --force. Keys become null, as
// the reference writes keyless accounts.
func stripKeys(_ context.Context, c *walletCtx) error {
	w, _, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	if !c.cmd.Bool("force") {
		fmt.Fprintln(c.out, "All private keys for all accounts will be removed from the wallet. This action is irreversible.")
		if !c.in.consent() {
			fmt.Fprintln(c.out, "Cancelled.")
			return nil
		}
	}
	for _, a := range w.Accounts {
		a.Close()
		a.Key = nil
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error while saving wallet: %w", err)
	}
	return nil
}
