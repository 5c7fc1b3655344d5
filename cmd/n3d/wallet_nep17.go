package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// stopAfterFirstArg makes flag parsing stop at the first positional
// argument, as urfave/cli v2 (neo-go) does, so a "--" after it reaches the
// command.
var stopAfterFirstArg = func() *int { n := 1; return &n }()

func tokenFlag() cli.Flag {
	return &cli.StringFlag{Name: "token", Usage: "Token to use (hash or name (for NEO/GAS or imported tokens))"}
}

func fromFlag() cli.Flag {
	return &cli.StringFlag{Name: "from", Usage: "Address to send an asset from"}
}

func toFlag() cli.Flag {
	return &cli.StringFlag{Name: "to", Usage: "Address to send an asset to", Required: true}
}

func nep17Command(act actionMaker) *cli.Command {
	return &cli.Command{
		Name:  "nep17",
		Usage: "Work with NEP-17 contracts",
		Commands: []*cli.Command{
			{
				Name:      "balance",
				Usage:     "Get address balance",
				UsageText: "n3d wallet nep17 balance [-w wallet] [--wallet-config path] --rpc-endpoint <node> [--timeout <time>] [--address <address>] [--token <hash-or-name>]",
				Flags: append(walletFlags(true, tokenFlag(), addressFlag("Address to use", false)),
					rpcFlags(true)...),
				Action: act(nep17Balance, false),
			},
			tokenImportCommand(act, nep17Standard),
			tokenInfoCommand(act, nep17Standard),
			tokenRemoveCommand(act, nep17Standard),
			{
				Name:  "transfer",
				Usage: "Transfer NEP-17 tokens",
				UsageText: "n3d wallet nep17 transfer -w wallet [--wallet-config path] [--await] --rpc-endpoint <node> [--timeout <time>]" +
					" --from <addr> --to <addr> --token <hash-or-name> --amount string [data] [-- <cosigner1:Scope> [<cosigner2> [...]]]",
				Flags: append(append(walletFlags(true, fromFlag(), toFlag(), tokenFlag(),
					&cli.StringFlag{Name: "amount", Usage: "Amount of asset to send"}), txFlags()...), rpcFlags(true)...),
				StopOnNthArg: stopAfterFirstArg,
				Action:       act(nep17Transfer, true),
			},
			{
				Name:  "multitransfer",
				Usage: "Transfer NEP-17 tokens to multiple recipients",
				UsageText: "n3d wallet nep17 multitransfer -w wallet [--wallet-config path] [--await] --rpc-endpoint <node> --timeout <time>" +
					" --from <addr> <token1>:<addr1>:<amount1> [<token2>:<addr2>:<amount2> [...]] [-- <cosigner1:Scope> [<cosigner2> [...]]]",
				Flags:        append(append(walletFlags(true, fromFlag()), txFlags()...), rpcFlags(true)...),
				StopOnNthArg: stopAfterFirstArg,
				Action:       act(nep17MultiTransfer, true),
			},
		},
	}
}

// balanceAccounts returns -a (checked against the wallet when one is
// given) or every account of the wallet.
func (c *walletCtx) balanceAccounts() (*wallet.Wallet, []util.Uint160, error) {
	var w *wallet.Wallet
	if _, _, err := c.location(); err == nil {
		if w, _, err = c.readWallet(); err != nil {
			return nil, nil, fmt.Errorf("bad wallet: %w", err)
		}
	} else if !errors.Is(err, errNoWalletPath) {
		return nil, nil, err
	}
	h, ok, err := c.hashArg()
	if err != nil {
		return w, nil, err
	}
	if ok {
		if w != nil && w.GetAccount(h) == nil {
			return w, nil, fmt.Errorf("can't find account for the address: %s", address.Uint160ToString(h))
		}
		return w, []util.Uint160{h}, nil
	}
	if w == nil {
		return nil, nil, errors.New("neither wallet nor address specified")
	}
	if len(w.Accounts) == 0 {
		return w, nil, errors.New("no accounts in the wallet")
	}
	out := make([]util.Uint160, 0, len(w.Accounts))
	for _, a := range w.Accounts {
		h, err := a.ScriptHash()
		if err != nil {
			return w, nil, err
		}
		out = append(out, h)
	}
	return w, out, nil
}

// hashArg reads -a in neo-go's syntax (an address or a hash as the RPC
// prints it).
func (c *walletCtx) hashArg() (util.Uint160, bool, error) {
	s := c.cmd.String("address")
	if s == "" {
		return util.Uint160{}, false, nil
	}
	h, err := parseAddress(s)
	return h, err == nil, err
}

// balanceFilter resolves --token for a balance listing: an exact token
// (from the wallet, NEO/GAS or a hash) or only a name to match.
func balanceFilter(s *rpcSession, c *walletCtx, w *wallet.Wallet, standard string) (*walletToken, string, error) {
	name := c.cmd.String("token")
	if name == "" {
		return nil, "", nil
	}
	toks, err := walletTokens(w)
	if err != nil {
		return nil, "", err
	}
	if t, err := matchToken(c.out, toks, name, standard); err == nil {
		return t, name, nil
	}
	h, ok := util.Uint160{}, false
	if standard == nep17Standard {
		h, ok = wellKnownToken(name)
	}
	if !ok {
		if h, err = parseAddress(name); err != nil {
			return nil, name, nil
		}
	}
	t, err := tokenInfo(s.ctx, s.c, h, standard)
	if err != nil {
		return nil, "", fmt.Errorf("%q is not a valid %s token: %w", name, standard, err)
	}
	return t, name, nil
}

func nep17Balance(ctx context.Context, c *walletCtx) error {
	return printBalances(ctx, c, balanceLister[result.NEP17Balance]{
		standard: nep17Standard,
		fetch: func(s *rpcSession, h util.Uint160) ([]result.NEP17Balance, error) {
			bs, err := s.c.GetNEP17Balances(s.ctx, h)
			if err != nil {
				return nil, err
			}
			return bs.Balances, nil
		},
		token: func(b result.NEP17Balance) walletToken {
			return walletToken{Name: b.Name, Hash: b.Asset, Symbol: b.Symbol}
		},
		print: func(b result.NEP17Balance) { printNEP17Balance(c, b) },
		none: func(t *walletToken) result.NEP17Balance {
			return result.NEP17Balance{Asset: t.Hash, Amount: "0", Decimals: int(t.Decimals), Name: t.Name, Symbol: t.Symbol}
		},
	})
}

// balanceLister is what the nep17 and nep11 balance verbs differ in: how
// an account's balances are fetched, named and printed, and what is
// printed for a requested token the account does not hold.
type balanceLister[B any] struct {
	standard string
	fetch    func(s *rpcSession, h util.Uint160) ([]B, error)
	token    func(B) walletToken
	print    func(B)
	none     func(t *walletToken) B
}

// printBalances prints, for each account of the wallet (or --address), its
// balances of the tokens of l.standard, or of the one --token names.
func printBalances[B any](ctx context.Context, c *walletCtx, l balanceLister[B]) error {
	w, accs, err := c.balanceAccounts()
	if w != nil {
		defer w.Close()
	}
	if err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	tok, name, err := balanceFilter(s, c, w, l.standard)
	if err != nil {
		return err
	}
	for i, h := range accs {
		if i != 0 {
			fmt.Fprintln(c.out)
		}
		fmt.Fprintf(c.out, "Account %s\n", address.Uint160ToString(h))
		bs, err := l.fetch(s, h)
		if err != nil {
			return err
		}
		found := false
		for _, b := range bs {
			t := l.token(b)
			if name == "" || (tok != nil && tok.Hash == t.Hash) || (tok == nil && (t.Name == name || t.Symbol == name)) {
				l.print(b)
				found = true
			}
		}
		switch {
		case name == "" || found:
		case tok != nil:
			l.print(l.none(tok))
		default:
			fmt.Fprintf(c.out, "Can't find data for %q token\n", name)
		}
	}
	return nil
}

func printNEP17Balance(c *walletCtx, b result.NEP17Balance) {
	fmt.Fprintf(c.out, "%s: %s (%s)\n", b.Symbol, b.Name, b.Asset.StringBE())
	fmt.Fprintf(c.out, "\tAmount : %s\n", decimalAmount(b.Amount, b.Decimals))
	fmt.Fprintf(c.out, "\tUpdated: %d\n", b.LastUpdated)
}

// transferSetup opens the wallet, the sender (--from or the default
// account) and the node, and parses the cosigners.
type transferSetup struct {
	w       *wallet.Wallet
	from    util.Uint160
	signers []txbuild.Signer
	s       *rpcSession
}

func (t *transferSetup) close() {
	if t.s != nil {
		t.s.close()
	}
	if t.w != nil {
		t.w.Close()
	}
}

func (c *walletCtx) setupTransfer(ctx context.Context, cosignerArgs []string) (*transferSetup, error) {
	t := new(transferSetup)
	var pass *string
	var err error
	if t.w, pass, err = c.readWallet(); err != nil {
		return t, err
	}
	if t.from, err = c.senderAddress(t.w); err != nil {
		return t, err
	}
	acc, err := c.walletAccount(t.w, t.from, pass)
	if err != nil {
		return t, err
	}
	cos, err := parseSigners(cosignerArgs)
	if err != nil {
		return t, err
	}
	if t.signers, err = c.signers(t.w, acc, transaction.CalledByEntry, cos, pass); err != nil {
		return t, err
	}
	t.s, err = c.dial(ctx)
	return t, err
}

func nep17Transfer(ctx context.Context, c *walletCtx) error {
	dataArgs, cosArgs := splitCosigners(ctx, c.cmd.Args().Slice())
	data, err := parseData(dataArgs)
	if err != nil {
		return err
	}
	to, err := c.hashFlag("to")
	if err != nil {
		return err
	}
	t, err := c.setupTransfer(ctx, cosArgs)
	defer t.close()
	if err != nil {
		return err
	}
	tok, err := resolveToken(t.s, c.out, t.w, t.from, c.cmd.String("token"), nep17Standard)
	if err != nil {
		return err
	}
	amount, err := parseAmount(c.cmd.String("amount"), tok.Decimals)
	if err != nil {
		return err
	}
	script, err := txbuild.TransferScript([]txbuild.Transfer{{Token: tok.Hash, From: t.from, To: to, Amount: amount, Data: data}})
	if err != nil {
		return err
	}
	return c.makeAndSend(t.s, script, t.signers)
}

func nep17MultiTransfer(ctx context.Context, c *walletCtx) error {
	recArgs, cosArgs := splitCosigners(ctx, c.cmd.Args().Slice())
	if len(recArgs) == 0 {
		return errors.New("empty recipients list")
	}
	t, err := c.setupTransfer(ctx, cosArgs)
	defer t.close()
	if err != nil {
		return err
	}
	cache := map[string]*walletToken{}
	ts := make([]txbuild.Transfer, 0, len(recArgs))
	for _, arg := range recArgs {
		parts := strings.SplitN(arg, ":", 3)
		if len(parts) != 3 {
			return errors.New("send format must be '<token>:<addr>:<amount>")
		}
		tok, ok := cache[parts[0]]
		if !ok {
			if tok, err = resolveToken(t.s, c.out, t.w, t.from, parts[0], nep17Standard); err != nil {
				return fmt.Errorf("can't fetch matching token from RPC-node: %w", err)
			}
			cache[parts[0]] = tok
		}
		to, err := address.StringToUint160(parts[1])
		if err != nil {
			return fmt.Errorf("invalid address: '%s': %w", parts[1], err)
		}
		amount, err := parseAmount(parts[2], tok.Decimals)
		if err != nil {
			return err
		}
		ts = append(ts, txbuild.Transfer{Token: tok.Hash, From: t.from, To: to, Amount: amount})
	}
	script, err := txbuild.TransferScript(ts)
	if err != nil {
		return err
	}
	return c.makeAndSend(t.s, script, t.signers)
}
