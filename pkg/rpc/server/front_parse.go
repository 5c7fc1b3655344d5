package server

import (
	"bytes"
	"strings"
)

// parseState is what parseLean made of the bytes at hand.
type parseState int

const (
	// parseMore: the header is not complete yet; read more.
	parseMore parseState = iota
	// parseOK: a request the front serves itself.
	parseOK
	// parseFallback: anything else; net/http gets the connection.
	parseFallback
)

// leanRequest is what the front needs of a request it serves itself.
type leanRequest struct {
	headerLen int  // the request line and the headers, the empty line included
	bodyLen   int  // Content-Length
	close     bool // Connection: close
}

var (
	crlf      = []byte("\r\n")
	leanStart = []byte("POST ")
	leanProto = []byte(" HTTP/1.1")
)

// parseLean parses the HTTP request at the start of b when it has the
// common shape of a JSON-RPC call: `POST <path> HTTP/1.1`, CRLF line ends,
// one Host, a Content-Length of at most bodyLimit and no Transfer-Encoding,
// Expect, Upgrade or Connection other than close or keep-alive, the whole
// header within headerLimit bytes. Everything it does not know to be
// such a request, net/http's own parser gets (parseFallback): it only
// accepts what net/http accepts the same way (FuzzParseLean checks that
// against a net/http server), and it is strict where net/http is lenient.
// It never reads past len(b) and stops at headerLimit.
func parseLean(b []byte, headerLimit, bodyLimit int) (leanRequest, parseState) {
	var req leanRequest
	if n := min(len(b), len(leanStart)); !bytes.Equal(b[:n], leanStart[:n]) {
		return req, parseFallback
	}
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		if len(b) >= headerLimit || hasBareLF(b) {
			return req, parseFallback
		}
		return req, parseMore
	}
	req.headerLen = end + 4
	if req.headerLen > headerLimit {
		return req, parseFallback
	}
	line, rest, _ := bytes.Cut(b[:end+2], crlf)
	if !validRequestLine(line) {
		return req, parseFallback
	}
	var h headerSeen
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, crlf)
		if !h.add(line, &req) {
			return req, parseFallback
		}
	}
	if h.host != 1 || h.length != 1 || req.bodyLen > bodyLimit {
		return req, parseFallback
	}
	return req, parseOK
}

// decidable reports whether parseLean decides on b (does not answer
// parseMore), looking only at the bytes after the first scanned ones,
// which were not decidable: a connection that sends its header in many
// small reads costs time linear in its length.
func decidable(b []byte, scanned, headerLimit int) bool {
	if len(b) >= headerLimit {
		return true
	}
	if n := min(len(b), len(leanStart)); !bytes.Equal(b[:n], leanStart[:n]) {
		return true
	}
	if bytes.Contains(b[max(0, scanned-3):], []byte("\r\n\r\n")) {
		return true
	}
	for i := scanned; i < len(b); i++ {
		if b[i] == '\n' && (i == 0 || b[i-1] != '\r') {
			return true
		}
	}
	return false
}

// hasBareLF reports a line feed without its carriage return (net/http
// takes those; the front waits for CRLF CRLF only).
func hasBareLF(b []byte) bool {
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			return true
		}
	}
	return false
}

// validRequestLine accepts `POST <target> HTTP/1.1` with an origin-form
// target of plain characters (no escapes, no fragment).
func validRequestLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, leanStart)
	if !ok {
		return false
	}
	target, ok := bytes.CutSuffix(rest, leanProto)
	if !ok || len(target) == 0 || target[0] != '/' {
		return false
	}
	for _, c := range target {
		if !isTargetByte(c) {
			return false
		}
	}
	return true
}

func isTargetByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~/?=&+,;:@!$'()*", c) >= 0
}

// headerSeen counts the headers the front must see exactly once.
type headerSeen struct {
	host, length, connection int
}

// add takes one header line; false: the request goes to net/http.
func (h *headerSeen) add(line []byte, req *leanRequest) bool {
	name, value, ok := bytes.Cut(line, []byte(":"))
	if !ok || len(name) == 0 {
		return false
	}
	for _, c := range name {
		if !isNameByte(c) {
			return false
		}
	}
	value = trimOWS(value)
	for _, c := range value {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	switch {
	case equalFold(name, "content-length"):
		h.length++
		n, ok := parseLength(value)
		req.bodyLen = n
		return ok
	case equalFold(name, "host"):
		h.host++
		return validHost(value)
	case equalFold(name, "connection"):
		h.connection++
		switch {
		case h.connection > 1:
			return false
		case equalFold(value, "close"):
			req.close = true
			return true
		default:
			return equalFold(value, "keep-alive")
		}
	case equalFold(name, "transfer-encoding"), equalFold(name, "expect"), equalFold(name, "upgrade"),
		equalFold(name, "te"), equalFold(name, "trailer"), equalFold(name, "http2-settings"):
		return false
	}
	return true
}

func isNameByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		return true
	}
	return false
}

func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// equalFold compares b with the lower-case ASCII s, ignoring case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// parseLength reads a decimal Content-Length of at most 9 digits.
func parseLength(v []byte) (int, bool) {
	if len(v) == 0 || len(v) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// validHost accepts a host name or address with an optional port.
func validHost(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	for _, c := range v {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '-', c == ':', c == '[', c == ']', c == '_':
		default:
			return false
		}
	}
	return true
}
