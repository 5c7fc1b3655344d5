package server

import (
	"encoding/base64"

	"github.com/n3d-io/n3d/pkg/rpc/params"
)

// appendPlainResponse appends what json.Encoder writes for r (its Encode:
// compact JSON, HTML-escaped, a newline) when r is a successful answer
// whose parts need no escaping or compaction: version "2.0", a result
// from json.Marshal (compact and escaped already) and an ID that is a
// plain number or string. It reports false for anything else, which then
// goes through the Encoder. This skips the Encoder's reflection and its
// second scan of the result on every sendrawtransaction answer.
func appendPlainResponse(dst []byte, r *response) ([]byte, bool) {
	if r.Error != nil || len(r.Result) == 0 || r.JSONRPC != params.Version || !params.PlainID(r.ID) {
		return dst, false
	}
	dst = append(dst, `{"id":`...)
	if len(r.ID) == 0 {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, r.ID...)
	}
	dst = append(dst, `,"jsonrpc":"2.0","result":`...)
	dst = append(dst, r.Result...)
	return append(dst, "}\n"...), true
}

// jsonAppender is a method result that writes its own JSON: exactly what
// json.Marshal would write for it (compact, HTML-escaped), appended to
// dst, without reflection.
type jsonAppender interface {
	appendJSON(dst []byte) []byte
}

// base64Result is a binary result (a block, a header, a transaction):
// json.Marshal would write it as a base64 string, through a temporary
// buffer and a copy of the whole answer; appendJSON writes it directly.
type base64Result []byte

func (r base64Result) appendJSON(dst []byte) []byte {
	if r == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, r)
	return append(dst, '"')
}
