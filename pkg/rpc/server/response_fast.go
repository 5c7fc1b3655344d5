package server

import (
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
	if r.Error != nil || len(r.Result) == 0 || r.JSONRPC != params.Version || !plainID(r.ID) {
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

// plainID reports whether id is empty, a run of digits with an optional
// minus sign, or a string of letters, digits and "-_.:" — JSON the Encoder
// would write unchanged.
func plainID(id []byte) bool {
	if len(id) == 0 {
		return true
	}
	if id[0] == '"' {
		if len(id) < 2 || id[len(id)-1] != '"' {
			return false
		}
		for _, c := range id[1 : len(id)-1] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.' || c == ':') {
				return false
			}
		}
		return true
	}
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
