package server

import (
	"encoding/base64"
	"encoding/json"

	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"go.uber.org/zap"
)

// appendPlainHead appends the part of a plain answer (see
// appendPlainAnswer) before its result: {"id":ID,"jsonrpc":"2.0","result":
func appendPlainHead(dst, id []byte) []byte {
	dst = append(dst, `{"id":`...)
	if len(id) == 0 {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, id...)
	}
	return append(dst, `,"jsonrpc":"2.0","result":`...)
}

// plainAnswer reports whether r's answer can be written without the
// Encoder: what json.Encoder writes for it (compact JSON, HTML-escaped, a
// newline) is the head, the result and "}\n" when r is a successful answer
// whose parts need no escaping or compaction: version "2.0", a result from
// json.Marshal or a jsonAppender (compact and escaped already) and an ID
// that is a plain number or string. Anything else goes through the
// Encoder. This skips the Encoder's reflection and its second scan of the
// result on every sendrawtransaction answer.
func plainAnswer(r *response) bool {
	return r.Error == nil && len(r.Result) > 0 && r.JSONRPC == params.Version && params.PlainID(r.ID)
}

// appendPlainResponse appends r's whole answer when plainAnswer(r).
func appendPlainResponse(dst []byte, r *response) ([]byte, bool) {
	if !plainAnswer(r) {
		return dst, false
	}
	dst = appendPlainHead(dst, r.ID)
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
	// The head goes first and a result that writes its own JSON is
	// appended right after it, so a large one (a block: ~2.3 MB of base64
	// for 7000 transfers) is written once instead of being copied from a
	// result buffer into the answer.
	head := appendPlainHead(buf.out[:0], req.In.ID)
	resp := s.handle(req.In, head)
	if plainAnswer(&resp) {
		if resp.afterDst { // head and result already
			buf.out = append(resp.Result, "}\n"...)
		} else {
			buf.out, _ = appendPlainResponse(buf.out[:0], &resp)
		}
		return buf.out
	}
	if resp.afterDst { // not plain after all (an ID to escape): the result alone
		resp.Result = resp.Result[len(head):]
		// It may share buf.out's array, which encode writes from the
		// start: let encode write into a new one (a rare answer).
		buf.out = nil
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
