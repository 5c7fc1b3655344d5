package server

// The recorder of testdata/neogo-errors.json: TestRecordNeoGoErrors runs
// only when given a reference node's RPC address (-neogo-record), as
// scripts/neogo-rpcerrors.sh does:
//
//	go test -count=1 -run '^TestRecordNeoGoErrors$' ./pkg/rpc/server \
//		-args -neogo-record http://127.0.0.1:21332
//
// The node must serve the testblocks reference chain
// (internal/conformance/testdata/chains/testblocks, restored with `neo-go db
// restore`, no consensus, so the height stays 23). The recorder builds the
// requests (the transactions of sendrawtransaction signed with the chain's
// well-known test keys, their network fee asked of the node), posts them
// in order and writes every request with the node's answer. TestNeoGoErrors
// replays them in the same order, so stateful cases (a transaction pooled,
// then sent again) see the same pool.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	neoGoRecord = flag.String("neogo-record", "", "record testdata/neogo-errors.json from the neo-go node at this RPC address")
	neoGoOut    = flag.String("neogo-out", filepath.Join("testdata", "neogo-errors.json"), "where -neogo-record writes")
)

// recSessionQuery is the invocation that opens a session with an iterator
// (NEO's candidates) for the session cases.
const recSessionQuery = `{"jsonrpc":"2.0","id":1,"method":"invokefunction","params":["neotoken","getAllCandidates"]}`

// TestRecordNeoGoErrors records the reference's answers (a tool run by
// scripts/neogo-rpcerrors.sh, skipped without -neogo-record).
func TestRecordNeoGoErrors(t *testing.T) {
	if *neoGoRecord == "" {
		t.Skip("records testdata/neogo-errors.json from a neo-go node: scripts/neogo-rpcerrors.sh")
	}
	g := &recorder{rpc: *neoGoRecord}
	require.NoError(t, g.chainInfo())
	g.staticCases()
	require.NoError(t, g.relayCases())
	require.NoError(t, g.netFeeCases())
	require.NoError(t, g.err)
	data, err := json.MarshalIndent(g.cases, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(*neoGoOut, append(data, '\n'), 0o644))
	t.Logf("%d cases written to %s", len(g.cases), *neoGoOut)
}

// recorder collects the cases, posting each to the reference as it is added.
type recorder struct {
	rpc    string
	cases  []neoGoCase
	err    error
	height uint32
	root   string
	magic  uint32
}

// post sends a raw body and returns the raw answer.
func (g *recorder) post(method, reqBody string) (json.RawMessage, error) {
	req, err := http.NewRequest(method, g.rpc, strings.NewReader(reqBody))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("%s: not JSON: %q", reqBody, raw)
	}
	return buf.Bytes(), nil
}

// raw adds a case with a literal body.
func (g *recorder) raw(name, httpMethod, reqBody string) json.RawMessage {
	if g.err != nil {
		return nil
	}
	m := httpMethod
	if m == "" {
		m = http.MethodPost
	}
	resp, err := g.post(m, reqBody)
	if err != nil {
		g.err = fmt.Errorf("%s: %w", name, err)
		return nil
	}
	g.cases = append(g.cases, neoGoCase{Name: name, HTTPMethod: httpMethod, Request: reqBody, Response: resp})
	return resp
}

// recBody is a single request of method with params.
func recBody(method string, params ...any) string {
	if params == nil {
		params = []any{}
	}
	ps, err := json.Marshal(params)
	if err != nil {
		panic(err) // the params are literals of this program
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, ps)
}

// call adds a case of one request.
func (g *recorder) call(name, method string, params ...any) json.RawMessage {
	return g.raw(method+": "+name, "", recBody(method, params...))
}

// query asks the reference without recording a case.
func (g *recorder) query(method string, params ...any) (json.RawMessage, error) {
	raw, err := g.post(http.MethodPost, recBody(method, params...))
	if err != nil {
		return nil, err
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.Error != nil {
		return nil, fmt.Errorf("%s: %s", method, r.Error)
	}
	return r.Result, nil
}

func (g *recorder) chainInfo() error {
	res, err := g.query("getblockcount")
	if err != nil {
		return err
	}
	var count uint32
	if err := json.Unmarshal(res, &count); err != nil {
		return err
	}
	g.height = count - 1
	res, err = g.query("getstateroot", g.height)
	if err != nil {
		return err
	}
	var sr struct {
		Root string `json:"roothash"`
	}
	if err := json.Unmarshal(res, &sr); err != nil {
		return err
	}
	g.root = sr.Root
	res, err = g.query("getversion")
	if err != nil {
		return err
	}
	var v struct {
		Protocol struct {
			Network uint32 `json:"network"`
		} `json:"protocol"`
	}
	if err := json.Unmarshal(res, &v); err != nil {
		return err
	}
	g.magic = v.Protocol.Network
	return nil
}
