package params

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/n3d-io/n3d/pkg/util"
)

// FuzzDecode feeds arbitrary bodies to the request parser and the
// parameter getters: nothing may panic, and a decoded request must
// re-encode.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"getblock","params":[1,true]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b","params":["x",null,{}]}]`,
		`{"jsonrpc":"2.0","method":"invokefunction","params":["0x01","m",[{"type":"Array","value":[{"type":"Map","value":[]}]}],[{"account":"x","scopes":"Global"}]]}`,
		`[`, `{}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data, DefaultMaxBatchSize)
		if err != nil {
			return
		}
		ins := r.Batch
		if r.In != nil {
			ins = []In{*r.In}
		}
		if len(ins) == 0 || len(ins) > DefaultMaxBatchSize {
			t.Fatalf("%d requests", len(ins))
		}
		for _, in := range ins {
			if _, err := json.Marshal(in); err != nil {
				t.Fatal(err)
			}
			for i := range in.Params {
				q := &in.Params[i]
				_, _ = q.GetInt()
				_, _ = q.GetBigInt()
				_, _ = q.GetString()
				_, _ = q.GetBoolean()
				_, _ = q.GetArray()
				_, _ = q.GetUint256()
				_, _ = q.GetUint160FromAddressOrHex()
				_, _, _ = q.GetSignersWithWitnesses()
				_, _ = FunctionScript(util.Uint160{}, "m", q)
			}
		}
	})
}

// FuzzDecodeObject checks the single-object fast path against the general
// one: where it decodes a body, reading the first JSON value and then
// unmarshalling it gives the same request.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"sendrawtransaction","params":["AAEC"]}`,
		` {"method":"a"} trailing`, `{"method":1}`, `{"params":5}`, `{"id":[1]} {}`, "\t{}", `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast := decodeObject(data)
		var raw json.RawMessage
		var slow *In
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw); err == nil {
			in := new(In)
			if json.Unmarshal(raw, in) == nil && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
				slow = in
			}
		}
		if (fast == nil) != (slow == nil) {
			t.Fatalf("fast path %v, general path %v", fast != nil, slow != nil)
		}
		if fast != nil && !reflect.DeepEqual(fast.In, slow) {
			t.Fatalf("fast %+v, general %+v", fast.In, slow)
		}
	})
}

// FuzzPlainString checks GetString's shortcut against json.Unmarshal:
// where it takes a value, Unmarshal into a string gives the same.
func FuzzPlainString(f *testing.F) {
	for _, s := range []string{`"AAEC+/="`, `"a\"b"`, `"\u0041"`, `""`, `"é"`, `"`, `"a"b"`, "\"\x01\"", `5`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, ok := plainString(raw)
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("shortcut took %q, Unmarshal: %v", raw, err)
		}
		if s != want {
			t.Fatalf("shortcut %q, Unmarshal %q", s, want)
		}
	})
}

// FuzzScanObject checks Decode's reflection-free shortcut against the
// Decoder path: where it takes a body, decodeObject (checked against the
// general path by FuzzDecodeObject) gives the same request.
func FuzzScanObject(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc": "2.0", "id": 1, "method": "sendrawtransaction", "params": ["AAEC"]}`,
		`{"jsonrpc":"2.0","id":"a-1","method":"getblock","params":[1,true,null,-0.5e+3,"x"]} x`,
		`{"params":[]}`, `{}`, ` {"id":01}`, `{"id":null}`, `{"method":"a","method":"b"}`, `{"Method":"a"}`,
		`{"params":[1,]}`, `{"params":[{}]}`, `{"method":"\u0041"}`, `{"id":1.0}`, `{"params":[tru]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, ok := scanObject(data)
		if !ok {
			return
		}
		slow := decodeObject(data)
		if slow == nil {
			t.Fatalf("shortcut took %q, the Decoder path did not", data)
		}
		if !reflect.DeepEqual(in, slow.In) {
			t.Fatalf("shortcut %+v, Decoder %+v", in, slow.In)
		}
	})
}
