package params

import "encoding/json"

// scanObject is Decode's shortcut for the common request object: keys
// among "jsonrpc", "method", "params" and "id", each at most once and
// spelled exactly so; jsonrpc and method plain strings (printable ASCII,
// no escapes); params an array of plain strings, numbers, true, false and
// null; id a plain number or string (see PlainID). It reads the first
// JSON value of data without reflection or copies: the ID and the
// parameters alias data (capacity capped, so an append never writes into
// it), the caller must not modify data while the request is in use. It
// reports false for anything else (the general path then decodes it,
// words its errors or finds it is not JSON), so where it reports true the
// request is the one encoding/json's Decoder would give (FuzzScanObject).
func scanObject(data []byte) (*In, bool) {
	s := scanner{data: data}
	s.ws()
	if !s.eat('{') {
		return nil, false
	}
	in := new(In)
	var seen uint8
	s.ws()
	if s.eat('}') {
		return in, true
	}
	for {
		key, ok := s.plain()
		if !ok {
			return nil, false
		}
		s.ws()
		if !s.eat(':') {
			return nil, false
		}
		s.ws()
		bit, ok := s.member(in, key)
		if !ok || seen&bit != 0 {
			return nil, false
		}
		seen |= bit
		s.ws()
		if s.eat('}') {
			return in, true
		}
		if !s.eat(',') {
			return nil, false
		}
		s.ws()
	}
}

// interned are the version and the methods asked most often under load:
// their names are not allocated for every request.
var interned = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{Version, "sendrawtransaction", "getblockcount", "getblock", "getversion",
		"getrawtransaction", "getapplicationlog", "getblockhash", "getnep17balances", "invokefunction",
		"invokescript", "calculatenetworkfee", "getrawmempool", "gettransactionheight", "getbestblockhash"} {
		m[s] = s
	}
	return m
}()

func intern(b []byte) string {
	if s, ok := interned[string(b)]; ok {
		return s
	}
	return string(b)
}

// scanner reads JSON from data at pos.
type scanner struct {
	data []byte
	pos  int
}

// member reads the value of key into in and returns the key's bit.
func (s *scanner) member(in *In, key []byte) (uint8, bool) {
	switch string(key) {
	case "jsonrpc", "method":
		v, ok := s.plain()
		if !ok {
			return 0, false
		}
		if key[0] == 'j' {
			in.JSONRPC = intern(v)
			return 1, true
		}
		in.Method = intern(v)
		return 2, true
	case "id":
		start := s.pos
		if !s.value() || !PlainID(s.data[start:s.pos]) || s.pos == start {
			return 0, false
		}
		in.ID = s.data[start:s.pos:s.pos]
		return 4, true
	case "params":
		ps, ok := s.params()
		in.Params = ps
		return 8, ok
	}
	return 0, false
}

// params reads an array of scalar values.
func (s *scanner) params() (Params, bool) {
	if !s.eat('[') {
		return nil, false
	}
	ps := Params{}
	s.ws()
	if s.eat(']') {
		return ps, true
	}
	for {
		start := s.pos
		if !s.value() {
			return nil, false
		}
		ps = append(ps, Param{json.RawMessage(s.data[start:s.pos:s.pos])})
		s.ws()
		if s.eat(']') {
			return ps, true
		}
		if !s.eat(',') {
			return nil, false
		}
		s.ws()
	}
}

// value skips a plain string, a number, true, false or null.
func (s *scanner) value() bool {
	if s.pos >= len(s.data) {
		return false
	}
	switch c := s.data[s.pos]; {
	case c == '"':
		_, ok := s.plain()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return false
}

// plain reads a string of printable ASCII without escapes and returns
// its contents (aliasing data).
func (s *scanner) plain() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.pos
	for ; s.pos < len(s.data); s.pos++ {
		switch c := s.data[s.pos]; {
		case c == '"':
			s.pos++
			return s.data[start : s.pos-1], true
		case c < 0x20 || c == '\\' || c >= 0x7f:
			return nil, false
		}
	}
	return nil, false
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.digits() == 0:
		return false
	}
	if s.eat('.') && s.digits() == 0 {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *scanner) digits() int {
	start := s.pos
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos - start
}

func (s *scanner) literal(lit string) bool {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return false
	}
	s.pos += len(lit)
	return true
}

func (s *scanner) eat(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// PlainID reports whether id is empty, a run of digits with an optional
// minus sign, or a string of letters, digits and "-_.:" — JSON the Encoder
// would write unchanged (the server writes such an ID as it came).
func PlainID(id []byte) bool {
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
