package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/urfave/cli/v3"
	"gopkg.in/yaml.v3"
)

// The offline `wallet` verbs work on NEP-6 files with neo-go's names, flags,
// prompts and output. Every command builds the whole result in memory and
// saves once (wallet.Save is atomic), so a failed command leaves the file as
// it was.

var (
	errNoWalletPath = errors.New("wallet path is mandatory and should be passed using (--wallet, -w) flags or via wallet config using --wallet-config flag")
	errWalletFlags  = errors.New("--wallet flag conflicts with --wallet-config flag, please, provide one of them to specify wallet location")
	errNoStdin      = errors.New("can't read wallet from stdin for this command")
)

// maxWalletConfig bounds a --wallet-config file.
const maxWalletConfig = 1 << 20

// walletCtx is what one wallet command works with.
type walletCtx struct {
	cmd *cli.Command
	out io.Writer
	in  *prompter
}

type walletAction func(context.Context, *walletCtx) error

// actionMaker turns a walletAction into a command action; allowArgs lets
// positional arguments through.
type actionMaker func(f walletAction, allowArgs bool) cli.ActionFunc

func walletCommand(e *env) *cli.Command {
	act := func(f walletAction, allowArgs bool) cli.ActionFunc {
		return func(ctx context.Context, cmd *cli.Command) error {
			if !allowArgs {
				if err := ensureNoArgs(cmd); err != nil {
					return err
				}
			}
			return f(ctx, &walletCtx{cmd: cmd, out: e.stdout, in: newPrompter(e.stdin, e.stderr)})
		}
	}
	cmds := append(walletFileCommands(act), walletAccountCommands(act)...)
	return &cli.Command{
		Name:     "wallet",
		Usage:    "Create, open and manage a Neo wallet",
		Commands: append(cmds, walletRPCCommands(act)...),
		Before:   keepRawArgs,
	}
}

// walletFileCommands create, convert and print wallets.
func walletFileCommands(act actionMaker) []*cli.Command {
	return []*cli.Command{
		{
			Name:      "init",
			Usage:     "Create a new wallet",
			UsageText: "n3d wallet init -w wallet [--wallet-config path] [-a]",
			Flags: walletFlags(true, &cli.BoolFlag{
				Name: "account", Aliases: []string{"a"}, Usage: "Create a new account",
			}),
			Action: act(initWallet, false),
		},
		{
			Name:      "convert",
			Usage:     "Convert addresses from existing Neo Legacy NEP6-wallet to Neo N3 format",
			UsageText: "n3d wallet convert -w legacywallet [--wallet-config path] -o n3wallet",
			Flags: walletFlags(true, &cli.StringFlag{
				Name: "out", Aliases: []string{"o"}, Required: true, Usage: "Where to write converted wallet",
			}),
			Action: act(convertWallet, false),
		},
		{
			Name:      "create",
			Aliases:   []string{"add"},
			Usage:     "Add an account to the existing wallet",
			UsageText: "n3d wallet create -w wallet [--wallet-config path]",
			Flags:     walletFlags(true),
			Action:    act(addAccount, false),
		},
		{
			Name:      "dump",
			Aliases:   []string{"list"},
			Usage:     "Check and dump an existing Neo wallet",
			UsageText: "n3d wallet dump -w wallet [--wallet-config path] [-d]",
			Description: "Prints the wallet (-w, '-' for stdin, or --wallet-config) as JSON. With -d every\n" +
				"encrypted key is decrypted to check the password; keys are never printed in clear.",
			Flags: walletFlags(true, &cli.BoolFlag{
				Name: "decrypt", Aliases: []string{"d"}, Usage: "Decrypt encrypted keys.",
			}),
			Action: act(dumpWallet, false),
		},
		{
			Name:      "dump-keys",
			Usage:     "Dump public keys for account",
			UsageText: "n3d wallet dump-keys -w wallet [--wallet-config path] [-a address]",
			Flags:     walletFlags(true, addressFlag("Address to print public keys for", false)),
			Action:    act(dumpKeys, false),
		},
		exportCommand(act),
	}
}

// walletAccountCommands add, change and remove accounts.
func walletAccountCommands(act actionMaker) []*cli.Command {
	return []*cli.Command{
		{
			Name:      "change-password",
			Usage:     "Change password for accounts",
			UsageText: "n3d wallet change-password -w wallet [-a address]",
			Flags:     walletFlags(false, addressFlag("Address to change password for", false)),
			Action:    act(changePassword, false),
		},
		{
			Name:      "import",
			Usage:     "Import WIF of a standard signature contract",
			UsageText: "n3d wallet import -w wallet [--wallet-config path] --wif <wif> [--name <account_name>] [--contract <hex>]",
			Flags: walletFlags(true, wifFlag(), nameFlag(),
				&cli.StringFlag{Name: "contract", Usage: "Verification script for custom contracts (hex)"}),
			Action: act(importWIF, false),
		},
		{
			Name:  "import-multisig",
			Usage: "Import multisig contract",
			UsageText: "n3d wallet import-multisig -w wallet [--wallet-config path] [--wif <wif>] [--name <account_name>] --min <m>" +
				" [<pubkey1> [<pubkey2> [...]]]",
			Description: "Imports the standard m-of-n multisignature contract of the given keys (m is --min).\n" +
				"An account of the wallet whose key is among them is converted (its encrypted key is\n" +
				"kept); otherwise, or when several match, --wif gives the key.",
			Flags: walletFlags(true, wifFlag(), nameFlag(),
				&cli.IntFlag{Name: "min", Aliases: []string{"m"}, Usage: "Minimal number of signatures"}),
			Action: act(importMultisig, true),
		},
		{
			Name:      "remove",
			Usage:     "Remove an account from the wallet",
			UsageText: "n3d wallet remove -w wallet [--wallet-config path] [--force] --address <addr>",
			Flags: walletFlags(true, forceFlag(),
				addressFlag("Account address or hash in LE form to be removed", true)),
			Action: act(removeAccount, false),
		},
		{
			Name:      "strip-keys",
			Usage:     "Remove private keys for all accounts",
			UsageText: "n3d wallet strip-keys -w wallet [--wallet-config path] [--force]",
			Flags:     walletFlags(true, forceFlag()),
			Action:    act(stripKeys, false),
		},
	}
}

// walletFlags returns fresh -w (and --wallet-config) flags plus extra ones;
// urfave/cli keeps state in flag values, so every command gets its own.
func walletFlags(withConfig bool, extra ...cli.Flag) []cli.Flag {
	fs := []cli.Flag{&cli.StringFlag{
		Name:    "wallet",
		Aliases: []string{"w"},
		Usage:   "Path to the wallet file ('-' to read from stdin); conflicts with --wallet-config flag.",
	}}
	if withConfig {
		fs = append(fs, &cli.StringFlag{
			Name:  "wallet-config",
			Usage: "Path to the wallet config file (YAML with Path and Password); conflicts with --wallet flag.",
		})
	}
	return append(fs, extra...)
}

func addressFlag(usage string, required bool) cli.Flag {
	return &cli.StringFlag{Name: "address", Aliases: []string{"a"}, Usage: usage, Required: required}
}

func wifFlag() cli.Flag { return &cli.StringFlag{Name: "wif", Usage: "WIF to import"} }

func nameFlag() cli.Flag {
	return &cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "Optional account name"}
}

func forceFlag() cli.Flag {
	return &cli.BoolFlag{Name: "force", Usage: "Do not ask for a confirmation"}
}

// parseAddress reads an address or a script hash as neo-go's address flags
// do: hex in the reference's "0x…" display order (neo-go calls it LE), with
// or without the prefix.
func parseAddress(s string) (util.Uint160, error) {
	const hexLen = 2 * util.Uint160Size
	if len(s) == hexLen || len(s) == hexLen+2 {
		h, err := util.Uint160DecodeStringBE(strings.TrimPrefix(s, "0x"))
		if err != nil {
			return util.Uint160{}, fmt.Errorf("invalid address %q: %w", s, err)
		}
		return h, nil
	}
	h, err := address.StringToUint160(s)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("invalid address %q: %w", s, err)
	}
	return h, nil
}

// addressArg returns the --address flag parsed, or ok=false when unset.
func (c *walletCtx) addressArg() (h util.Uint160, ok bool, err error) {
	s := c.cmd.String("address")
	if s == "" {
		return util.Uint160{}, false, nil
	}
	h, err = parseAddress(s)
	return h, err == nil, err
}

// label returns the --name flag, or nil when it was not given.
func (c *walletCtx) label() *string {
	if !c.cmd.IsSet("name") {
		return nil
	}
	l := c.cmd.String("name")
	return &l
}

// location returns the wallet path and, with --wallet-config, its password.
func (c *walletCtx) location() (string, *string, error) {
	path := c.cmd.String("wallet")
	var cfgPath string
	if hasFlag(c.cmd, "wallet-config") {
		cfgPath = c.cmd.String("wallet-config")
	}
	switch {
	case path != "" && cfgPath != "":
		return "", nil, errWalletFlags
	case path == "" && cfgPath == "":
		return "", nil, errNoWalletPath
	case cfgPath == "":
		return path, nil, nil
	}
	cfg, err := readWalletConfig(cfgPath)
	if err != nil {
		return "", nil, err
	}
	if cfg.Path == "" {
		return "", nil, fmt.Errorf("wallet config %s: no Path", cfgPath)
	}
	return cfg.Path, &cfg.Password, nil
}

func hasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// readWalletConfig reads neo-go's wallet config: a YAML document with Path
// and Password (config.Wallet, the UnlockWallet section of node configs).
func readWalletConfig(path string) (*config.Wallet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("wallet config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxWalletConfig+1))
	if err != nil {
		return nil, fmt.Errorf("wallet config %s: %w", path, err)
	}
	if len(data) > maxWalletConfig {
		return nil, fmt.Errorf("wallet config %s: larger than %d bytes", path, maxWalletConfig)
	}
	cfg := new(config.Wallet)
	if err := yaml.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("wallet config %s: %w", path, err)
	}
	return cfg, nil
}

// openWallet opens the wallet file a modifying command works on (not
// stdin) and returns the --wallet-config password if any.
func (c *walletCtx) openWallet() (*wallet.Wallet, *string, error) {
	path, pass, err := c.location()
	if err != nil {
		return nil, nil, err
	}
	if path == "-" {
		return nil, nil, errNoStdin
	}
	w, err := wallet.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read wallet: %w", err)
	}
	return w, pass, nil
}

// readWallet opens the wallet of a read-only command; "-" reads it from
// stdin (the rest of stdin still answers prompts).
func (c *walletCtx) readWallet() (*wallet.Wallet, *string, error) {
	path, pass, err := c.location()
	if err != nil {
		return nil, nil, err
	}
	if path != "-" {
		w, err := wallet.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to read wallet: %w", err)
		}
		return w, pass, nil
	}
	rest := c.in.in
	dec := json.NewDecoder(io.LimitReader(rest, wallet.MaxFileSize+1))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, nil, fmt.Errorf("failed to read wallet from stdin: %w", err)
	}
	c.in.setInput(io.MultiReader(dec.Buffered(), rest))
	c.in.skipLineEnd()
	w, err := wallet.FromBytes(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read wallet from stdin: %w", err)
	}
	return w, nil, nil
}

// password returns the --wallet-config password or asks for one.
func (c *walletCtx) password(cfgPass *string, prompt string) (string, error) {
	if cfgPass != nil {
		return *cfgPass, nil
	}
	pass, err := c.in.readPassword(prompt)
	if err != nil {
		return "", fmt.Errorf("error reading password: %w", err)
	}
	return pass, nil
}

// printWallet prints a wallet as neo-go does: an empty line, the JSON and
// another empty line.
func printWallet(out io.Writer, w *wallet.Wallet) error {
	b, err := w.JSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "\n%s\n\n", b)
	return err
}
