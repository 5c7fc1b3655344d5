package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// maxItemsText tells how many iterator items the listing verbs print.
var maxItemsText = fmt.Sprintf("at most %d", txbuild.DefaultMaxIteratorItems)

func idFlag() cli.Flag { return &cli.StringFlag{Name: "id", Usage: "Hex-encoded token ID"} }

func nftTokenFlag() cli.Flag {
	return &cli.StringFlag{Name: "token", Usage: "Token contract address or hash in LE", Required: true}
}

func nep11Command(act actionMaker) *cli.Command {
	return &cli.Command{
		Name:  "nep11",
		Usage: "Work with NEP-11 contracts",
		Commands: []*cli.Command{
			{
				Name:      "balance",
				Usage:     "Get address balance",
				UsageText: "n3d wallet nep11 balance [-w wallet] [--wallet-config path] --rpc-endpoint <node> [--timeout <time>] [--address <address>] [--token <hash-or-name>] [--id <token-id>]",
				Flags: append(walletFlags(true, tokenFlag(), addressFlag("Address to use", false), idFlag()),
					rpcFlags(true)...),
				Action: act(nep11Balance, false),
			},
			tokenImportCommand(act, nep11Standard),
			tokenInfoCommand(act, nep11Standard),
			tokenRemoveCommand(act, nep11Standard),
			{
				Name:  "transfer",
				Usage: "Transfer NEP-11 tokens",
				UsageText: "n3d wallet nep11 transfer -w wallet [--wallet-config path] --rpc-endpoint <node> [--timeout <time>] --from <addr>" +
					" --to <addr> --token <hash-or-name> --id <token-id> [--amount string] [--await] [data] [-- <cosigner1:Scope> [<cosigner2> [...]]]",
				Flags: append(append(walletFlags(true, fromFlag(), toFlag(), tokenFlag(), idFlag(),
					&cli.StringFlag{Name: "amount", Usage: "Amount of asset to send"}), txFlags()...), rpcFlags(true)...),
				StopOnNthArg: stopAfterFirstArg,
				Action:       act(nep11Transfer, true),
			},
			{
				Name:      "properties",
				Usage:     "Print properties of NEP-11 token",
				UsageText: "n3d wallet nep11 properties --rpc-endpoint <node> [--timeout <time>] --token <hash> --id <token-id>",
				Flags:     append([]cli.Flag{nftTokenFlag(), idFlag()}, rpcFlags(true)...),
				Action:    act(nep11Properties, false),
			},
			{
				Name:      "ownerOfD",
				Usage:     "Print set of owners of divisible NEP-11 token with the specified ID (" + maxItemsText + ")",
				UsageText: "n3d wallet nep11 ownerOfD --rpc-endpoint <node> [--timeout <time>] --token <hash> --id <token-id>",
				Flags:     append([]cli.Flag{nftTokenFlag(), idFlag()}, rpcFlags(true)...),
				Action:    act(nep11OwnersOf, false),
			},
			{
				Name:      "tokensOf",
				Usage:     "Print list of tokens IDs for the specified NFT owner (" + maxItemsText + ")",
				UsageText: "n3d wallet nep11 tokensOf --rpc-endpoint <node> [--timeout <time>] --token <hash> --address <addr>",
				Flags: append([]cli.Flag{nftTokenFlag(), &cli.StringFlag{Name: "address", Required: true,
					Usage: "NFT owner address or hash in LE"}}, rpcFlags(true)...),
				Action: act(nep11TokensOf, false),
			},
			{
				Name:      "tokens",
				Usage:     "Print list of tokens IDs minted by the specified NFT (optional method; " + maxItemsText + ")",
				UsageText: "n3d wallet nep11 tokens --rpc-endpoint <node> [--timeout <time>] --token <hash>",
				Flags:     append([]cli.Flag{nftTokenFlag()}, rpcFlags(true)...),
				Action:    act(nep11Tokens, false),
			},
			{
				Name:      "ownerOf",
				Usage:     "Print owner of non-divisible NEP-11 token with the specified ID",
				UsageText: "n3d wallet nep11 ownerOf --rpc-endpoint <node> [--timeout <time>] --token <hash> --id <token-id>",
				Flags:     append([]cli.Flag{nftTokenFlag(), idFlag()}, rpcFlags(true)...),
				Action:    act(nep11OwnerOf, false),
			},
		},
	}
}

func nep11Balance(ctx context.Context, c *walletCtx) error {
	nftID := c.cmd.String("id")
	if nftID != "" {
		if _, err := hex.DecodeString(nftID); err != nil {
			return fmt.Errorf("invalid token ID: %w", err)
		}
	}
	return printBalances(ctx, c, balanceLister[result.NEP11AssetBalance]{
		standard: nep11Standard,
		fetch: func(s *rpcSession, h util.Uint160) ([]result.NEP11AssetBalance, error) {
			bs, err := s.c.GetNEP11Balances(s.ctx, h)
			if err != nil {
				return nil, err
			}
			return bs.Balances, nil
		},
		token: func(b result.NEP11AssetBalance) walletToken {
			return walletToken{Name: b.Name, Hash: b.Asset, Symbol: b.Symbol}
		},
		print: func(b result.NEP11AssetBalance) { printNFTBalance(c, b, nftID) },
		none: func(t *walletToken) result.NEP11AssetBalance {
			return result.NEP11AssetBalance{Asset: t.Hash, Decimals: int(t.Decimals), Name: t.Name, Symbol: t.Symbol}
		},
	})
}

func printNFTBalance(c *walletCtx, b result.NEP11AssetBalance, nftID string) {
	fmt.Fprintf(c.out, "%s: %s (%s)\n", b.Symbol, b.Name, b.Asset.StringBE())
	for _, t := range b.Tokens {
		if nftID != "" && nftID != t.ID {
			continue
		}
		fmt.Fprintf(c.out, "\tToken: %s\n", t.ID)
		fmt.Fprintf(c.out, "\t\tAmount: %s\n", decimalAmount(t.Amount, b.Decimals))
		fmt.Fprintf(c.out, "\t\tUpdated: %d\n", t.LastUpdated)
	}
}

// tokenID reads the required --id.
func (c *walletCtx) tokenID() ([]byte, error) {
	s := c.cmd.String("id")
	if s == "" {
		return nil, errors.New("token ID should be specified")
	}
	id, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("invalid token ID: %w", err)
	}
	return id, nil
}

// nep11Transfer transfers a non-divisible token, or with --amount a part
// of a divisible one.
func nep11Transfer(ctx context.Context, c *walletCtx) error {
	dataArgs, cosArgs := splitCosigners(ctx, c.cmd.Args().Slice())
	data, err := parseData(dataArgs)
	if err != nil {
		return err
	}
	to, err := c.hashFlag("to")
	if err != nil {
		return err
	}
	id, err := c.tokenID()
	if err != nil {
		return err
	}
	t, err := c.setupTransfer(ctx, cosArgs)
	defer t.close()
	if err != nil {
		return err
	}
	tok, err := resolveToken(t.s, c.out, t.w, t.from, c.cmd.String("token"), nep11Standard)
	if err != nil {
		return err
	}
	var script []byte
	if a := c.cmd.String("amount"); a != "" {
		amount, err := parseAmount(a, tok.Decimals)
		if err != nil {
			return err
		}
		script, err = txbuild.DivisibleNFTTransferScript(tok.Hash, t.from, to, amount, id, data)
		if err != nil {
			return err
		}
	} else if script, err = txbuild.NFTTransferScript(tok.Hash, to, id, data); err != nil {
		return err
	}
	return c.makeAndSend(t.s, script, t.signers)
}

// nftCall test-runs method(id) of --token and returns its result.
func nftCall(ctx context.Context, c *walletCtx, method string) (stackitem.Item, error) {
	h, err := c.hashFlag("token")
	if err != nil {
		return nil, err
	}
	id, err := c.tokenID()
	if err != nil {
		return nil, err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer s.close()
	script, err := emit.NewBuilder().AppCall(h, method, byte(callflag.ReadOnly), id).Script()
	if err != nil {
		return nil, err
	}
	r, err := s.c.InvokeScript(s.ctx, script, nil)
	if err != nil {
		return nil, err
	}
	it, err := r.TopItem()
	if err != nil {
		return nil, fmt.Errorf("failed to call NEP-11 `%s` method: %w", method, err)
	}
	return it, nil
}

func nep11OwnerOf(ctx context.Context, c *walletCtx) error {
	it, err := nftCall(ctx, c, "ownerOf")
	if err != nil {
		return err
	}
	b, err := it.Bytes()
	if err != nil {
		return fmt.Errorf("%w: owner %v", client.ErrStack, it)
	}
	h, err := util.Uint160DecodeBytesLE(b)
	if err != nil {
		return fmt.Errorf("%w: owner: %w", client.ErrStack, err)
	}
	_, err = fmt.Fprintln(c.out, address.Uint160ToString(h))
	return err
}

func nep11Properties(ctx context.Context, c *walletCtx) error {
	it, err := nftCall(ctx, c, "properties")
	if err != nil {
		return err
	}
	b, err := stackitem.ToJSON(it)
	if err != nil {
		return fmt.Errorf("failed to convert result to JSON: %w", err)
	}
	_, err = fmt.Fprintln(c.out, string(b))
	return err
}

// iteratorItems test-runs method of --token with args and returns the
// first values of the iterator it returns.
func iteratorItems(ctx context.Context, c *walletCtx, method string, args ...any) ([]stackitem.Item, error) {
	h, err := c.hashFlag("token")
	if err != nil {
		return nil, err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer s.close()
	script, err := txbuild.IteratorScript(h, method, txbuild.DefaultMaxIteratorItems, args...)
	if err != nil {
		return nil, err
	}
	r, err := s.c.InvokeScript(s.ctx, script, nil)
	if err != nil {
		return nil, err
	}
	it, err := r.TopItem()
	if err != nil {
		return nil, fmt.Errorf("failed to call NEP-11 `%s` method: %w", method, err)
	}
	arr, ok := it.(*stackitem.Array)
	if !ok {
		return nil, fmt.Errorf("%w: %s answered %v", client.ErrStack, method, it)
	}
	return arr.Items(), nil
}

// printIDs prints byte-string items as hex, one a line.
func printIDs(c *walletCtx, items []stackitem.Item) error {
	for _, it := range items {
		b, err := it.Bytes()
		if err != nil {
			return fmt.Errorf("%w: token ID %v", client.ErrStack, it)
		}
		fmt.Fprintln(c.out, hex.EncodeToString(b))
	}
	return nil
}

func nep11TokensOf(ctx context.Context, c *walletCtx) error {
	owner, err := c.hashFlag("address")
	if err != nil {
		return err
	}
	items, err := iteratorItems(ctx, c, "tokensOf", owner)
	if err != nil {
		return err
	}
	return printIDs(c, items)
}

func nep11Tokens(ctx context.Context, c *walletCtx) error {
	items, err := iteratorItems(ctx, c, "tokens")
	if err != nil {
		return err
	}
	return printIDs(c, items)
}

// nep11OwnersOf prints the owners of a divisible token.
func nep11OwnersOf(ctx context.Context, c *walletCtx) error {
	id, err := c.tokenID()
	if err != nil {
		return err
	}
	items, err := iteratorItems(ctx, c, "ownerOf", id)
	if err != nil {
		return err
	}
	for _, it := range items {
		b, err := it.Bytes()
		if err != nil {
			return fmt.Errorf("%w: owner %v", client.ErrStack, it)
		}
		h, err := util.Uint160DecodeBytesLE(b)
		if err != nil {
			return fmt.Errorf("%w: owner: %w", client.ErrStack, err)
		}
		fmt.Fprintln(c.out, address.Uint160ToString(h))
	}
	return nil
}
