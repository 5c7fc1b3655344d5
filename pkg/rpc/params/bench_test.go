package params

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/n3d-io/n3d/internal/cputime"
)

// sendRawBody is a sendrawtransaction request as neo-bench sends it: one
// object, a base64 transaction of a NEO transfer's size.
var sendRawBody = []byte(`{"jsonrpc":"2.0","id":1,"method":"sendrawtransaction","params":["` +
	base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x5a}, 250)) + `"]}`)

// BenchmarkDecodeSendRawTransaction is the JSON part of every
// sendrawtransaction: the body decoded and its parameter read.
func BenchmarkDecodeSendRawTransaction(b *testing.B) {
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		r, err := Decode(sendRawBody, DefaultMaxBatchSize)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.In.Params[0].GetString(); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the process's CPU time (user and system, all threads,
// the garbage collector's included) per operation as cpu-ns/op: on a
// shared machine it moves much less with the load than ns/op. Call the
// returned func when the loop has ended.
func reportCPU(b *testing.B) func() {
	start := cputime.Process()
	return func() { b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op") }
}
