package server

import (
	"encoding/base64"
	"testing"

	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

// TestMethodErrors calls every method with bad, unknown or out-of-range
// parameters and checks the reference error code.
func TestMethodErrors(t *testing.T) {
	n := node(t, "testblocks")
	const (
		bad     = result.InvalidParamsCode
		height  = result.UnknownHeightCode
		blk     = result.UnknownBlockCode
		txc     = result.UnknownTransactionCode
		unknown = "0x0000000000000000000000000000000000000000000000000000000000000001"
		noHash  = "0x0000000000000000000000000000000000000001"
	)
	top := int(n.chain.BlockHeight())
	root := n.chain.CurrentStateRoot().String()
	b64 := base64.StdEncoding.EncodeToString
	cases := []struct {
		code   int64
		method string
		params []any
	}{
		{bad, "getblockhash", nil},
		{bad, "getblockhash", []any{"x"}},
		{height, "getblockhash", []any{-1}},
		{height, "getblockhash", []any{top + 1}},
		{bad, "getblock", nil},
		{height, "getblock", []any{top + 1}},
		{blk, "getblock", []any{unknown, true}},
		{bad, "getblock", []any{"0xzz"}},
		{bad, "getblockheader", nil},
		{blk, "getblockheader", []any{unknown}},
		{height, "getblockheader", []any{top + 1, true}},
		{height, "getblocksysfee", []any{top + 1}},
		{bad, "getrawtransaction", nil},
		{bad, "getrawtransaction", []any{"nohash"}},
		{txc, "getrawtransaction", []any{unknown, true}},
		{bad, "gettransactionheight", []any{1}},
		{txc, "gettransactionheight", []any{unknown}},
		{bad, "getapplicationlog", nil},
		{bad, "getapplicationlog", []any{unknown, "NoSuchTrigger"}},
		{result.UnknownScriptContainerCode, "getapplicationlog", []any{unknown}},
		{bad, "getcontractstate", nil},
		{result.UnknownContractCode, "getcontractstate", []any{noHash}},
		{bad, "getcontractstate", []any{"NoSuchNative"}},
		{result.UnknownContractCode, "getcontractstate", []any{12345}},
		{bad, "getcontractstate", []any{"99999999999"}},
		{bad, "getstorage", nil},
		{result.UnknownContractCode, "getstorage", []any{noHash, b64([]byte{1})}},
		{bad, "getstorage", []any{-5, "!!"}},
		{result.UnknownStorageItemCode, "getstorage", []any{-5, b64([]byte{0xff, 0xfe})}},
		{bad, "findstorage", []any{-5}},
		{bad, "findstorage", []any{-5, "!!"}},
		{bad, "findstorage", []any{-5, "", "x"}},
		{bad, "getstateroot", nil},
		{result.UnknownStateRootCode, "getstateroot", []any{"x"}},
		{result.UnknownStateRootCode, "getstateroot", []any{top + 1}},
		{result.UnknownStateRootCode, "getstateroot", []any{unknown}},
		{bad, "getstate", []any{"x", noHash, ""}},
		{bad, "getstate", []any{root, "x", ""}},
		{bad, "getstate", []any{root, noHash, "!!"}},
		{result.UnknownContractCode, "getstate", []any{root, noHash, ""}},
		{bad, "getstate", []any{root, "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", b64([]byte{0xff})}},
		{result.UnknownStorageItemCode, "getproof", []any{root, "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", b64([]byte{0xff})}},
		{result.UnknownContractCode, "getproof", []any{unknown, "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", ""}},
		{bad, "verifyproof", []any{root}},
		{bad, "verifyproof", []any{root, "!!"}},
		{bad, "verifyproof", []any{root, b64([]byte{0xff})}},
		{bad, "findstates", []any{root, noHash}},
		{bad, "findstates", []any{root, "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", "AQ==", "Ag=="}},
		{bad, "findstates", []any{root, "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", "", "", "x"}},
		{bad, "getunclaimedgas", nil},
		{bad, "getunclaimedgas", []any{"notanaddress"}},
		{bad, "getnep17balances", []any{"x"}},
		{bad, "getnep17transfers", nil},
		{bad, "getnep17transfers", []any{noHash, 0, 1, 0}},
		{bad, "getnep17transfers", []any{noHash, 0, 1, 1001}},
		{bad, "getnep17transfers", []any{noHash, 0, 1, 10, -1}},
		{bad, "getnep17transfers", []any{noHash, "x"}},
		{bad, "invokefunction", []any{noHash}},
		{bad, "invokefunction", []any{"neotoken", "symbol", "notanarray"}},
		{bad, "invokefunction", []any{"neotoken", "symbol", []any{map[string]any{"type": "Integer", "value": "x"}}}},
		{bad, "invokefunction", []any{"neotoken", "symbol", []any{map[string]any{"type": "Void"}}}},
		{bad, "invokefunction", []any{"neotoken", "symbol", []any{}, []any{map[string]any{"account": "x"}}}},
		{bad, "invokefunction", []any{"nosuchcontract", "symbol"}},
		{bad, "invokescript", nil},
		{bad, "invokecontainedscript", nil},
		{bad, "invokecontainedscript", []any{map[string]any{}}},
		{bad, "invokecontainedscript", []any{map[string]any{"script": "QA=="}, nil, "onpersist"}},
		{bad, "invokescript", []any{"!!"}},
		{bad, "invokescript", []any{"QA==", "notanarray"}},
		{bad, "invokescript", []any{"QA==", make([]string, 17)}},
		{result.UnknownContractCode, "invokecontractverify", []any{noHash}},
		{result.InvalidVerificationFuncCode, "invokecontractverify", []any{"neotoken"}},
		{bad, "invokecontractverify", []any{"neotoken", "x"}},
		{bad, "calculatenetworkfee", nil},
		{bad, "calculatenetworkfee", []any{"!!"}},
		{bad, "calculatenetworkfee", []any{b64([]byte{0, 1, 2})}},
		{bad, "sendrawtransaction", []any{"!!"}},
		{bad, "submitblock", []any{b64([]byte{0, 1, 2})}},
		{bad, "traverseiterator", []any{"x", "y", 1}},
		{bad, "getblocknotifications", []any{1, "x"}},
		{bad, "invokefunctionhistoric", []any{"x", "neotoken", "symbol"}},
		{bad, "invokescripthistoric", []any{1}},
		{bad, "getstoragehistoric", []any{"x", 1, "AQ=="}},
		{bad, "findstoragehistoric", []any{root, 1, "!!"}},
		{bad, "invokecontractverifyhistoric", []any{top + 1, "neotoken"}},
		{bad, "getnep11balances", []any{"x"}},
		{bad, "getnep11transfers", []any{noHash, 0, 1, 1001}},
		{bad, "getnep11properties", []any{noHash, "zz"}},
		{result.ExecutionFailedCode, "getnep11properties", []any{noHash, "00"}},
		{result.UnknownSessionCode, "terminatesession", []any{"de9e6b83-430b-4cac-b41d-f32be41f169f"}},
		{OracleDisabledCode, "submitoracleresponse", nil},
		// Without a notary pool (P2PSigExtensions off), as neo-go.
		{result.InternalErrorCode, "submitnotaryrequest", nil},
		{result.InternalErrorCode, "getrawnotarypool", nil},
		{result.InternalErrorCode, "getrawnotarytransaction", nil},
	}
	for _, c := range cases {
		n.fail(t, c.code, c.method, c.params...)
	}
	// Every method has a case.
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.method] = true
	}
	noParams := map[string]bool{"getbestblockhash": true, "getblockcount": true, "getblockheadercount": true,
		"getcommittee": true, "getnextblockvalidators": true, "getcandidates": true, "getconnectioncount": true,
		"getpeers": true, "getrawmempool": true, "getversion": true, "getnativecontracts": true, "getstateheight": true}
	for _, m := range Methods() {
		if noParams[m] {
			n.result(t, m, "ignored extra parameter")
			continue
		}
		require.True(t, covered[m] || m == "validateaddress", "no error case for %s", m)
	}
}
