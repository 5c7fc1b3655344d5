package neojson

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// DefaultMaxDepth is the reference's default nesting limit.
const DefaultMaxDepth = 64

// Sentinel errors of the parser.
var (
	ErrSyntax       = errors.New("neojson: syntax error")
	ErrDepth        = errors.New("neojson: nesting too deep")
	ErrDuplicateKey = errors.New("neojson: duplicate property name")
	ErrInvalidUTF8  = errors.New("neojson: invalid UTF-8 in string")
	ErrNumberRange  = errors.New("neojson: number out of range")
)

type parser struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	// Scratch stacks: the elements of the containers being parsed are
	// collected here and copied out once, at their exact size.
	values  []any
	members []Member
	// keys interns property names, which repeat across objects.
	keys map[string]string
}

// boxedInts holds small integers already converted to interfaces, so
// returning one does not allocate.
var boxedInts = func() (t [1024]any) {
	for i := range t {
		t[i] = float64(i)
	}
	return t
}()

// Parse decodes exactly one JSON value (surrounded by optional white space
// and comments) with at most maxDepth nested arrays and objects.
func Parse(data []byte, maxDepth int) (any, error) {
	p := parser{data: data, maxDepth: maxDepth}
	if err := p.skipSpace(); err != nil {
		return nil, err
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.skipSpace(); err != nil {
		return nil, err
	}
	if p.pos != len(p.data) {
		return nil, p.errorf("unexpected data after the value")
	}
	return v, nil
}

// SyntaxError is a syntax error of Parse; it matches ErrSyntax. AtEnd and
// InToken tell a truncated input apart (callers that must word such errors
// as another decoder does use them).
type SyntaxError struct {
	Offset int    // where the error was found
	Msg    string // what was wrong
	// AtEnd: the data ended before the value did.
	AtEnd bool
	// InToken: the data ended inside a string, number or literal.
	InToken bool
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at offset %d: %s", ErrSyntax, e.Offset, e.Msg)
}

// Unwrap makes a SyntaxError match ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...), AtEnd: p.pos >= len(p.data)}
}

// tokenErrorf is errorf for an error inside a token; atEnd says whether
// the data ended inside it.
func (p *parser) tokenErrorf(atEnd bool, format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...), AtEnd: atEnd, InToken: atEnd}
}

// skipSpace skips white space and comments.
func (p *parser) skipSpace() error {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		case '/':
			if err := p.skipComment(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// skipWhite skips white space only (no comment may separate a property
// name from its colon).
func (p *parser) skipWhite() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) skipComment() error {
	if p.pos+1 >= len(p.data) {
		return p.errorf("unexpected '/'")
	}
	switch p.data[p.pos+1] {
	case '/':
		p.pos += 2
		for p.pos < len(p.data) {
			c := p.data[p.pos]
			if c == '\n' || c == '\r' {
				return nil
			}
			// U+2028 and U+2029 may not appear in a single-line comment.
			if c == 0xE2 && p.pos+2 < len(p.data) && p.data[p.pos+1] == 0x80 &&
				(p.data[p.pos+2] == 0xA8 || p.data[p.pos+2] == 0xA9) {
				return p.errorf("line separator in a comment")
			}
			p.pos++
		}
		return nil
	case '*':
		for i := p.pos + 2; i+1 < len(p.data); i++ {
			if p.data[i] == '*' && p.data[i+1] == '/' {
				p.pos = i + 2
				return nil
			}
		}
		return p.errorf("unterminated comment")
	default:
		return p.errorf("unexpected '/'")
	}
}

func (p *parser) value() (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of data")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	default:
		return nil, p.errorf("unexpected character %q", c)
	}
}

func (p *parser) literal(lit string) error {
	if len(p.data)-p.pos < len(lit) || string(p.data[p.pos:p.pos+len(lit)]) != lit {
		rest := string(p.data[p.pos:])
		return p.tokenErrorf(len(rest) < len(lit) && lit[:len(rest)] == rest, "invalid literal")
	}
	p.pos += len(lit)
	return p.delimiter()
}

// delimiter checks that a number or literal ends where a token may end.
func (p *parser) delimiter() error {
	if p.pos >= len(p.data) {
		return nil
	}
	switch p.data[p.pos] {
	case ' ', '\t', '\n', '\r', ',', ']', '}', '/':
		return nil
	}
	return p.errorf("unexpected character %q after a value", p.data[p.pos])
}

func (p *parser) enter() error {
	if p.depth >= p.maxDepth {
		return fmt.Errorf("%w: more than %d levels at offset %d", ErrDepth, p.maxDepth, p.pos)
	}
	p.depth++
	return nil
}

// open enters the container whose opening bracket is at p.pos and reports
// whether it is empty (its closing bracket consumed as well).
func (p *parser) open(closing byte) (bool, error) {
	if err := p.enter(); err != nil {
		return false, err
	}
	p.pos++ // the opening bracket
	if err := p.skipSpace(); err != nil {
		return false, err
	}
	if p.pos < len(p.data) && p.data[p.pos] == closing {
		p.pos++
		p.depth--
		return true, nil
	}
	return false, nil
}

// next consumes what follows an element of an array or object: a ',' (more
// elements follow) or the closing bracket (the container ends: done).
func (p *parser) next(closing byte, what string) (done bool, err error) {
	if err := p.skipSpace(); err != nil {
		return false, err
	}
	if p.pos >= len(p.data) {
		return false, p.errorf("unterminated %s", what)
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, p.skipSpace()
	case closing:
		p.pos++
		p.depth--
		return true, nil
	}
	return false, p.errorf("expected ',' or '%c'", closing)
}

func (p *parser) array() (any, error) {
	empty, err := p.open(']')
	if err != nil {
		return nil, err
	}
	if empty {
		return []any{}, nil
	}
	base := len(p.values)
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.values = append(p.values, v)
		done, err := p.next(']', "array")
		if err != nil {
			return nil, err
		}
		if done {
			arr := make([]any, len(p.values)-base)
			copy(arr, p.values[base:])
			clear(p.values[base:])
			p.values = p.values[:base]
			return arr, nil
		}
	}
}

func (p *parser) object() (any, error) {
	empty, err := p.open('}')
	if err != nil {
		return nil, err
	}
	if empty {
		return &Object{}, nil
	}
	base := len(p.members)
	var seen map[string]struct{}
	for {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if seen, err = checkDuplicate(p.members[base:], seen, key); err != nil {
			return nil, err
		}
		p.skipWhite()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("expected ':'")
		}
		p.pos++
		if err := p.skipSpace(); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, Member{Key: key, Value: v})
		done, err := p.next('}', "object")
		if err != nil {
			return nil, err
		}
		if done {
			obj := &Object{Members: make([]Member, len(p.members)-base)}
			copy(obj.Members, p.members[base:])
			clear(p.members[base:])
			p.members = p.members[:base]
			return obj, nil
		}
	}
}

func (p *parser) key() (string, error) {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", p.errorf("expected a property name")
	}
	return p.str()
}

// maxInterned is the longest string interned during a parse: short
// strings (property names, type names) repeat across a document.
const maxInterned = 32

// intern returns a string equal to b, shared with earlier equal strings.
func (p *parser) intern(b []byte) string {
	if len(b) > maxInterned {
		return string(b)
	}
	if k, ok := p.keys[string(b)]; ok {
		return k
	}
	k := string(b)
	if p.keys == nil {
		p.keys = make(map[string]string)
	}
	p.keys[k] = k
	return k
}

// checkDuplicate fails when members already has key; small objects are
// scanned, larger ones get an index (seen) built on first need.
func checkDuplicate(members []Member, seen map[string]struct{}, key string) (map[string]struct{}, error) {
	const scanLimit = 8
	if seen == nil && len(members) < scanLimit {
		for i := range members {
			if members[i].Key == key {
				return nil, fmt.Errorf("%w: %q", ErrDuplicateKey, key)
			}
		}
		return nil, nil
	}
	if seen == nil {
		seen = make(map[string]struct{}, 2*len(members))
		for _, m := range members {
			seen[m.Key] = struct{}{}
		}
	}
	if _, dup := seen[key]; dup {
		return nil, fmt.Errorf("%w: %q", ErrDuplicateKey, key)
	}
	seen[key] = struct{}{}
	return seen, nil
}

func (p *parser) number() (any, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		p.pos = i
		return nil, p.tokenErrorf(i >= len(d), "invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.pos = i
			return nil, p.tokenErrorf(i >= len(d), "invalid number")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.pos = i
			return nil, p.tokenErrorf(i >= len(d), "invalid number")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	p.pos = i
	if err := p.delimiter(); err != nil {
		return nil, err
	}
	if f, ok := smallInteger(d[start:i]); ok {
		if f >= 0 && !math.Signbit(f) && f < float64(len(boxedInts)) {
			return boxedInts[int(f)], nil
		}
		return f, nil
	}
	f, err := strconv.ParseFloat(string(d[start:i]), 64)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNumberRange, d[start:i])
	}
	return f, nil
}

// smallInteger converts a plain integer of at most 15 digits (exact in a
// float64) without going through ParseFloat.
func smallInteger(b []byte) (float64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		if n == 0 {
			return math.Copysign(0, -1), true
		}
		n = -n
	}
	return float64(n), true
}

// str reads a string token, unescaping it.
func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	d := p.data
	// Fast path: no escapes.
	i := start
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 {
		i++
	}
	if i < len(d) && d[i] == '"' {
		s := d[start:i]
		if !utf8.Valid(s) {
			return "", fmt.Errorf("%w at offset %d", ErrInvalidUTF8, start)
		}
		p.pos = i + 1
		return p.intern(s), nil
	}
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, d[start:i]...)
	p.pos = i
	for {
		if p.pos >= len(d) {
			return "", p.tokenErrorf(true, "unterminated string")
		}
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			if !utf8.Valid(buf) {
				return "", fmt.Errorf("%w at offset %d", ErrInvalidUTF8, start)
			}
			return string(buf), nil
		case c < 0x20:
			return "", p.errorf("control character in a string")
		case c == '\\':
			var err error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
}

func (p *parser) escape(buf []byte) ([]byte, error) {
	d := p.data
	if p.pos+1 >= len(d) {
		return nil, p.tokenErrorf(true, "unterminated escape")
	}
	c := d[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
	default:
		return nil, p.errorf("invalid escape '\\%c'", c)
	}
	r1, ok := p.hex4()
	if !ok {
		return nil, p.tokenErrorf(p.pos+4 > len(d), "invalid \\u escape")
	}
	switch {
	case utf16.IsSurrogate(r1):
		if r1 >= 0xDC00 || p.pos+1 >= len(d) || d[p.pos] != '\\' || d[p.pos+1] != 'u' {
			return nil, fmt.Errorf("%w: lone surrogate at offset %d", ErrInvalidUTF8, p.pos)
		}
		p.pos += 2
		r2, ok := p.hex4()
		if !ok {
			return nil, p.tokenErrorf(p.pos+4 > len(d), "invalid \\u escape")
		}
		if r2 < 0xDC00 || r2 > 0xDFFF {
			return nil, fmt.Errorf("%w: lone surrogate at offset %d", ErrInvalidUTF8, p.pos)
		}
		return utf8.AppendRune(buf, utf16.DecodeRune(r1, r2)), nil
	default:
		return utf8.AppendRune(buf, r1), nil
	}
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}
