package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// walletCommand lists the neo-go wallet verbs n3d will provide; until the
// wallet CLI lands each one fails with errNotAvailable (never a fake
// success). Flags are not parsed so that any neo-go invocation gets this
// clear answer instead of a flag error.
func walletCommand() *cli.Command {
	verbs := []struct{ name, usage string }{
		{"init", "Create a new empty wallet file"},
		{"create", "Add an account to a wallet"},
		{"dump", "Print the wallet"},
		{"dump-keys", "Print the public keys of the wallet's accounts"},
		{"export", "Export a key as WIF"},
		{"import", "Import a WIF key"},
		{"import-multisig", "Import a multisignature account"},
	}
	cmds := make([]*cli.Command, 0, len(verbs))
	for _, v := range verbs {
		cmds = append(cmds, &cli.Command{
			Name:            v.name,
			Usage:           v.usage + " (not available yet)",
			SkipFlagParsing: true,
			Action: func(context.Context, *cli.Command) error {
				return fmt.Errorf("wallet %s: %w", v.name, errNotAvailable)
			},
		})
	}
	return &cli.Command{
		Name:     "wallet",
		Usage:    "NEP-6 wallet management (not available yet)",
		Commands: cmds,
	}
}
