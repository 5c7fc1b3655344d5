package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// answer serves each request with reply(request) as the body.
func answer(t *testing.T, reply func(req map[string]any) (int, string)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		code, out := reply(req)
		w.WriteHeader(code)
		_, _ = io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newClient(t *testing.T, url string, opts Options) *Client {
	t.Helper()
	c, err := New(url, opts)
	require.NoError(t, err)
	return c
}

func TestCallSendsJSONRPC(t *testing.T) {
	var got map[string]any
	srv := answer(t, func(req map[string]any) (int, string) {
		got = req
		return 200, fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":42}`, req["id"])
	})
	c := newClient(t, srv.URL, Options{})
	n, err := c.GetBlockCount(context.Background())
	require.NoError(t, err)
	require.EqualValues(t, 42, n)
	require.Equal(t, "2.0", got["jsonrpc"])
	require.Equal(t, "getblockcount", got["method"])
	require.Equal(t, []any{}, got["params"])
	firstID := got["id"]
	_, err = c.GetBlockCount(context.Background())
	require.NoError(t, err)
	require.NotEqual(t, firstID, got["id"], "every request gets its own id")

	_, err = c.InvokeFunction(context.Background(), util.Uint160{1}, "symbol",
		[]Param{{Type: smartcontract.IntegerType, Value: big.NewInt(-7)}}, nil)
	require.Error(t, err) // 42 is not an invocation
	require.Equal(t, []any{util.Uint160{1}.String(), "symbol",
		[]any{map[string]any{"type": "Integer", "value": "-7"}}}, got["params"])
}

func TestServerErrorIsTyped(t *testing.T) {
	srv := answer(t, func(req map[string]any) (int, string) {
		return 200, fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"error":{"code":-101,"message":"Unknown block","data":"nope"}}`, req["id"])
	})
	_, err := newClient(t, srv.URL, Options{}).GetBlockCount(context.Background())
	var re *result.Error
	require.ErrorAs(t, err, &re)
	require.EqualValues(t, -101, re.Code)
	require.Equal(t, "nope", re.Data)
	require.ErrorIs(t, err, result.ErrUnknownBlock)
	require.Contains(t, err.Error(), "getblockcount")
}

func TestBadAnswers(t *testing.T) {
	for name, tc := range map[string]struct {
		code int
		body string
		want error
	}{
		"wrong id":        {200, `{"jsonrpc":"2.0","id":12345,"result":1}`, ErrBadResponse},
		"not json":        {200, `<html>`, ErrBadResponse},
		"no version":      {200, `{"id":%v,"result":1}`, ErrBadResponse},
		"no result":       {200, `{"jsonrpc":"2.0","id":%v}`, ErrBadResponse},
		"result mismatch": {200, `{"jsonrpc":"2.0","id":%v,"result":"x"}`, ErrBadResponse},
		"too large":       {200, `{"jsonrpc":"2.0","id":%v,"result":"` + strings.Repeat("a", 2000) + `"}`, ErrResponseTooLarge},
	} {
		t.Run(name, func(t *testing.T) {
			srv := answer(t, func(req map[string]any) (int, string) {
				if strings.Contains(tc.body, "%v") {
					return tc.code, fmt.Sprintf(tc.body, req["id"])
				}
				return tc.code, tc.body
			})
			_, err := newClient(t, srv.URL, Options{MaxResponseSize: 1000}).GetBlockCount(context.Background())
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func TestHTTPErrorStatus(t *testing.T) {
	srv := answer(t, func(map[string]any) (int, string) { return http.StatusBadGateway, "upstream down" })
	_, err := newClient(t, srv.URL, Options{}).GetBlockCount(context.Background())
	var he *HTTPError
	require.ErrorAs(t, err, &he)
	require.Equal(t, http.StatusBadGateway, he.Status)
	require.Equal(t, "upstream down", he.Body)
}

func TestTimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	_, err := newClient(t, srv.URL, Options{Timeout: time.Millisecond}).GetBlockCount(context.Background())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = newClient(t, srv.URL, Options{Timeout: -1}).GetBlockCount(ctx)
	require.ErrorIs(t, err, context.Canceled)
}

func TestNewEndpoints(t *testing.T) {
	c, err := New("127.0.0.1:10332", Options{})
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:10332", c.Endpoint())
	c, err = New("https://rpc.example:443/path", Options{})
	require.NoError(t, err)
	require.Equal(t, "https://rpc.example:443/path", c.Endpoint())
	for _, bad := range []string{"", "ftp://x", "http://", "::"} {
		_, err := New(bad, Options{})
		require.ErrorIs(t, err, ErrEndpoint, bad)
	}
}

// TestInvokeReadsServerForm: the server's Invoke JSON reads back into the
// client's type.
func TestInvokeReadsServerForm(t *testing.T) {
	for _, in := range []result.Invoke{
		{State: "HALT", GasConsumed: 1234, Script: []byte{1, 2},
			Stack: []any{stackitem.NewInt(5), stackitem.ByteString("NEO"),
				stackitem.NewArray([]stackitem.Item{stackitem.Bool(true), stackitem.Null{}})},
			Notifications: []state.NotificationEvent{{ScriptHash: util.Uint160{7}, Name: "Transfer",
				Item: stackitem.NewArray([]stackitem.Item{stackitem.NewInt(1)})}}},
		{State: "FAULT", GasConsumed: 99, Script: []byte{3}, FaultException: "boom"},
	} {
		raw, err := json.Marshal(in)
		require.NoError(t, err)
		var out Invoke
		require.NoError(t, json.Unmarshal(raw, &out))
		require.Equal(t, in.State, out.State)
		require.Equal(t, in.GasConsumed, out.GasConsumed)
		require.Equal(t, in.Script, out.Script)
		require.Equal(t, in.FaultException, out.FaultException)
		require.Len(t, out.Stack, len(in.Stack))
		require.Len(t, out.Notifications, len(in.Notifications))
		again, err := json.Marshal(result.Invoke{State: out.State, GasConsumed: out.GasConsumed, Script: out.Script,
			Stack: itemsAny(out.Stack), FaultException: out.FaultException, Notifications: out.Notifications})
		require.NoError(t, err)
		require.JSONEq(t, string(raw), string(again))
		if in.State == HaltState {
			require.NoError(t, out.Err())
			top, err := out.TopItem()
			require.NoError(t, err)
			require.True(t, top.Equals(out.Stack[len(out.Stack)-1]))
		} else {
			require.ErrorIs(t, out.Err(), ErrScriptFailed)
			require.Contains(t, out.Err().Error(), "boom")
		}
	}
}

func itemsAny(items []stackitem.Item) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

func TestUnclaimedGasAndAppLogReadServerForm(t *testing.T) {
	in := result.UnclaimedGas{Address: util.Uint160{1, 2}, Unclaimed: big.NewInt(123456789)}
	raw, err := json.Marshal(in)
	require.NoError(t, err)
	var g UnclaimedGas
	require.NoError(t, json.Unmarshal(raw, &g))
	require.Equal(t, in.Address, g.Address)
	require.Equal(t, in.Unclaimed, g.Unclaimed)
	require.Error(t, json.Unmarshal([]byte(`{"address":"x","unclaimed":"1"}`), &g))
	require.Error(t, json.Unmarshal([]byte(`{"address":"`+"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"+`","unclaimed":"1x"}`), &g))

	h := util.Uint256{9}
	l := result.NewApplicationLog(h, []state.AppExecResult{{Container: h, Execution: state.Execution{
		Trigger: trigger.Application, VMState: vm.HaltState, GasConsumed: 77,
		Stack: []stackitem.Item{stackitem.NewInt(1)}}}}, trigger.All)
	raw, err = json.Marshal(l)
	require.NoError(t, err)
	var al ApplicationLog
	require.NoError(t, json.Unmarshal(raw, &al))
	require.NotNil(t, al.TxHash)
	require.Equal(t, h, *al.TxHash)
	require.Nil(t, al.BlockHash)
	require.Len(t, al.Executions, 1)
	require.Equal(t, vm.HaltState, al.Executions[0].VMState)
	require.EqualValues(t, 77, al.Executions[0].GasConsumed)
}

func TestParamJSON(t *testing.T) {
	h := util.Uint160{1, 2, 3}
	for _, tc := range []struct {
		p    Param
		want string
	}{
		{Param{smartcontract.Hash160Type, h}, `{"type":"Hash160","value":"` + h.String() + `"}`},
		{Param{smartcontract.IntegerType, big.NewInt(-5)}, `{"type":"Integer","value":"-5"}`},
		{Param{smartcontract.ByteArrayType, []byte{1, 2}}, `{"type":"ByteArray","value":"AQI="}`},
		{Param{smartcontract.PublicKeyType, []byte{2, 0xab}}, `{"type":"PublicKey","value":"02ab"}`},
		{Param{smartcontract.StringType, "x"}, `{"type":"String","value":"x"}`},
		{Param{smartcontract.BoolType, true}, `{"type":"Boolean","value":true}`},
		{Param{smartcontract.AnyType, nil}, `{"type":"Any"}`},
		{Param{smartcontract.ArrayType, []Param(nil)}, `{"type":"Array","value":[]}`},
		{Param{smartcontract.ArrayType, []Param{{smartcontract.BoolType, false}}}, `{"type":"Array","value":[{"type":"Boolean","value":false}]}`},
	} {
		b, err := json.Marshal(tc.p)
		require.NoError(t, err)
		require.JSONEq(t, tc.want, string(b))
	}
	for _, bad := range []Param{{smartcontract.Hash160Type, "x"}, {smartcontract.IntegerType, 5},
		{smartcontract.InteropInterfaceType, nil}, {smartcontract.StringType, 1}} {
		_, err := json.Marshal(bad)
		require.Error(t, err, "%v", bad)
	}
}

func TestDecodeResponseErrors(t *testing.T) {
	_, err := decodeResponse([]byte(`{"jsonrpc":"2.0","id":"1","result":1}`), 1)
	require.ErrorIs(t, err, ErrBadResponse)
	r, err := decodeResponse([]byte(`{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32601,"message":"Method not found"}}`), 1)
	require.NoError(t, err)
	require.True(t, errors.Is(r.Error, result.NewMethodNotFoundError("")))
}
