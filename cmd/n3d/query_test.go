package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// runSub runs `n3d <group> args...` in-process with an empty stdin.
func runSub(t *testing.T, group string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := &env{stdout: &out, stderr: &errOut, stdin: strings.NewReader("")}
	code = run(ctx, append([]string{"n3d", group}, args...), e)
	return code, out.String(), errOut.String()
}

// mustSub runs `n3d <group> args...`, which must succeed quietly.
func mustSub(t *testing.T, group string, args ...string) string {
	t.Helper()
	code, out, errOut := runSub(t, group, args...)
	require.Equal(t, 0, code, "stdout: %s\nstderr: %s", out, errOut)
	require.Empty(t, errOut)
	return out
}

// mustFailSub runs `n3d <group> args...`, which must exit 1 saying msg.
func mustFailSub(t *testing.T, msg, group string, args ...string) {
	t.Helper()
	code, out, errOut := runSub(t, group, args...)
	require.Equal(t, 1, code, "stdout: %s\nstderr: %s", out, errOut)
	require.Contains(t, errOut, msg)
}

func runQuery(t *testing.T, args ...string) (int, string, string) { return runSub(t, "query", args...) }
func mustQuery(t *testing.T, args ...string) string               { return mustSub(t, "query", args...) }
func mustFailQuery(t *testing.T, msg string, args ...string)      { mustFailSub(t, msg, "query", args...) }

// TestQueryAgainstNode runs every verb against a single-validator privnet
// where the validator key is a candidate voted for by the multisig.
func TestQueryAgainstNode(t *testing.T) {
	n := startWalletNode(t, true)
	require.Eventually(t, func() bool { return n.r.n.Chain().BlockHeight() >= 1 }, 20*time.Second, 10*time.Millisecond)
	r := n.r.url
	pub := n.key.PublicKey().String()
	// The registration price (1000 GAS) and some NEO for the key's account.
	transfer := requireHalted(t, n.run(t, "", "nep17", "multitransfer", "--wallet-config", n.cfg, "--from", n.multi,
		"--force", "--await", "GAS:"+n.single+":1010", "NEO:"+n.single+":10"))
	requireHalted(t, n.run(t, "", "candidate", "register", "--wallet-config", n.cfg, "-a", n.single, "--force", "--await"))
	vote := requireHalted(t, n.run(t, "", "candidate", "vote", "--wallet-config", n.cfg, "-a", n.multi, "-c", pub,
		"--force", "--await"))

	require.Equal(t, pub+"\n", mustQuery(t, "committee", "-r", r))

	state := mustQuery(t, "voter", "-r", r, n.multi)
	require.Equal(t, mustRun(t, "", "candidate", "getstate", "-r", r, "-a", n.multi), state)
	require.True(t, strings.HasPrefix(state, "\tVoted: "+pub+" ("+n.single+")\n\tAmount : "), state)
	require.Equal(t, "\tVoted: null\n\tAmount : 0\n\tBlock: 0\n",
		mustQuery(t, "voter", "-r", r, address.Uint160ToString(util.Uint160{1, 2, 3})))

	_, votes, _ := strings.Cut(state, "\tAmount : ")
	votes, _, _ = strings.Cut(votes, "\n")
	width := max(len("Votes"), len(votes)) + 2
	require.Equal(t, fmt.Sprintf("%-68s%-*s%-11s%s\n%-68s%-*s%-11s%s\n", "Key", width, "Votes", "Committee", "Consensus",
		pub, width, votes, "true", "true"), mustQuery(t, "candidates", "-r", r))

	before := n.r.n.Chain().BlockHeight()
	height := mustQuery(t, "height", "-s", "5s", "--rpc-endpoint", r)
	latest, ok := strings.CutPrefix(height, "Latest block: ")
	require.True(t, ok, height)
	latest, rest, _ := strings.Cut(latest, "\n")
	require.Regexp(t, `^Validated state: [0-9]+\n$`, rest)
	h, err := strconv.ParseUint(latest, 10, 32)
	require.NoError(t, err)
	require.GreaterOrEqual(t, uint32(h), before)
	require.LessOrEqual(t, uint32(h), n.r.n.Chain().BlockHeight())

	n.checkQueryTx(t, transfer, vote)
}

// checkQueryTx prints a transfer and, verbose, a vote.
func (n *walletNode) checkQueryTx(t *testing.T, transfer, vote util.Uint256) {
	r := n.r.url
	var meta struct {
		BlockHash util.Uint256 `json:"blockhash"`
	}
	require.NoError(t, json.Unmarshal(n.r.result("getrawtransaction", transfer.String(), true), &meta))
	want := "Hash:\t\t\t" + transfer.StringBE() + "\nOnChain:\t\ttrue\nBlockHash:\t\t" + meta.BlockHash.StringBE() +
		"\nSuccess:\t\ttrue\n"
	require.Equal(t, want, mustQuery(t, "tx", "-r", r, transfer.StringBE()))
	require.Equal(t, want, mustQuery(t, "tx", "-r", r, transfer.String()))

	raw := n.r.result("getrawtransaction", vote.String(), true)
	tx := new(transaction.Transaction)
	require.NoError(t, json.Unmarshal(raw, tx))
	require.NoError(t, json.Unmarshal(raw, &meta))
	out := mustQuery(t, "tx", "-v", "-r", r, vote.StringBE())
	head, ops, ok := strings.Cut(out, "INDEX ")
	require.True(t, ok, out)
	require.Equal(t, "Hash:\t\t\t"+vote.StringBE()+"\nOnChain:\t\ttrue\nBlockHash:\t\t"+meta.BlockHash.StringBE()+
		"\nSuccess:\t\ttrue\nSigner:\t\t\t"+n.multi+" (CalledByEntry)\nSystemFee:\t\t"+util.Fixed8(tx.SystemFee).String()+
		" GAS\nNetworkFee:\t\t"+util.Fixed8(tx.NetworkFee).String()+" GAS\nScript:\t\t\t"+
		base64.StdEncoding.EncodeToString(tx.Script)+"\n", head)
	lines := strings.Split(strings.TrimSuffix(ops, "\n"), "\n")
	require.Regexp(t, `^0 +PUSHDATA1 +`+n.key.PublicKey().String()+` +<<$`, lines[1])
	require.Contains(t, ops, `("vote")`)
	require.Regexp(t, `SYSCALL +System\.Contract\.Call \(627d5b52\)$`, lines[len(lines)-2])
	require.Regexp(t, `ASSERT *$`, lines[len(lines)-1])
}

// TestQueryErrors: wrong arguments and failing nodes give a message on
// stderr and exit code 1.
func TestQueryErrors(t *testing.T) {
	n := startWalletNode(t, false)
	r := n.r.url
	mustFailQuery(t, "transaction hash is missing", "tx", "-r", r)
	mustFailQuery(t, "only one transaction hash is accepted", "tx", "-r", r, "00", "11")
	mustFailQuery(t, "invalid tx hash: notahash", "tx", "-r", r, "notahash")
	mustFailQuery(t, "Unknown transaction", "tx", "-r", r, util.Uint256{1}.StringBE())
	mustFailQuery(t, "no address specified", "voter", "-r", r)
	mustFailQuery(t, "this command only accepts one address", "voter", "-r", r, n.single, n.multi)
	mustFailQuery(t, "wrong address: Nbad", "voter", "-r", r, "Nbad")
	for _, verb := range []string{"candidates", "committee", "height"} {
		mustFailQuery(t, `Required flag "rpc-endpoint" not set`, verb)
		mustFailQuery(t, "unexpected arguments", verb, "-r", r, "extra")
		mustFailQuery(t, "connection refused", verb, "-r", "http://"+freeAddr(t))
	}
	mustFailQuery(t, `Required flag "rpc-endpoint" not set`, "tx", util.Uint256{1}.StringBE())
	mustFailQuery(t, "required flag --rpc-endpoint is empty", "voter", "-r", "", n.single)
}

// fakeNode answers the methods in results (JSON) and "Method not found"
// to any other.
func fakeNode(t *testing.T, results map[string]string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		require.NoError(t, json.Unmarshal(body, &req))
		res, ok := results[req.Method]
		if !ok {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, res)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestQueryFakeNode: the candidates' order and table (compared with
// neo-go 0.120.0's output for the same answers), a height without
// getstateheight, a transaction in the memory pool.
func TestQueryFakeNode(t *testing.T) {
	r := fakeNode(t, map[string]string{
		"getversion":    `{"protocol":{"network":56753,"msperblock":1000}}`,
		"getblockcount": `42`,
		"getcommittee": `["02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2",` +
			`"03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699",` +
			`"02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e"]`,
		"getcandidates": `[{"publickey":"02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e","votes":"5","active":false},` +
			`{"publickey":"03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699","votes":"100","active":true},` +
			`{"publickey":"02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62","votes":"5","active":false},` +
			`{"publickey":"02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2","votes":"12345678901","active":true},` +
			`{"publickey":"031ca825cf01c649ae357f4d97570c5884286f8b34231f2652776b30a10f370886","votes":"1","active":false}]`,
		"getrawtransaction": faultTxJSON,
	})
	require.Equal(t, strings.Join([]string{
		"Key                                                                 Votes        Committee  Consensus",
		"031ca825cf01c649ae357f4d97570c5884286f8b34231f2652776b30a10f370886  1            false      false",
		"02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e  5            true       false",
		"02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62  5            false      false",
		"03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699  100          true       true",
		"02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2  12345678901  true       true",
	}, "\n")+"\n", mustQuery(t, "candidates", "-r", r))
	require.Equal(t, "Latest block: 41\n", mustQuery(t, "height", "-r", r))
	// Not in a block: no application log is asked for (the node has none).
	require.Equal(t, "Hash:\t\t\t591aec389f5ca2b48bb433361156aae22a3871911cf548bd921847984bb9a2af\nOnChain:\t\tfalse\n"+
		"ValidUntil:\t\t19\n", mustQuery(t, "tx", "-r", r, "591aec389f5ca2b48bb433361156aae22a3871911cf548bd921847984bb9a2af"))
	mustFailQuery(t, "Method not found", "voter", "-r", r, "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP")
}
