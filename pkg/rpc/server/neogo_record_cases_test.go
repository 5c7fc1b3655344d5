package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Accounts and contracts of the testblocks chain.
const (
	recUnknownHash = "0x0000000000000000000000000000000000000000000000000000000000000001"
	recNoContract  = "0x0000000000000000000000000000000000000001"
	recNEO         = "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"
	recGAS         = "0xd2a4cff31913016155e38e474a2c06d08be276cf"
	recNNS         = "0xc17da07ba65ba62a07134c171cf8c50d02f17995"
	recNFSO        = "0x5635edb13674bb6f09d18b09fce6b69aee206931"
	recVerify      = "0x7f732d9aa2e877a36142344822826721522f2524"
	recVerifyArgs  = "0xe7c553997feb14dc60b226a662b72f9a98bcdd41"
	recRubl        = "0x8cf5e69031cee431d780dd9e4b024bf5bb6e8eba"
	recAddrA       = "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"
	// recFirstTx is the first transaction of block 1.
	recFirstTx   = "0xf01e1986ee63cc9437516745cfb7f57108432d5493a7c159a1082900c6afb316"
	recNoSession = "de9e6b83-430b-4cac-b41d-f32be41f169f"
)

func recB64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// staticCases are the requests that need no transaction: parameter
// errors and unknown records of every method, and the protocol errors.
func (g *recorder) staticCases() {
	g.protocolCases()
	g.blockCases()
	g.txCases()
	g.contractCases()
	g.stateCases()
	g.tokenCases()
	g.invokeCases()
	g.sessionCases()
	g.historicCases()
}

func (g *recorder) protocolCases() {
	g.raw("bad JSON", "", `{"jsonrpc":"2.0","id":1,"method":`)
	g.raw("not an object", "", `"getblockcount"`)
	g.raw("empty body", "", ``)
	g.raw("bad version", "", `{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[]}`)
	g.raw("no version", "", `{"id":1,"method":"getblockcount","params":[]}`)
	g.raw("unknown method", "", `{"jsonrpc":"2.0","id":1,"method":"nosuchmethod","params":[]}`)
	g.raw("params not an array", "", `{"jsonrpc":"2.0","id":1,"method":"getblockhash","params":{"a":1}}`)
	g.raw("GET", "GET", ``)
	g.raw("empty batch", "", `[]`)
	g.raw("batch of errors", "", `[{"jsonrpc":"2.0","id":1,"method":"nosuchmethod","params":[]},`+
		`{"jsonrpc":"2.0","id":2,"method":"getblockhash","params":["x"]},`+
		`{"jsonrpc":"2.0","id":3,"method":"getblockcount","params":[]}]`)
	g.raw("batch with a bad version", "", `[{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":[]},`+
		`{"jsonrpc":"3.0","id":2,"method":"getblockcount","params":[]}]`)
	g.raw("batch with a non-object", "", `[1,{"jsonrpc":"2.0","id":2,"method":"getblockcount","params":[]}]`)
	g.raw("string id", "", `{"jsonrpc":"2.0","id":"abc","method":"getblockhash","params":[]}`)
	// The methods without parameters ignore extra ones (no error path).
	for _, m := range []string{"getbestblockhash", "getblockcount", "getblockheadercount", "getcommittee",
		"getnextblockvalidators", "getcandidates", "getconnectioncount", "getpeers", "getversion",
		"getnativecontracts", "getstateheight"} {
		g.call("extra parameter", m, "x")
	}
}

func (g *recorder) blockCases() {
	top := int(g.height)
	g.call("no params", "getblockhash")
	g.call("string", "getblockhash", "x")
	g.call("negative", "getblockhash", -1)
	g.call("above height", "getblockhash", top+1)
	g.call("no params", "getblock")
	g.call("above height", "getblock", top+1)
	g.call("unknown hash", "getblock", recUnknownHash, true)
	g.call("unknown hash raw", "getblock", recUnknownHash)
	g.call("bad hash", "getblock", "0xzz")
	g.call("bool", "getblock", true)
	g.call("no params", "getblockheader")
	g.call("unknown hash", "getblockheader", recUnknownHash)
	g.call("above height", "getblockheader", top+1, true)
	g.call("bad hash", "getblockheader", "0xzz")
	g.call("no params", "getblocksysfee")
	g.call("above height", "getblocksysfee", top+1)
	g.call("string", "getblocksysfee", "x")
	g.call("no params", "getblocknotifications")
	g.call("string", "getblocknotifications", 1, "x")
	g.call("unknown hash", "getblocknotifications", recUnknownHash)
	g.call("above height", "getblocknotifications", top+1)
	g.call("bad filter", "getblocknotifications", 1, map[string]any{"contract": "x"})
	g.call("no params", "submitblock")
	g.call("not base64", "submitblock", "!!")
	g.call("garbage", "submitblock", recB64([]byte{0, 1, 2}))
	g.call("number", "submitblock", 1)
	g.call("too big", "submitblock", strings.Repeat("A", 349532))
}

func (g *recorder) txCases() {
	g.call("no params", "getrawtransaction")
	g.call("bad hash", "getrawtransaction", "nohash")
	g.call("unknown", "getrawtransaction", recUnknownHash, true)
	g.call("unknown raw", "getrawtransaction", recUnknownHash)
	g.call("number", "getrawtransaction", 1)
	g.call("no params", "gettransactionheight")
	g.call("number", "gettransactionheight", 1)
	g.call("unknown", "gettransactionheight", recUnknownHash)
	g.call("no params", "getapplicationlog")
	g.call("bad hash", "getapplicationlog", "x")
	g.call("bad trigger", "getapplicationlog", recUnknownHash, "NoSuchTrigger")
	g.call("unknown", "getapplicationlog", recUnknownHash)
	g.call("unknown with trigger", "getapplicationlog", recUnknownHash, "Application")
	g.call("no params", "sendrawtransaction")
	g.call("not base64", "sendrawtransaction", "!!")
	g.call("garbage", "sendrawtransaction", recB64([]byte{0, 1, 2}))
	g.call("number", "sendrawtransaction", 1)
	g.call("array", "sendrawtransaction", []any{})
	g.call("too big", "sendrawtransaction", strings.Repeat("A", 136540))
	g.call("no params", "getrawmempool", "x")
}

func (g *recorder) contractCases() {
	g.call("no params", "getcontractstate")
	g.call("unknown hash", "getcontractstate", recNoContract)
	g.call("unknown name", "getcontractstate", "NoSuchNative")
	g.call("unknown id", "getcontractstate", 12345)
	g.call("unknown negative id", "getcontractstate", -100)
	g.call("big number", "getcontractstate", "99999999999")
	g.call("bool", "getcontractstate", true)
	g.call("no params", "getstorage")
	g.call("one param", "getstorage", recNEO)
	g.call("unknown contract", "getstorage", recNoContract, recB64([]byte{1}))
	g.call("bad key", "getstorage", -5, "!!")
	g.call("unknown key", "getstorage", -5, recB64([]byte{0xff, 0xfe}))
	g.call("no params", "findstorage")
	g.call("one param", "findstorage", -5)
	g.call("bad prefix", "findstorage", -5, "!!")
	g.call("bad start", "findstorage", -5, "", "x")
	g.call("negative start", "findstorage", -5, "", -1)
	g.call("unknown contract", "findstorage", recNoContract, "")
	g.call("no params", "invokecontractverify")
	g.call("unknown", "invokecontractverify", recNoContract)
	g.call("no verify", "invokecontractverify", "neotoken")
	g.call("bad args", "invokecontractverify", "neotoken", "x")
	g.call("bad signers", "invokecontractverify", recVerify, []any{}, "x")
	g.call("bad contract", "invokecontractverify", "x")
	g.call("no params", "validateaddress")
	g.call("no params", "getunclaimedgas")
	g.call("bad address", "getunclaimedgas", "notanaddress")
	g.call("number", "getunclaimedgas", 1)
}

func (g *recorder) stateCases() {
	top := int(g.height)
	g.call("no params", "getstateroot")
	g.call("string", "getstateroot", "x")
	g.call("above height", "getstateroot", top+1)
	g.call("unknown hash", "getstateroot", recUnknownHash)
	g.call("negative", "getstateroot", -1)
	g.call("no params", "getstate")
	g.call("bad root", "getstate", "x", recNoContract, "")
	g.call("bad contract", "getstate", g.root, "x", "")
	g.call("bad key", "getstate", g.root, recNoContract, "!!")
	g.call("unknown contract", "getstate", g.root, recNoContract, "")
	g.call("unknown key", "getstate", g.root, recNEO, recB64([]byte{0xff}))
	g.call("unknown root", "getstate", recUnknownHash, recNEO, recB64([]byte{0xff}))
	g.call("no params", "getproof")
	g.call("bad root", "getproof", "x", recNEO, "")
	g.call("bad contract", "getproof", g.root, "x", "")
	g.call("bad key", "getproof", g.root, recNEO, "!!")
	g.call("unknown key", "getproof", g.root, recNEO, recB64([]byte{0xff}))
	g.call("unknown root", "getproof", recUnknownHash, recNEO, "")
	g.call("unknown contract", "getproof", g.root, recNoContract, "")
	g.call("no params", "verifyproof")
	g.call("one param", "verifyproof", g.root)
	g.call("bad proof base64", "verifyproof", g.root, "!!")
	g.call("bad proof", "verifyproof", g.root, recB64([]byte{0xff}))
	g.call("bad root", "verifyproof", "x", recB64([]byte{0xff}))
	g.call("no params", "findstates")
	g.call("two params", "findstates", g.root, recNoContract)
	g.call("bad root", "findstates", "x", recNEO, "")
	g.call("bad contract", "findstates", g.root, "x", "")
	g.call("bad prefix", "findstates", g.root, recNEO, "!!")
	g.call("key outside prefix", "findstates", g.root, recNEO, "AQ==", "Ag==")
	g.call("bad count", "findstates", g.root, recNEO, "", "", "x")
	g.call("bad start", "findstates", g.root, recNEO, "", "!!")
	g.call("unknown contract", "findstates", g.root, recNoContract, "")
	g.call("unknown root", "findstates", recUnknownHash, recNEO, "")
}

func (g *recorder) tokenCases() {
	g.call("no params", "getnep17balances")
	g.call("bad address", "getnep17balances", "x")
	g.call("no params", "getnep17transfers")
	g.call("bad address", "getnep17transfers", "x")
	g.call("zero limit", "getnep17transfers", recNoContract, 0, 1, 0)
	g.call("limit too big", "getnep17transfers", recNoContract, 0, 1, 1001)
	g.call("negative page", "getnep17transfers", recNoContract, 0, 1, 10, -1)
	g.call("bad start", "getnep17transfers", recNoContract, "x")
	g.call("bad end", "getnep17transfers", recNoContract, 0, "x")
	g.call("end before start", "getnep17transfers", recNoContract, 10, 1)
	g.call("no params", "getnep11balances")
	g.call("bad address", "getnep11balances", "x")
	g.call("no params", "getnep11transfers")
	g.call("limit too big", "getnep11transfers", recNoContract, 0, 1, 1001)
	g.call("no params", "getnep11properties")
	g.call("one param", "getnep11properties", recNFSO)
	g.call("bad token", "getnep11properties", recNoContract, "zz")
	g.call("unknown contract", "getnep11properties", recNoContract, "00")
	g.call("unknown token", "getnep11properties", recNFSO, "00")
	g.call("bad contract", "getnep11properties", "x", "00")
}

func (g *recorder) invokeCases() {
	g.call("no params", "invokefunction")
	g.call("one param", "invokefunction", recNoContract)
	g.call("bad params", "invokefunction", "neotoken", "symbol", "notanarray")
	g.call("bad integer", "invokefunction", "neotoken", "symbol",
		[]any{map[string]any{"type": "Integer", "value": "x"}})
	g.call("void param", "invokefunction", "neotoken", "symbol", []any{map[string]any{"type": "Void"}})
	g.call("bad signer", "invokefunction", "neotoken", "symbol", []any{}, []any{map[string]any{"account": "x"}})
	g.call("bad scope", "invokefunction", "neotoken", "symbol", []any{},
		[]any{map[string]any{"account": recNoContract, "scopes": "Nope"}})
	g.call("unknown contract", "invokefunction", "nosuchcontract", "symbol")
	g.call("bad contract", "invokefunction", 1.5, "symbol")
	g.call("unknown hash", "invokefunction", recNoContract, "symbol")
	g.call("bad verbose", "invokefunction", "neotoken", "symbol", []any{}, []any{}, "x")
	g.call("no params", "invokescript")
	g.call("not base64", "invokescript", "!!")
	g.call("bad signers", "invokescript", "QA==", "notanarray")
	g.call("too many signers", "invokescript", "QA==", make([]string, 17))
	g.call("empty script", "invokescript", "")
	g.call("bad witness", "invokescript", "QA==", []any{map[string]any{"account": recNoContract, "invocation": "!!"}})
	g.call("no params", "calculatenetworkfee")
	g.call("not base64", "calculatenetworkfee", "!!")
	g.call("garbage", "calculatenetworkfee", recB64([]byte{0, 1, 2}))
	g.call("number", "calculatenetworkfee", 1)
	g.call("unknown method", "getversion2")
}

func (g *recorder) sessionCases() {
	g.call("no params", "traverseiterator")
	g.call("bad session", "traverseiterator", "x", "y", 1)
	g.call("bad iterator", "traverseiterator", recNoSession, "y", 1)
	g.call("bad count", "traverseiterator", recNoSession, recNoSession, "x")
	g.call("count too big", "traverseiterator", recNoSession, recNoSession, 1000000)
	g.call("unknown session", "traverseiterator", recNoSession, recNoSession, 1)
	g.call("no params", "terminatesession")
	g.call("bad session", "terminatesession", "x")
	g.call("unknown session", "terminatesession", recNoSession)
	g.sessionCall("unknown iterator", "traverseiterator", "$SESSION", recNoSession, 1)
	g.sessionCall("count too big in a session", "traverseiterator", "$SESSION", "$ITERATOR", 101)
	g.sessionCall("zero count", "traverseiterator", "$SESSION", "$ITERATOR", 0)
	g.sessionCall("negative count", "traverseiterator", "$SESSION", "$ITERATOR", -1)
	g.sessionCall("iterator of another session", "traverseiterator", recNoSession, "$ITERATOR", 1)
}

// sessionCall adds a case whose request names the session and iterator of
// a fresh recSessionQuery invocation ($SESSION, $ITERATOR).
func (g *recorder) sessionCall(name, method string, params ...any) {
	if g.err != nil {
		return
	}
	tmpl := recBody(method, params...)
	sess, iter, err := recOpenSession(func(b string) (json.RawMessage, error) { return g.post(http.MethodPost, b) })
	if err != nil {
		g.err = fmt.Errorf("%s: %w", name, err)
		return
	}
	resp, err := g.post(http.MethodPost, strings.NewReplacer("$SESSION", sess, "$ITERATOR", iter).Replace(tmpl))
	if err != nil {
		g.err = fmt.Errorf("%s: %w", name, err)
		return
	}
	g.cases = append(g.cases, neoGoCase{Name: method + ": " + name, SessionQuery: recSessionQuery, Request: tmpl, Response: resp})
}

// recOpenSession runs recSessionQuery through post and returns the session and
// the iterator of its result.
func recOpenSession(post func(string) (json.RawMessage, error)) (session, iterator string, err error) {
	raw, err := post(recSessionQuery)
	if err != nil {
		return "", "", err
	}
	var r struct {
		Result struct {
			Session string `json:"session"`
			Stack   []struct {
				ID string `json:"id"`
			} `json:"stack"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", "", err
	}
	if r.Result.Session == "" || len(r.Result.Stack) != 1 || r.Result.Stack[0].ID == "" {
		return "", "", fmt.Errorf("no session in %s", raw)
	}
	return r.Result.Session, r.Result.Stack[0].ID, nil
}

func (g *recorder) historicCases() {
	top := int(g.height)
	g.call("no params", "invokefunctionhistoric")
	g.call("bad root", "invokefunctionhistoric", "x", "neotoken", "symbol")
	g.call("above height", "invokefunctionhistoric", top+1, "neotoken", "symbol")
	g.call("unknown root", "invokefunctionhistoric", recUnknownHash, "neotoken", "symbol")
	g.call("no params", "invokescripthistoric")
	g.call("one param", "invokescripthistoric", 1)
	g.call("bad script", "invokescripthistoric", 1, "!!")
	g.call("above height", "invokescripthistoric", top+1, "QA==")
	g.call("no params", "invokecontractverifyhistoric")
	g.call("above height", "invokecontractverifyhistoric", top+1, "neotoken")
	g.call("unknown contract", "invokecontractverifyhistoric", 1, recNoContract)
	g.call("no params", "getstoragehistoric")
	g.call("bad root", "getstoragehistoric", "x", 1, "AQ==")
	g.call("unknown key", "getstoragehistoric", g.root, recNEO, recB64([]byte{0xff}))
	g.call("unknown contract", "getstoragehistoric", g.root, recNoContract, "AQ==")
	g.call("no params", "findstoragehistoric")
	g.call("bad prefix", "findstoragehistoric", g.root, 1, "!!")
	g.call("bad root", "findstoragehistoric", "x", recNEO, "")
	g.call("unknown contract", "findstoragehistoric", g.root, recNoContract, "")
}
