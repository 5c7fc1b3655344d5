package server

import (
	"encoding/base64"
	"encoding/json"

	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"go.uber.org/zap"
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

// answer runs the JSON-RPC request or batch in body and returns its
// answer as json.Encoder writes it (compact, a newline at the end), in
// buf.out: without the Encoder's reflection when appendPlainResponse can
// write it. The request may alias body until answer returns.
func (s *Server) answer(body []byte, buf *buffers) []byte {
	req, err := params.Decode(body, s.cfg.MaxBatchSize)
	if err != nil {
		return s.encode(buf, errorResponse(result.NewParseError(err.Error())))
	}
	if req.In == nil {
		out := make([]response, len(req.Batch))
		for i := range req.Batch {
			out[i] = s.handle(&req.Batch[i], nil)
		}
		return s.encode(buf, out)
	}
	resp := s.handle(req.In, buf.result[:0])
	buf.result = resp.Result[:0] // appended to it, or a new result of Marshal: reused
	if b, ok := appendPlainResponse(buf.out[:0], &resp); ok {
		buf.out = b
		return b
	}
	slow := resp // only this copy goes to the heap (through encode's any)
	return s.encode(buf, &slow)
}

// encode writes v with a json.Encoder into buf.out (nothing but a log
// line when v cannot be encoded, as ServeHTTP answered before).
func (s *Server) encode(buf *buffers, v any) []byte {
	buf.out = buf.out[:0]
	if err := json.NewEncoder((*appendWriter)(&buf.out)).Encode(v); err != nil {
		s.log.Warn("writing RPC response", zap.Error(err))
	}
	return buf.out
}

// appendWriter is an io.Writer appending to a slice.
type appendWriter []byte

func (w *appendWriter) Write(p []byte) (int, error) {
	*w = append(*w, p...)
	return len(p), nil
}
