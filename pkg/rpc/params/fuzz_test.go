package params

import (
	"encoding/json"
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
