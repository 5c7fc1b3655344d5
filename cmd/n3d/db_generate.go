package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/urfave/cli/v3"
	"go.uber.org/zap"
)

// GenerateOptions are the `db generate` flags.
type GenerateOptions struct {
	// Out is the output file; empty means stdout.
	Out string
	// Blocks, TxPerBlock, Accounts and Seed shape the chain (see
	// chain.GenerateOptions).
	Blocks     uint32
	TxPerBlock int
	Accounts   int
	Seed       string
	// Wallets hold the validators' keys; Passwords are theirs, in the same
	// order (a single password serves every wallet). Without wallets the
	// configured consensus wallet (Consensus.UnlockWallet) is used.
	Wallets, Passwords []string
}

func generateCommand(e *env) *cli.Command {
	flags := append(configFlags(), logFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "Output file (stdout if not given)"},
		&cli.Uint32Flag{Name: "count", Aliases: []string{"c"}, Value: 1000, Usage: "Number of blocks after the genesis"},
		&cli.IntFlag{Name: "txs", Value: chain.DefaultGenerateTxPerBlock, Usage: "Transactions per block from block 2 on"},
		&cli.IntFlag{Name: "accounts", Value: chain.DefaultGenerateAccounts, Usage: "Number of accounts the transactions use"},
		&cli.StringFlag{Name: "seed", Usage: "Seed of the accounts' keys and block nonces"},
		&cli.StringSliceFlag{Name: "wallet", Aliases: []string{"w"}, Usage: "NEP-6 wallet holding validator keys (repeatable)"},
		&cli.StringSliceFlag{Name: "password", Usage: "Password of the --wallet of the same position (one for all if given once)"},
	)
	return &cli.Command{
		Name:  "generate",
		Usage: "Generate a valid chain of transfers and storage writes signed by the validators, as an .acc dump",
		UsageText: "n3d db generate [-o file] [-c blocks] [--txs n] [--accounts n] [--seed s] [-w wallet --password pw]... " +
			"[--config-path dir] [-p|-m|-t] [--config-file file]",
		Flags: flags,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o := GenerateOptions{Out: cmd.String("out"), Blocks: cmd.Uint32("count"), TxPerBlock: cmd.Int("txs"),
				Accounts: cmd.Int("accounts"), Seed: cmd.String("seed"), Wallets: cmd.StringSlice("wallet"),
				Passwords: cmd.StringSlice("password")}
			return withConfig(ctx, cmd, e, func(ctx context.Context, cfg config.Config, log *zap.Logger) error {
				return generateDB(ctx, cfg, log, o)
			})
		},
	}
}

// generateDB builds the chain on an in-memory store (it is thrown away;
// restore the dump to keep it) and writes the dump.
func generateDB(ctx context.Context, cfg config.Config, log *zap.Logger, o GenerateOptions) (err error) {
	ks, err := validatorKeys(cfg, o.Wallets, o.Passwords)
	if err != nil {
		return fmt.Errorf("db generate: %w", err)
	}
	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	if err != nil {
		return fmt.Errorf("db generate: %w", err)
	}
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Log: log, Natives: natives})
	if err != nil {
		return fmt.Errorf("db generate: %w", err)
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	out, finish, err := outputFile(o.Out)
	if err != nil {
		return fmt.Errorf("db generate: %w", err)
	}
	defer func() { err = finish(err) }()
	_, err = chain.Generate(ctx, c, out, chain.GenerateOptions{Blocks: o.Blocks, TxPerBlock: o.TxPerBlock,
		Accounts: o.Accounts, Seed: o.Seed, Validators: ks, Log: log})
	if err != nil {
		return fmt.Errorf("db generate: %w", err)
	}
	return nil
}

// validatorKeys decrypts the keys of the standby validators found in the
// wallets (the configured consensus wallet when none is given).
func validatorKeys(cfg config.Config, paths, passwords []string) ([]*keys.PrivateKey, error) {
	if len(paths) == 0 {
		uw := cfg.ApplicationConfiguration.Consensus.UnlockWallet
		if uw.Path == "" {
			return nil, errors.New("no --wallet given and no Consensus.UnlockWallet configured")
		}
		paths, passwords = []string{uw.Path}, []string{uw.Password}
	}
	if len(passwords) != 1 && len(passwords) != len(paths) {
		return nil, fmt.Errorf("%d wallets and %d passwords: give one password per wallet or one for all",
			len(paths), len(passwords))
	}
	validators, err := chain.StandbyValidators(&cfg.ProtocolConfiguration)
	if err != nil {
		return nil, err
	}
	var out []*keys.PrivateKey
	for i, path := range paths {
		data, err := config.Wallet{Path: path}.ReadFile()
		if err != nil {
			return nil, err
		}
		w, err := wallet.FromBytes(data)
		if err != nil {
			return nil, fmt.Errorf("wallet %s: %w", path, err)
		}
		pw := passwords[min(i, len(passwords)-1)]
		for _, a := range w.Accounts {
			if a.Contract == nil {
				continue
			}
			key, ok := scripts.ParseSignatureContract(a.Contract.Script)
			if !ok || !a.HasKey() || !isValidator(key, validators) || hasKey(out, key) {
				continue
			}
			if err := a.Decrypt(pw, w.Scrypt); err != nil {
				return nil, fmt.Errorf("wallet %s: %w", path, err)
			}
			out = append(out, a.PrivateKey())
		}
	}
	return out, nil
}

func isValidator(key []byte, validators keys.PublicKeys) bool {
	for _, v := range validators {
		if string(v.Bytes()) == string(key) {
			return true
		}
	}
	return false
}

func hasKey(ks []*keys.PrivateKey, key []byte) bool {
	for _, k := range ks {
		if string(k.PublicKey().Bytes()) == string(key) {
			return true
		}
	}
	return false
}
