package client

import (
	"context"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// GetVersion returns the node's version and protocol settings (network
// magic, block time, MaxValidUntilBlockIncrement, ...).
func (c *Client) GetVersion(ctx context.Context) (*result.Version, error) {
	v := new(result.Version)
	if err := c.Call(ctx, "getversion", nil, v); err != nil {
		return nil, err
	}
	return v, nil
}

// GetBlockCount returns the number of blocks (height + 1).
func (c *Client) GetBlockCount(ctx context.Context) (uint32, error) {
	var n uint32
	if err := c.Call(ctx, "getblockcount", nil, &n); err != nil {
		return 0, err
	}
	return n, nil
}

// signersParam returns the signers as the RPC form, or nil for none.
func signersParam(signers []transaction.Signer) []any {
	if len(signers) == 0 {
		return nil
	}
	return []any{signers}
}

// InvokeFunction test-runs method of contract with params and signers.
func (c *Client) InvokeFunction(ctx context.Context, contract util.Uint160, method string, params []Param,
	signers []transaction.Signer) (*Invoke, error) {
	if params == nil {
		params = []Param{}
	}
	r := new(Invoke)
	ps := append([]any{contract.String(), method, params}, signersParam(signers)...)
	if err := c.Call(ctx, "invokefunction", ps, r); err != nil {
		return nil, err
	}
	return r, nil
}

// InvokeScript test-runs script with signers.
func (c *Client) InvokeScript(ctx context.Context, script []byte, signers []transaction.Signer) (*Invoke, error) {
	r := new(Invoke)
	ps := append([]any{script}, signersParam(signers)...)
	if err := c.Call(ctx, "invokescript", ps, r); err != nil {
		return nil, err
	}
	return r, nil
}

// CalculateNetworkFee returns the network fee tx needs with its witnesses'
// verification scripts (invocation scripts may be empty).
func (c *Client) CalculateNetworkFee(ctx context.Context, tx *transaction.Transaction) (int64, error) {
	raw, err := tx.Bytes()
	if err != nil {
		return 0, fmt.Errorf("calculatenetworkfee: encode: %w", err)
	}
	var fee result.NetworkFee
	if err := c.Call(ctx, "calculatenetworkfee", []any{raw}, &fee); err != nil {
		return 0, err
	}
	return fee.Value, nil
}

// SendRawTransaction relays tx and returns the hash the node reports.
func (c *Client) SendRawTransaction(ctx context.Context, tx *transaction.Transaction) (util.Uint256, error) {
	raw, err := tx.Bytes()
	if err != nil {
		return util.Uint256{}, fmt.Errorf("sendrawtransaction: encode: %w", err)
	}
	var res struct {
		Hash util.Uint256 `json:"hash"`
	}
	if err := c.Call(ctx, "sendrawtransaction", []any{raw}, &res); err != nil {
		return util.Uint256{}, err
	}
	return res.Hash, nil
}

// GetNEP17Balances returns the NEP-17 balances of an account.
func (c *Client) GetNEP17Balances(ctx context.Context, acc util.Uint160) (*result.NEP17Balances, error) {
	b := new(result.NEP17Balances)
	if err := c.Call(ctx, "getnep17balances", []any{address.Uint160ToString(acc)}, b); err != nil {
		return nil, err
	}
	return b, nil
}

// GetNEP11Balances returns the NEP-11 balances of an account.
func (c *Client) GetNEP11Balances(ctx context.Context, acc util.Uint160) (*result.NEP11Balances, error) {
	b := new(result.NEP11Balances)
	if err := c.Call(ctx, "getnep11balances", []any{address.Uint160ToString(acc)}, b); err != nil {
		return nil, err
	}
	return b, nil
}

// GetApplicationLog returns the executions of a transaction or block.
func (c *Client) GetApplicationLog(ctx context.Context, h util.Uint256) (*ApplicationLog, error) {
	l := new(ApplicationLog)
	if err := c.Call(ctx, "getapplicationlog", []any{h.String()}, l); err != nil {
		return nil, err
	}
	return l, nil
}

// GetUnclaimedGas returns the GAS an account can claim.
func (c *Client) GetUnclaimedGas(ctx context.Context, acc util.Uint160) (*UnclaimedGas, error) {
	g := new(UnclaimedGas)
	if err := c.Call(ctx, "getunclaimedgas", []any{address.Uint160ToString(acc)}, g); err != nil {
		return nil, err
	}
	return g, nil
}

// GetCandidates returns the registered candidates with their votes.
func (c *Client) GetCandidates(ctx context.Context) ([]result.Candidate, error) {
	var cs []result.Candidate
	if err := c.Call(ctx, "getcandidates", nil, &cs); err != nil {
		return nil, err
	}
	return cs, nil
}

// SystemFee test-runs script with signers and returns the GAS it consumed
// (the system fee a transaction with this script needs); a run that does
// not HALT is an error wrapping ErrScriptFailed.
func (c *Client) SystemFee(ctx context.Context, script []byte, signers []transaction.Signer) (int64, error) {
	r, err := c.InvokeScript(ctx, script, signers)
	if err != nil {
		return 0, fmt.Errorf("test invocation: %w", err)
	}
	if err := r.Err(); err != nil {
		return 0, err
	}
	return r.GasConsumed, nil
}

// GetContractState returns the deployed contract (or native) of hash h.
func (c *Client) GetContractState(ctx context.Context, h util.Uint160) (*state.Contract, error) {
	cs := new(state.Contract)
	if err := c.Call(ctx, "getcontractstate", []any{h.String()}, cs); err != nil {
		return nil, err
	}
	return cs, nil
}
