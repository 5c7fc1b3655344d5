package result

import "github.com/n3d-io/n3d/pkg/util"

// NEP11Balances is the getnep11balances answer.
type NEP11Balances struct {
	Balances []NEP11AssetBalance `json:"balance"`
	Address  string              `json:"address"`
}

// NEP11AssetBalance is one token contract of getnep11balances.
type NEP11AssetBalance struct {
	Asset    util.Uint160        `json:"assethash"`
	Decimals int                 `json:"decimals,string"`
	Name     string              `json:"name"`
	Symbol   string              `json:"symbol"`
	Tokens   []NEP11TokenBalance `json:"tokens"`
}

// NEP11TokenBalance is one token of an account: its ID (hex), the amount
// ("1" for non-divisible tokens) and the last block with a transfer of
// the token contract to or from the account.
type NEP11TokenBalance struct {
	ID          string `json:"tokenid"`
	Amount      string `json:"amount"`
	LastUpdated uint32 `json:"lastupdatedblock"`
}

// NEP11Transfers is the getnep11transfers answer.
type NEP11Transfers struct {
	Sent     []NEP11Transfer `json:"sent"`
	Received []NEP11Transfer `json:"received"`
	Address  string          `json:"address"`
}

// NEP11Transfer is one transfer of getnep11transfers: a NEP17Transfer
// with the token ID (hex).
type NEP11Transfer struct {
	Timestamp   uint64       `json:"timestamp"`
	Asset       util.Uint160 `json:"assethash"`
	Address     string       `json:"transferaddress,omitzero"`
	ID          string       `json:"tokenid"`
	Amount      string       `json:"amount"`
	Index       uint32       `json:"blockindex"`
	NotifyIndex uint32       `json:"transfernotifyindex"`
	TxHash      util.Uint256 `json:"txhash"`
}
