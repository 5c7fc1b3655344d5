package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// The token list of a wallet (neo-go's "extra" Tokens): import, info and
// remove, for NEP-17 and NEP-11 alike.

func tokenImportCommand(act actionMaker, standard string) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     fmt.Sprintf("Import %s token to a wallet", standard),
		UsageText: "import -w wallet [--wallet-config path] --rpc-endpoint <node> [--timeout <time>] --token <hash>",
		Flags: append(walletFlags(true, &cli.StringFlag{Name: "token", Required: true,
			Usage: "Token contract address or hash in LE"}), rpcFlags(true)...),
		Action: act(func(ctx context.Context, c *walletCtx) error { return importToken(ctx, c, standard) }, false),
	}
}

func tokenInfoCommand(act actionMaker, standard string) *cli.Command {
	return &cli.Command{
		Name:      "info",
		Usage:     fmt.Sprintf("Print imported %s token info", standard),
		UsageText: "print -w wallet [--wallet-config path] [--token <hash-or-name>]",
		Flags:     walletFlags(true, tokenFlag()),
		Action:    act(func(_ context.Context, c *walletCtx) error { return printTokens(c, standard) }, false),
	}
}

func tokenRemoveCommand(act actionMaker, standard string) *cli.Command {
	return &cli.Command{
		Name:      "remove",
		Usage:     fmt.Sprintf("Remove %s token from the wallet", standard),
		UsageText: "remove -w wallet [--wallet-config path] --token <hash-or-name>",
		Flags:     walletFlags(true, tokenFlag(), forceFlag()),
		Action:    act(func(_ context.Context, c *walletCtx) error { return removeWalletToken(c, standard) }, false),
	}
}

func importToken(ctx context.Context, c *walletCtx, standard string) error {
	h, err := c.hashFlag("token")
	if err != nil {
		return err
	}
	w, _, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	toks, err := walletTokens(w)
	if err != nil {
		return err
	}
	for _, t := range toks {
		if t.Hash == h && t.Standard == standard {
			printTokenInfo(c.out, t)
			return fmt.Errorf("%s token already exists", standard)
		}
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	tok, err := tokenInfo(s.ctx, s.c, h, standard)
	if err != nil {
		return fmt.Errorf("can't receive token info: %w", err)
	}
	if err := setWalletTokens(w, append(toks, *tok)); err != nil {
		return err
	}
	if err := w.Save(); err != nil {
		return err
	}
	printTokenInfo(c.out, *tok)
	return nil
}

func printTokens(c *walletCtx, standard string) error {
	w, _, err := c.readWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	toks, err := walletTokens(w)
	if err != nil {
		return err
	}
	if name := c.cmd.String("token"); name != "" {
		t, err := matchToken(c.out, toks, name, standard)
		if err != nil {
			return err
		}
		printTokenInfo(c.out, *t)
		return nil
	}
	n := 0
	for _, t := range toks {
		if t.Standard != standard {
			continue
		}
		if n > 0 {
			fmt.Fprintln(c.out)
		}
		printTokenInfo(c.out, t)
		n++
	}
	return nil
}

func removeWalletToken(c *walletCtx, standard string) error {
	w, _, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	toks, err := walletTokens(w)
	if err != nil {
		return err
	}
	t, err := matchToken(c.out, toks, c.cmd.String("token"), standard)
	if err != nil {
		return err
	}
	if !c.cmd.Bool("force") && !c.in.consent() {
		return nil
	}
	if err := setWalletTokens(w, removeToken(toks, t.Hash)); err != nil {
		return fmt.Errorf("can't remove token: %w", err)
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error while saving wallet: %w", err)
	}
	return nil
}
