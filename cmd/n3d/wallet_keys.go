package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/urfave/cli/v3"
)

// dumpWallet prints the wallet; with -d it first checks that the password
// opens every encrypted key (keys are never printed).
func dumpWallet(_ context.Context, c *walletCtx) error {
	w, pass, err := c.readWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	if c.cmd.Bool("decrypt") {
		p, err := c.password(pass, promptPassword)
		if err != nil {
			return err
		}
		// Keyless (watch-only) accounts have nothing to decrypt.
		if err := w.DecryptAll(p); err != nil {
			return err
		}
	}
	return printWallet(c.out, w)
}

// dumpKeys prints the public keys of single- and multi-signature accounts
// in neo-go's format; other accounts are skipped unless asked for by -a.
func dumpKeys(_ context.Context, c *walletCtx) error {
	w, _, err := c.readWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	accounts := w.Accounts
	h, filtered, err := c.addressArg()
	if err != nil {
		return err
	}
	if filtered {
		acc := w.GetAccount(h)
		if acc == nil {
			return errors.New("account is missing")
		}
		accounts = []*wallet.Account{acc}
	}
	printed := false
	for _, acc := range accounts {
		var script []byte
		if acc.Contract != nil {
			script = acc.Contract.Script
		}
		var head string
		var pubs []string
		if pub, ok := scripts.ParseSignatureContract(script); ok {
			head = acc.Address + " (simple signature contract):"
			pubs = []string{fmt.Sprintf("%x", pub)}
		} else if m, ks, ok := scripts.ParseMultiSigContract(script); ok {
			head = fmt.Sprintf("%s (%d out of %d multisig contract):", acc.Address, m, len(ks))
			pubs = ks.Strings()
		} else {
			if filtered {
				return fmt.Errorf("unknown script type for address %s", address.Uint160ToString(h))
			}
			continue
		}
		if printed {
			fmt.Fprintln(c.out)
		}
		fmt.Fprintln(c.out, head)
		for _, p := range pubs {
			fmt.Fprintln(c.out, p)
		}
		printed = true
	}
	return nil
}

// exportCommand is `wallet export`: neo-go's current --format and its older
// -d/--decrypt (WIF) both work.
func exportCommand(act actionMaker) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "Export keys for address",
		UsageText: "n3d wallet export -w wallet [--wallet-config path] [--format nep2|wif|pem | -d] [<address>]",
		Description: "Prints the key of the given account (of every account without one), NEP-2\n" +
			"encrypted by default. --format wif or -d prints the WIF, --format pem a PKCS#8\n" +
			"PEM block: the key is then shown in clear text.",
		Flags: walletFlags(true,
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "nep2",
				Usage: "Format of the output key: 'nep2' (default), 'wif' or 'pem'."},
			&cli.BoolFlag{Name: "decrypt", Aliases: []string{"d"}, Usage: "Print the WIF (same as --format wif)"}),
		Action: act(exportKeys, true),
	}
}

// exportFormat returns the format the flags ask for.
func exportFormat(cmd *cli.Command) (string, error) {
	f := cmd.String("format")
	switch f {
	case "nep2", "wif", "pem":
	default:
		return "", fmt.Errorf("unknown private key export format: %s", f)
	}
	if cmd.Bool("decrypt") {
		if cmd.IsSet("format") && f != "wif" {
			return "", fmt.Errorf("--decrypt conflicts with --format %s", f)
		}
		f = "wif"
	}
	return f, nil
}

// exportKeys prints distinct keys of the wallet or of one address.
func exportKeys(_ context.Context, c *walletCtx) error {
	format, err := exportFormat(c.cmd)
	if err != nil {
		return err
	}
	if c.cmd.NArg() > 1 {
		return fmt.Errorf("unexpected arguments %q: give one address", c.cmd.Args().Tail())
	}
	addr := c.cmd.Args().First()
	if addr == "" && format != "nep2" {
		return errors.New("address must be provided if '--decrypt' or '--format wif|pem' flags are used")
	}
	if addr != "" {
		if _, err := address.StringToUint160(addr); err != nil {
			return fmt.Errorf("can't parse address: %w", err)
		}
	}
	w, pass, err := c.readWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	nep2s, err := walletKeys(w, addr)
	if err != nil {
		return err
	}
	if format == "nep2" {
		for _, k := range nep2s {
			fmt.Fprintln(c.out, k)
		}
		return nil
	}
	p, err := c.password(pass, promptPassword)
	if err != nil {
		return err
	}
	for _, k := range nep2s {
		if err := printKey(c, k, p, w.Scrypt, format); err != nil {
			return err
		}
	}
	return nil
}

// walletKeys returns the distinct NEP-2 keys of the accounts (of addr only
// when given), in file order.
func walletKeys(w *wallet.Wallet, addr string) ([]string, error) {
	var out []string
	seen := make(map[string]bool)
	found := false
	for _, a := range w.Accounts {
		if addr != "" && a.Address != addr {
			continue
		}
		found = true
		if !a.HasKey() || seen[*a.Key] {
			continue
		}
		seen[*a.Key] = true
		out = append(out, *a.Key)
	}
	switch {
	case addr != "" && !found:
		return nil, fmt.Errorf("account %s is not in the wallet", addr)
	case addr != "" && len(out) == 0:
		return nil, fmt.Errorf("account %s has no key", addr)
	}
	return out, nil
}

// printKey decrypts one NEP-2 key and prints it as WIF or PEM.
func printKey(c *walletCtx, nep2, pass string, params keys.ScryptParams, format string) error {
	k, err := keys.NEP2Decrypt(nep2, pass, params)
	if err != nil {
		return err
	}
	defer k.Destroy()
	if format == "wif" {
		_, err := fmt.Fprintln(c.out, k.WIF())
		return err
	}
	d := k.Bytes()
	defer clear(d)
	ek, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	if err != nil {
		return fmt.Errorf("failed to convert private key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(ek)
	if err != nil {
		return fmt.Errorf("failed to marshal private key to DER form: %w", err)
	}
	defer clear(der)
	if err := pem.Encode(c.out, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		return fmt.Errorf("failed to encode PEM: %w", err)
	}
	return nil
}

// changePassword re-encrypts the keys of every account (or of -a) with a
// new password. Accounts without a key are left alone; accounts sharing a
// key cost one decryption.
func changePassword(_ context.Context, c *walletCtx) error {
	w, _, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	if len(w.Accounts) == 0 {
		return errors.New("wallet has no accounts")
	}
	accounts := w.Accounts
	h, filtered, err := c.addressArg()
	if err != nil {
		return err
	}
	if filtered {
		acc := w.GetAccount(h)
		if acc == nil {
			return errors.New("account is missing")
		}
		if !acc.HasKey() {
			return fmt.Errorf("account %s has no key", acc.Address)
		}
		accounts = []*wallet.Account{acc}
	}
	oldPass, err := c.in.readPassword(promptOldPassword)
	if err != nil {
		return fmt.Errorf("error reading old password: %w", err)
	}
	opened := make(map[string]*keys.PrivateKey)
	defer func() {
		for _, k := range opened {
			k.Destroy()
		}
	}()
	for _, a := range accounts {
		if !a.HasKey() || opened[*a.Key] != nil {
			continue
		}
		k, err := keys.NEP2Decrypt(*a.Key, oldPass, w.Scrypt)
		if err != nil {
			return fmt.Errorf("unable to decrypt account %s: %w", a.Address, err)
		}
		opened[*a.Key] = k
	}
	if len(opened) == 0 {
		return errors.New("wallet has no accounts with keys")
	}
	newPass, err := c.in.readNewPassword()
	if err != nil {
		return fmt.Errorf("error reading new password: %w", err)
	}
	reencrypted := make(map[string]string, len(opened))
	for old, k := range opened {
		s, err := keys.NEP2Encrypt(k, newPass, w.Scrypt)
		if err != nil {
			return err
		}
		reencrypted[old] = s
	}
	for _, a := range accounts {
		if a.HasKey() {
			s := reencrypted[*a.Key]
			a.Key = &s
		}
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error saving the wallet: %w", err)
	}
	return nil
}
