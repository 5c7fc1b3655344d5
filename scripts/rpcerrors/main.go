// Command rpcerrors records a reference node's JSON-RPC answers to the
// error paths of every method, for pkg/rpc/server's TestNeoGoErrors.
//
// It runs against a neo-go node serving the testblocks reference chain
// (../shared/conformance/chains/testblocks, restored with `neo-go db
// restore`, no consensus, so the height stays 23): it builds the requests
// (the transactions of sendrawtransaction are signed here with the chain's
// well-known test keys, their network fee asked of the node), posts them
// in order and writes every request with the node's answer. The requests
// are replayed in the same order by the test, so stateful cases (a
// transaction pooled, then sent again) see the same pool.
//
// Usage (scripts/neogo-rpcerrors.sh runs it):
//
//	go run ./scripts/rpcerrors -rpc http://127.0.0.1:21332 -out pkg/rpc/server/testdata/neogo-errors.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// Case is one request and the reference's answer.
type Case struct {
	Name string `json:"name"`
	// HTTPMethod is POST when empty.
	HTTPMethod string `json:"httpMethod,omitempty"`
	// SessionQuery, when set, is an invocation made just before the
	// request, whose result's session and iterator the request's $SESSION
	// and $ITERATOR stand for.
	SessionQuery string          `json:"sessionQuery,omitempty"`
	Request      string          `json:"request"`
	Response     json.RawMessage `json:"response"`
}

// SessionQuery is the invocation that opens a session with an iterator
// (NEO's candidates) for the session cases.
const SessionQuery = `{"jsonrpc":"2.0","id":1,"method":"invokefunction","params":["neotoken","getAllCandidates"]}`

func main() {
	rpc := flag.String("rpc", "http://127.0.0.1:21332", "the reference node's RPC address")
	out := flag.String("out", "", "output file (stdout when empty)")
	flag.Parse()
	if err := run(*rpc, *out); err != nil {
		fmt.Fprintln(os.Stderr, "rpcerrors:", err)
		os.Exit(1)
	}
}

func run(rpc, out string) error {
	g := &gen{rpc: rpc}
	if err := g.chainInfo(); err != nil {
		return err
	}
	g.staticCases()
	if err := g.relayCases(); err != nil {
		return err
	}
	if err := g.netFeeCases(); err != nil {
		return err
	}
	if g.err != nil {
		return g.err
	}
	data, err := json.MarshalIndent(g.cases, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	fmt.Fprintf(os.Stderr, "rpcerrors: %d cases\n", len(g.cases))
	if out == "" {
		_, err = os.Stdout.Write(data)
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// gen collects the cases, posting each to the reference as it is added.
type gen struct {
	rpc    string
	cases  []Case
	err    error
	height uint32
	root   string
	magic  uint32
}

// post sends a raw body and returns the raw answer.
func (g *gen) post(method, body string) (json.RawMessage, error) {
	req, err := http.NewRequest(method, g.rpc, strings.NewReader(body))
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
		return nil, fmt.Errorf("%s: not JSON: %q", body, raw)
	}
	return buf.Bytes(), nil
}

// raw adds a case with a literal body.
func (g *gen) raw(name, httpMethod, body string) json.RawMessage {
	if g.err != nil {
		return nil
	}
	m := httpMethod
	if m == "" {
		m = http.MethodPost
	}
	resp, err := g.post(m, body)
	if err != nil {
		g.err = fmt.Errorf("%s: %w", name, err)
		return nil
	}
	g.cases = append(g.cases, Case{Name: name, HTTPMethod: httpMethod, Request: body, Response: resp})
	return resp
}

// body is a single request of method with params.
func body(method string, params ...any) string {
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
func (g *gen) call(name, method string, params ...any) json.RawMessage {
	return g.raw(method+": "+name, "", body(method, params...))
}

// query asks the reference without recording a case.
func (g *gen) query(method string, params ...any) (json.RawMessage, error) {
	raw, err := g.post(http.MethodPost, body(method, params...))
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

func (g *gen) chainInfo() error {
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
