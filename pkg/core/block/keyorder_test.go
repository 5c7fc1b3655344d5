package block_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Key orders of the reference's ToJson methods (C# neo Header, Block,
// Transaction, Signer, Witness): objects are told apart by a key only
// they have.
var keyOrders = []struct {
	marker string
	order  []string
}{
	{"tx", []string{"hash", "size", "version", "previousblockhash", "merkleroot", "time", "nonce", "index", "primary", "nextconsensus", "witnesses", "tx"}},
	{"previousblockhash", []string{"hash", "size", "version", "previousblockhash", "merkleroot", "time", "nonce", "index", "primary", "nextconsensus", "witnesses"}},
	{"sysfee", []string{"hash", "size", "version", "nonce", "sender", "sysfee", "netfee", "validuntilblock", "signers", "attributes", "script", "witnesses"}},
	{"account", []string{"account", "scopes", "allowedcontracts", "allowedgroups", "rules"}},
	{"invocation", []string{"invocation", "verification"}},
	{"action", []string{"action", "condition"}},
}

// checkKeyOrder walks data and checks every recognised object's keys come
// in the reference's order.
func checkKeyOrder(t testing.TB, data []byte) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	walkOrdered(t, d)
}

func walkOrdered(t testing.TB, d *json.Decoder) {
	tok, err := d.Token()
	require.NoError(t, err)
	delim, ok := tok.(json.Delim)
	if !ok {
		return
	}
	switch delim {
	case '[':
		for d.More() {
			walkOrdered(t, d)
		}
	case '{':
		var keys []string
		for d.More() {
			k, err := d.Token()
			require.NoError(t, err)
			keys = append(keys, k.(string))
			walkOrdered(t, d)
		}
		checkObjectKeys(t, keys)
	}
	_, err = d.Token() // closing delimiter
	require.NoError(t, err)
}

func checkObjectKeys(t testing.TB, keys []string) {
	has := make(map[string]bool, len(keys))
	for _, k := range keys {
		has[k] = true
	}
	for _, ko := range keyOrders {
		if !has[ko.marker] {
			continue
		}
		var want []string
		for _, k := range ko.order {
			if has[k] {
				want = append(want, k)
			}
		}
		require.Equal(t, want, keys, "key order")
		return
	}
}
