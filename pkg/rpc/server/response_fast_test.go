package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// encoded is what json.Encoder writes for r.
func encoded(t testing.TB, r response) []byte {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAppendPlainResponse: the shortcut writes exactly what the Encoder
// writes, and declines what it cannot write so.
func TestAppendPlainResponse(t *testing.T) {
	hash, err := json.Marshal(relayResult{Hash: util.Uint256{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"", "1", "-7", "123456789", `"abc-1_x.y:z"`, `""`} {
		r := response{ID: json.RawMessage(id), JSONRPC: "2.0", Result: hash}
		if id == "" {
			r.ID = nil
		}
		got, ok := appendPlainResponse(nil, &r)
		if !ok {
			t.Fatalf("id %q: declined", id)
		}
		if want := encoded(t, r); !bytes.Equal(got, want) {
			t.Fatalf("id %q:\n got %s\nwant %s", id, got, want)
		}
	}
	for _, r := range []response{
		{ID: json.RawMessage("1"), JSONRPC: "2.0", Error: result.NewInternalError("x")},
		{ID: json.RawMessage("1"), JSONRPC: "1.0", Result: hash},
		{ID: json.RawMessage("1"), JSONRPC: "2.0"},
		{ID: json.RawMessage(`"<a>"`), JSONRPC: "2.0", Result: hash},
		{ID: json.RawMessage(`[1, 2]`), JSONRPC: "2.0", Result: hash},
		{ID: json.RawMessage(`1.5`), JSONRPC: "2.0", Result: hash},
		{ID: json.RawMessage(`01`), JSONRPC: "2.0", Result: hash},
		{ID: json.RawMessage(`"a\u0041"`), JSONRPC: "2.0", Result: hash},
	} {
		if _, ok := appendPlainResponse(nil, &r); ok {
			t.Fatalf("%+v: taken", r)
		}
	}
}

// TestAnswerAppenderInPlace: a result that writes its own JSON (a block's
// base64) is written straight after the answer's head; the answer is still
// exactly what the Encoder writes, with plain IDs and with an ID the
// Encoder escapes, over HTTP and with the same pooled buffers reused.
func TestAnswerAppenderInPlace(t *testing.T) {
	n := node(t, "testblocks")
	h, ok := n.chain.GetHeaderHash(1)
	if !ok {
		t.Fatal("no block 1")
	}
	raw, err := n.chain.AppendBlockBytes(nil, h)
	if err != nil {
		t.Fatal(err)
	}
	b64, err := json.Marshal(raw) // a []byte marshals as base64
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"1", `"abc"`, `"<a>"`, "null"} {
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"getblock","params":[1]}`
		want := encoded(t, response{ID: json.RawMessage(id), JSONRPC: "2.0", Result: b64})
		buf := getBuffers()
		got := n.srv.answer([]byte(body), buf)
		if !bytes.Equal(got, want) {
			t.Fatalf("id %s:\n got %.200s\nwant %.200s", id, got, want)
		}
		buf.put()
		if got := n.post(t, body); !bytes.Equal(got, want) {
			t.Fatalf("id %s over HTTP:\n got %.200s\nwant %.200s", id, got, want)
		}
	}
}

// FuzzAppendPlainResponse: for any ID, the shortcut either declines or
// writes the Encoder's bytes.
func FuzzAppendPlainResponse(f *testing.F) {
	for _, s := range []string{"1", `"x"`, "-0", "null", `"a b"`, "1e5"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, id []byte) {
		if !json.Valid(id) {
			return
		}
		r := response{ID: id, JSONRPC: "2.0", Result: json.RawMessage(`{"hash":"0x01"}`)}
		got, ok := appendPlainResponse(nil, &r)
		if ok && !bytes.Equal(got, encoded(t, r)) {
			t.Fatalf("id %q: got %s want %s", id, got, encoded(t, r))
		}
	})
}

// BenchmarkWriteSendRawAnswer is the answer to a sendrawtransaction:
// marshalled result, then the response written through the Encoder (as
// before) or the shortcut.
func BenchmarkWriteSendRawAnswer(b *testing.B) {
	for _, plain := range []bool{false, true} {
		name := "encoder"
		if plain {
			name = "plain"
		}
		b.Run(name, func(b *testing.B) {
			r := response{ID: json.RawMessage("1"), JSONRPC: "2.0"}
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				res, err := json.Marshal(relayResult{Hash: util.Uint256{1, 2, 3}})
				if err != nil {
					b.Fatal(err)
				}
				r.Result = res
				buf.Reset()
				if out, ok := appendPlainResponse(nil, &r); plain && ok {
					buf.Write(out)
				} else if err := json.NewEncoder(&buf).Encode(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
