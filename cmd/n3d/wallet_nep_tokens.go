package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
)

// Token standards as manifests name them.
const (
	nep17Standard = "NEP-17"
	nep11Standard = "NEP-11"
)

// maxDecimals bounds a token's decimals (amount parsing and printing).
const maxDecimals = 77

var errTokenNotFound = errors.New("token was not found")

// walletToken is a token imported into a wallet: neo-go keeps them in the
// wallet's "extra" as {"Tokens":[...]}.
type walletToken struct {
	Name     string       `json:"name"`
	Hash     util.Uint160 `json:"script_hash"`
	Decimals int64        `json:"decimals"`
	Symbol   string       `json:"symbol"`
	Standard string       `json:"standard"`
}

// walletTokens returns the tokens imported into w.
func walletTokens(w *wallet.Wallet) ([]walletToken, error) {
	if w == nil || len(w.Extra) == 0 || string(w.Extra) == "null" {
		return nil, nil
	}
	var extra struct {
		Tokens []walletToken `json:"Tokens"`
	}
	if err := json.Unmarshal(w.Extra, &extra); err != nil {
		return nil, fmt.Errorf("wallet extra: %w", err)
	}
	return extra.Tokens, nil
}

// setWalletTokens replaces the token list in w's extra, keeping any other
// key.
func setWalletTokens(w *wallet.Wallet, toks []walletToken) error {
	m := map[string]json.RawMessage{}
	if len(w.Extra) != 0 && string(w.Extra) != "null" {
		if err := json.Unmarshal(w.Extra, &m); err != nil {
			return fmt.Errorf("wallet extra: %w", err)
		}
	}
	raw, err := json.Marshal(toks)
	if err != nil {
		return err
	}
	m["Tokens"] = raw
	if w.Extra, err = json.Marshal(m); err != nil {
		return err
	}
	return nil
}

// matches tells whether name designates t (hash, address, symbol, name).
func (t walletToken) matches(name string) bool {
	return t.Hash.StringBE() == strings.TrimPrefix(name, "0x") || address.Uint160ToString(t.Hash) == name ||
		t.Symbol == name || t.Name == name
}

// matchToken returns the only token of standard that name designates.
func matchToken(out io.Writer, toks []walletToken, name, standard string) (*walletToken, error) {
	var found *walletToken
	for i := range toks {
		t := &toks[i]
		if t.Standard != standard || !t.matches(name) {
			continue
		}
		if found != nil {
			printTokenInfo(out, *found)
			printTokenInfo(out, *t)
			return nil, fmt.Errorf("multiple matching %s tokens found", standard)
		}
		found = t
	}
	if found == nil {
		return nil, fmt.Errorf("%s %w", standard, errTokenNotFound)
	}
	return found, nil
}

func printTokenInfo(w io.Writer, t walletToken) {
	fmt.Fprintf(w, "Name:\t%s\n", t.Name)
	fmt.Fprintf(w, "Symbol:\t%s\n", t.Symbol)
	fmt.Fprintf(w, "Hash:\t%s\n", t.Hash.StringBE())
	fmt.Fprintf(w, "Decimals: %d\n", t.Decimals)
	fmt.Fprintf(w, "Address: %s\n", address.Uint160ToString(t.Hash))
	fmt.Fprintf(w, "Standard:\t%s\n", t.Standard)
}

// wellKnownToken returns the hash of NEO or GAS named by name.
func wellKnownToken(name string) (util.Uint160, bool) {
	switch name {
	case "NEO", "NeoToken":
		return txbuild.NeoHash, true
	case "GAS", "GasToken":
		return txbuild.GasHash, true
	}
	return util.Uint160{}, false
}

// tokenInfo asks the node for the token of hash h: its manifest's name and
// standard, then symbol and decimals.
func tokenInfo(ctx context.Context, c *client.Client, h util.Uint160, standard string) (*walletToken, error) {
	cs, err := c.GetContractState(ctx, h)
	if err != nil {
		return nil, err
	}
	std := ""
	for _, s := range cs.Manifest.SupportedStandards {
		if s == nep17Standard || s == nep11Standard {
			std = s
			break
		}
	}
	if std != standard {
		return nil, fmt.Errorf("%s is not a %s token", h.StringBE(), standard)
	}
	script, err := emit.NewBuilder().AppCall(h, "symbol", byte(callflag.ReadOnly)).
		AppCall(h, "decimals", byte(callflag.ReadOnly)).Script()
	if err != nil {
		return nil, err
	}
	r, err := c.InvokeScript(ctx, script, nil)
	if err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if len(r.Stack) != 2 {
		return nil, fmt.Errorf("%w: %d items for symbol and decimals", client.ErrStack, len(r.Stack))
	}
	sym, err := r.Stack[0].Bytes()
	if err != nil {
		return nil, fmt.Errorf("symbol: %w", err)
	}
	dec, err := r.Stack[1].BigInt()
	if err != nil {
		return nil, fmt.Errorf("decimals: %w", err)
	}
	if !dec.IsInt64() || dec.Sign() < 0 || dec.Int64() > maxDecimals {
		return nil, fmt.Errorf("%w: decimals %v", client.ErrStack, dec)
	}
	return &walletToken{Name: cs.Manifest.Name, Hash: h, Decimals: dec.Int64(), Symbol: string(sym), Standard: std}, nil
}

// resolveToken finds the token --token names: in the wallet, among the
// balances of acc on the node, NEO/GAS by name, or by hash or address.
func resolveToken(s *rpcSession, out io.Writer, w *wallet.Wallet, acc util.Uint160, name, standard string) (*walletToken, error) {
	if name == "" {
		return nil, errors.New("required flag --token is not set")
	}
	toks, err := walletTokens(w)
	if err != nil {
		return nil, err
	}
	if t, err := matchToken(out, toks, name, standard); err == nil {
		return t, nil
	} else if !errors.Is(err, errTokenNotFound) {
		return nil, err
	}
	if bal, err := balanceTokens(s, acc, standard); err == nil {
		if t, err := matchToken(out, bal, name, standard); err == nil {
			return t, nil
		} else if !errors.Is(err, errTokenNotFound) {
			return nil, err
		}
	}
	h, ok := util.Uint160{}, false
	if standard == nep17Standard {
		h, ok = wellKnownToken(name)
	}
	if !ok {
		if h, err = parseAddress(name); err != nil {
			return nil, fmt.Errorf("can't fetch matching token from RPC-node: %s %w", standard, errTokenNotFound)
		}
	}
	t, err := tokenInfo(s.ctx, s.c, h, standard)
	if err != nil {
		return nil, fmt.Errorf("%q is not a valid %s token: %w", name, standard, err)
	}
	return t, nil
}

// balanceTokens returns the tokens acc holds according to the node.
func balanceTokens(s *rpcSession, acc util.Uint160, standard string) ([]walletToken, error) {
	var out []walletToken
	if standard == nep17Standard {
		bs, err := s.c.GetNEP17Balances(s.ctx, acc)
		if err != nil {
			return nil, err
		}
		for _, b := range bs.Balances {
			out = append(out, walletToken{Name: b.Name, Hash: b.Asset, Decimals: int64(b.Decimals), Symbol: b.Symbol, Standard: standard})
		}
		return out, nil
	}
	bs, err := s.c.GetNEP11Balances(s.ctx, acc)
	if err != nil {
		return nil, err
	}
	for _, b := range bs.Balances {
		out = append(out, walletToken{Name: b.Name, Hash: b.Asset, Decimals: int64(b.Decimals), Symbol: b.Symbol, Standard: standard})
	}
	return out, nil
}

// parseAmount reads a decimal amount of a token with decimals places.
func parseAmount(s string, decimals int64) (*big.Int, error) {
	if decimals < 0 || decimals > maxDecimals {
		return nil, fmt.Errorf("invalid amount: bad decimals %d", decimals)
	}
	ip, fp, hasDot := strings.Cut(s, ".")
	if ip == "" || (hasDot && fp == "") || int64(len(fp)) > decimals ||
		strings.ContainsAny(ip+fp, "+-") {
		return nil, fmt.Errorf("invalid amount: %q", s)
	}
	n, ok := new(big.Int).SetString(ip+fp+strings.Repeat("0", int(decimals)-len(fp)), 10)
	if !ok {
		return nil, fmt.Errorf("invalid amount: %q", s)
	}
	return n, nil
}

// formatAmount prints n with decimals places, without trailing zeros.
func formatAmount(n *big.Int, decimals int) string {
	if decimals <= 0 || decimals > maxDecimals {
		return n.String()
	}
	neg := n.Sign() < 0
	digits := new(big.Int).Abs(n).String()
	if len(digits) <= decimals {
		digits = strings.Repeat("0", decimals-len(digits)+1) + digits
	}
	ip, fp := digits[:len(digits)-decimals], strings.TrimRight(digits[len(digits)-decimals:], "0")
	out := ip
	if fp != "" {
		out += "." + fp
	}
	if neg {
		out = "-" + out
	}
	return out
}

// decimalAmount formats a balance string of the RPC answer.
func decimalAmount(amount string, decimals int) string {
	if n, ok := new(big.Int).SetString(amount, 10); ok {
		return formatAmount(n, decimals)
	}
	return amount
}

// removeToken drops the token of hash h from toks.
func removeToken(toks []walletToken, h util.Uint160) []walletToken {
	return slices.DeleteFunc(toks, func(t walletToken) bool { return t.Hash == h })
}
