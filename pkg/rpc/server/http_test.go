package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

func decodeResp(t testing.TB, raw []byte) rpcResponse {
	var r rpcResponse
	require.NoError(t, json.Unmarshal(raw, &r), string(raw))
	return r
}

func TestHTTPRequests(t *testing.T) {
	n := node(t, "testblocks")
	count := fmt.Sprint(n.chain.BlockHeight() + 1)

	raw := n.post(t, `{"jsonrpc":"2.0","id":"a","method":"getblockcount","params":[]}`)
	require.Equal(t, []string{"id", "jsonrpc", "result"}, keyOrder(t, raw))
	require.JSONEq(t, `{"id":"a","jsonrpc":"2.0","result":`+count+`}`, string(raw))

	// No params and no id: the id is null.
	require.JSONEq(t, `{"id":null,"jsonrpc":"2.0","result":`+count+`}`,
		string(n.post(t, `{"jsonrpc":"2.0","method":"getblockcount"}`)))

	// A batch keeps order and ids; errors stay per request.
	raw = n.post(t, `[{"jsonrpc":"2.0","id":1,"method":"getblockcount"},{"jsonrpc":"2.0","id":2,"method":"nosuch"},
		{"jsonrpc":"2.0","id":3,"method":"getblockhash","params":[0]}]`)
	var batch []rpcResponse
	require.NoError(t, json.Unmarshal(raw, &batch))
	require.Len(t, batch, 3)
	require.JSONEq(t, count, string(batch[0].Result))
	require.Equal(t, int64(result.MethodNotFoundCode), batch[1].Error.Code)
	require.Equal(t, "Method not found", batch[1].Error.Message)
	require.JSONEq(t, "3", string(batch[2].ID))
	require.Nil(t, batch[2].Error)

	errCases := []struct {
		body string
		code int64
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"getblockcount"`, result.ParseErrorCode},
		{`not json`, result.ParseErrorCode},
		{``, result.ParseErrorCode},
		{`[]`, result.ParseErrorCode},
		{`"string"`, result.ParseErrorCode},
		{`{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":{"a":1}}`, result.ParseErrorCode},
		{`{"jsonrpc":"1.0","id":1,"method":"getblockcount"}`, result.InvalidParamsCode},
		{`{"jsonrpc":"2.0","id":1,"method":"nosuch"}`, result.MethodNotFoundCode},
		{`{"jsonrpc":"2.0","id":1,"method":"getblockhash","params":["x"]}`, result.InvalidParamsCode},
	}
	for _, c := range errCases {
		r := decodeResp(t, n.post(t, c.body))
		require.NotNil(t, r.Error, c.body)
		require.Equal(t, c.code, r.Error.Code, c.body)
		require.Nil(t, r.Result)
	}
	// Parse errors are answered with id null and the reference message.
	raw = n.post(t, `{`)
	require.Equal(t, []string{"id", "jsonrpc", "error"}, keyOrder(t, raw))
	r := decodeResp(t, raw)
	require.Equal(t, "Parse error", r.Error.Message)
	require.JSONEq(t, "null", string(r.ID))
}

func TestHTTPLimits(t *testing.T) {
	n := node(t, "testblocks")
	one := `{"jsonrpc":"2.0","id":1,"method":"getblockcount"}`
	max := n.srv.cfg.MaxBatchSize
	full := "[" + strings.Repeat(one+",", max-1) + one + "]"
	var batch []rpcResponse
	require.NoError(t, json.Unmarshal(n.post(t, full), &batch))
	require.Len(t, batch, max)
	// neo-go's check comes before the element it counts: max+1 requests
	// pass, max+2 do not.
	r := decodeResp(t, n.post(t, "["+strings.Repeat(one+",", max+1)+one+"]"))
	require.Equal(t, int64(result.ParseErrorCode), r.Error.Code)
	require.Contains(t, r.Error.Data, "the number of requests in batch shouldn't exceed")

	// A body over MaxRequestBodyBytes.
	big := `{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":["` +
		strings.Repeat("a", n.srv.cfg.MaxRequestBodyBytes) + `"]}`
	r = decodeResp(t, n.post(t, big))
	require.Equal(t, int64(result.ParseErrorCode), r.Error.Code)
	require.Contains(t, r.Error.Data, "too large")

	// Only POST.
	resp, err := http.Get(n.http.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	var g rpcResponse
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&g))
	require.Equal(t, int64(result.InvalidParamsCode), g.Error.Code)
	require.Equal(t, "invalid method 'GET', please retry with 'POST'", g.Error.Data)
}

// TestRun serves on a loopback port, with header limits and metrics, and
// stops cleanly when the context ends.
func TestRun(t *testing.T) {
	n := node(t, "testblocks")
	reg := prometheus.NewRegistry()
	cfg := n.srv.cfg
	cfg.Addresses = []string{"127.0.0.1:0"}
	cfg.MaxRequestHeaderBytes = 4096
	cfg.Registerer = reg
	s, err := New(cfg, n.srv.chain)
	require.NoError(t, err)
	lns, err := s.listen()
	require.NoError(t, err)
	url := "http://" + lns[0].Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.serve(ctx, lns) }()
	// Start binds at once: the same address is taken now.
	cfg2 := cfg
	cfg2.Addresses = []string{lns[0].Addr().String()}
	s2, err := New(cfg2, n.srv.chain)
	require.NoError(t, err)
	_, err = s2.Start(ctx)
	require.Error(t, err)

	resp, err := http.Post(url, "application/json", bytes.NewBufferString(`{"jsonrpc":"2.0","id":1,"method":"getblockcount"}`))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, resp.Body.Close())
	resp, err = http.Post(url, "application/json", bytes.NewBufferString(`{"jsonrpc":"2.0","id":1,"method":"nosuch"}`))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())

	req, err := http.NewRequest(http.MethodPost, url, bytes.NewBufferString(`{}`))
	require.NoError(t, err)
	req.Header.Set("X-Big", strings.Repeat("x", 2*4096+4096))
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
	require.NoError(t, resp.Body.Close())

	mfs, err := reg.Gather()
	require.NoError(t, err)
	seen := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			key := mf.GetName()
			for _, l := range m.GetLabel() {
				key += "," + l.GetName() + "=" + l.GetValue()
			}
			if h := m.GetHistogram(); h != nil {
				seen[key] = float64(h.GetSampleCount())
			} else {
				seen[key] = m.GetCounter().GetValue()
			}
		}
	}
	require.Equal(t, 1.0, seen["n3d_rpc_request_duration_seconds,method=getblockcount"], seen)
	require.Equal(t, 1.0, seen[fmt.Sprintf("n3d_rpc_request_errors_total,code=%d,method=unknown", result.MethodNotFoundCode)], seen)
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
	_, err = http.Post(url, "application/json", bytes.NewBufferString(`{}`))
	require.Error(t, err)
}

func TestRunErrors(t *testing.T) {
	n := node(t, "testblocks")
	cfg := n.srv.cfg
	cfg.Addresses = nil
	s, err := New(cfg, n.srv.chain)
	require.NoError(t, err)
	require.ErrorIs(t, s.Run(context.Background()), ErrConfig)
	cfg.Addresses = []string{"256.0.0.1:1"}
	s, err = New(cfg, n.srv.chain)
	require.NoError(t, err)
	require.Error(t, s.Run(context.Background()))
	_, err = New(cfg, nil)
	require.ErrorIs(t, err, ErrConfig)
	cfg.MaxBatchSize = -1
	_, err = New(cfg, n.srv.chain)
	require.ErrorIs(t, err, ErrConfig)
}

// TestConcurrentRequests runs reads, invocations and token requests from
// several goroutines (run with -race).
func TestConcurrentRequests(t *testing.T) {
	n := node(t, "testblocks")
	addr := "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq"
	h, err := address.StringToUint160(addr)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 5 {
				switch (i + j) % 4 {
				case 0:
					n.result(t, "getblock", j, true)
				case 1:
					n.result(t, "invokefunction", "neotoken", "balanceOf", []any{map[string]any{"type": "Hash160", "value": h.String()}})
				case 2:
					n.result(t, "getnep17transfers", addr, 0, 1<<62)
				case 3:
					n.result(t, "getstorage", -5, "Cw==")
				}
			}
		})
	}
	wg.Wait()
}
