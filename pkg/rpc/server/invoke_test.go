package server

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

type invokeJSON struct {
	State       string            `json:"state"`
	GasConsumed string            `json:"gasconsumed"`
	Script      []byte            `json:"script"`
	Stack       []json.RawMessage `json:"stack"`
	Exception   *string           `json:"exception"`
	Notes       []json.RawMessage `json:"notifications"`
}

func (n *testNode) invoke(t testing.TB, method string, params ...any) (invokeJSON, []byte) {
	t.Helper()
	raw := n.result(t, method, params...)
	var r invokeJSON
	require.NoError(t, json.Unmarshal(raw, &r), string(raw))
	return r, raw
}

type refBalance struct {
	Address string `json:"address"`
	Balance []struct {
		Amount   string `json:"amount"`
		Asset    string `json:"assethash"`
		Decimals string `json:"decimals"`
		Symbol   string `json:"symbol"`
	} `json:"balance"`
}

// TestInvokeFunction reads every reference balance, symbol and decimals
// through invokefunction, and the same script through invokescript.
func TestInvokeFunction(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		bals := readJSON[struct {
			NEP17 map[string]refBalance `json:"nep17"`
		}](t, filepath.Join(n.dir, "balances.json"))
		count := 0
		for _, b := range bals.NEP17 {
			h, err := address.StringToUint160(b.Address)
			require.NoError(t, err)
			for _, asset := range b.Balance {
				arg := []any{map[string]any{"type": "Hash160", "value": h.String()}}
				r, raw := n.invoke(t, "invokefunction", asset.Asset, "balanceOf", arg)
				require.Equal(t, []string{"state", "gasconsumed", "script", "stack", "exception", "notifications"}, keyOrder(t, raw))
				require.Equal(t, "HALT", r.State)
				require.Nil(t, r.Exception)
				require.Empty(t, r.Notes)
				require.Len(t, r.Stack, 1)
				requireJSON(t, mustJSON(t, map[string]string{"type": "Integer", "value": asset.Amount}), r.Stack[0])
				// The same script through invokescript, the account as an
				// address-typed signer.
				r2, _ := n.invoke(t, "invokescript", base64.StdEncoding.EncodeToString(r.Script),
					[]any{map[string]any{"account": b.Address, "scopes": "CalledByEntry"}})
				require.Equal(t, r, r2)
				sym, _ := n.invoke(t, "invokefunction", asset.Asset, "symbol")
				requireJSON(t, mustJSON(t, map[string]string{"type": "ByteString",
					"value": base64.StdEncoding.EncodeToString([]byte(asset.Symbol))}), sym.Stack[0])
				dec, _ := n.invoke(t, "invokefunction", asset.Asset, "decimals", []any{})
				requireJSON(t, mustJSON(t, map[string]string{"type": "Integer", "value": asset.Decimals}), dec.Stack[0])
				count++
			}
		}
		require.Positive(t, count)
	})
}

func TestInvokeFault(t *testing.T) {
	n := node(t, "testblocks")
	// ABORT: FAULT with an exception, no stack.
	r, _ := n.invoke(t, "invokescript", base64.StdEncoding.EncodeToString([]byte{0x38}))
	require.Equal(t, "FAULT", r.State)
	require.NotNil(t, r.Exception)
	// A script that runs out of GAS: an infinite loop (JMP 0).
	r, _ = n.invoke(t, "invokescript", base64.StdEncoding.EncodeToString([]byte{0x22, 0x00}))
	require.Equal(t, "FAULT", r.State)
	var gas int64
	require.NoError(t, json.Unmarshal([]byte(r.GasConsumed), &gas))
	require.GreaterOrEqual(t, gas, int64(n.srv.cfg.MaxGasInvoke))
	// An unknown method.
	r, _ = n.invoke(t, "invokefunction", "neotoken", "nosuchmethod")
	require.Equal(t, "FAULT", r.State)
}

// TestUnclaimedGas compares getunclaimedgas with NeoToken.unclaimedGas for
// the next block, for every address of the chain.
func TestUnclaimedGas(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		addrs := readJSON[map[string]json.RawMessage](t, filepath.Join(n.dir, "addresses.json"))
		nonZero := 0
		for a := range addrs {
			h, err := address.StringToUint160(a)
			require.NoError(t, err)
			var u struct {
				Address   string `json:"address"`
				Unclaimed string `json:"unclaimed"`
			}
			require.NoError(t, json.Unmarshal(n.result(t, "getunclaimedgas", a), &u))
			require.Equal(t, a, u.Address)
			r, _ := n.invoke(t, "invokefunction", "NeoToken", "unclaimedGas", []any{
				map[string]any{"type": "Hash160", "value": h.String()},
				map[string]any{"type": "Integer", "value": n.chain.BlockHeight() + 1}})
			requireJSON(t, mustJSON(t, map[string]string{"type": "Integer", "value": u.Unclaimed}), r.Stack[0])
			if u.Unclaimed != "0" {
				nonZero++
			}
		}
		require.Positive(t, nonZero)
	})
}

// TestCalculateNetworkFee recomputes the network fee of every reference
// transaction from its bytes, with and without its invocation scripts.
func TestCalculateNetworkFee(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		blocks := conformance.ReadJSONL[refBlockLine](t, filepath.Join(n.dir, "blocks.jsonl"))
		for _, b := range blocks {
			var ref struct {
				Tx []struct {
					Hash   string `json:"hash"`
					NetFee string `json:"netfee"`
				} `json:"tx"`
			}
			require.NoError(t, json.Unmarshal(b.Block, &ref))
			for _, rt := range ref.Tx {
				var raw []byte
				require.NoError(t, json.Unmarshal(n.result(t, "getrawtransaction", rt.Hash), &raw))
				var fee result.NetworkFee
				require.NoError(t, json.Unmarshal(n.result(t, "calculatenetworkfee", raw), &fee))
				// testblocks was made with exact fees, chain50x2 with a fixed
				// fee above the minimum.
				if n.name == "testblocks" {
					require.Equal(t, rt.NetFee, jsonNum(int(fee.Value)), "tx %s", rt.Hash)
				} else {
					var paid int64
					require.NoError(t, json.Unmarshal([]byte(rt.NetFee), &paid))
					require.LessOrEqual(t, fee.Value, paid, "tx %s", rt.Hash)
				}
				tx, err := transaction.NewTransactionFromBytes(raw)
				require.NoError(t, err)
				for i := range tx.Witnesses {
					tx.Witnesses[i].InvocationScript = nil
				}
				stripped, err := tx.Bytes()
				require.NoError(t, err)
				var fee2 result.NetworkFee
				require.NoError(t, json.Unmarshal(n.result(t, "calculatenetworkfee", stripped), &fee2))
				require.Equal(t, fee.Value, fee2.Value, "tx %s without invocation scripts", rt.Hash)
			}
		}
	})
}
