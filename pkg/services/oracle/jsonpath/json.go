package jsonpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object with its members in document order; a key that
// appears twice is kept twice.
type Object []Member

// ErrNotUTF8 is returned by Parse for input that is not valid UTF-8.
var ErrNotUTF8 = errors.New("jsonpath: input is not UTF-8")

// Parse decodes the first JSON value of data, as a streaming decoder
// would: anything after a complete object or array is ignored, a scalar
// must be followed by nothing but white space. Numbers become float64.
func Parse(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, ErrNotUTF8
	}
	var raw json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		return nil, fmt.Errorf("jsonpath: %w", err)
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	v, err := parseValue(d)
	if err != nil {
		return nil, fmt.Errorf("jsonpath: %w", err)
	}
	return v, nil
}

func parseValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return parseObject(d)
		case '[':
			return parseArray(d)
		}
		return nil, fmt.Errorf("unexpected %q", rune(t))
	default:
		return t, nil // string, float64, bool or nil
	}
}

func parseObject(d *json.Decoder) (any, error) {
	obj := Object{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key %v", tok)
		}
		v, err := parseValue(d)
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{Key: key, Value: v})
	}
	if _, err := d.Token(); err != nil { // '}'
		return nil, err
	}
	return obj, nil
}

func parseArray(d *json.Decoder) (any, error) {
	arr := []any{}
	for d.More() {
		v, err := parseValue(d)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if _, err := d.Token(); err != nil { // ']'
		return nil, err
	}
	return arr, nil
}

// Marshal prints v (a value of Parse or a slice of them) as compact JSON:
// objects keep their member order, strings and numbers are printed as
// neo-go's JSON writer prints them (see writeString; numbers in the ES6
// format of encoding/json).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := marshal(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func marshal(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case Object:
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := marshalScalar(b, m.Key); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := marshal(b, m.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := marshal(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return marshalScalar(b, v)
	}
	return nil
}

func marshalScalar(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case string:
		writeString(b, x)
		return nil
	case nil, float64, bool:
	default:
		return fmt.Errorf("jsonpath: cannot print a %T", v)
	}
	data, err := json.Marshal(v) // ES6 number format, as the reference
	if err != nil {
		return fmt.Errorf("jsonpath: %w", err)
	}
	b.Write(data)
	return nil
}

const hexDigits = "0123456789ABCDEF"

// writeString prints s quoted the way the reference's JSON writer does
// (C#'s default JavaScriptEncoder): printable ASCII as is except
// " & ' + < > ` and DEL, which become \u00XX; backslash and the short
// control escapes (\b \f \n \r \t) as such; every other character
// as \uXXXX (upper-case hex, UTF-16 surrogate pairs above U+FFFF).
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20 || c == 0x7f || strings.IndexByte("\"&'+<>`", c) >= 0:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xF])
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[s[i-1]>>4])
			b.WriteByte(hexDigits[s[i-1]&0xF])
			continue
		}
		if r < 0x10000 {
			writeU16(b, uint16(r))
			continue
		}
		r1, r2 := utf16.EncodeRune(r)
		writeU16(b, uint16(r1))
		writeU16(b, uint16(r2))
	}
	b.WriteByte('"')
}

func writeU16(b *bytes.Buffer, u uint16) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(u>>uint(shift))&0xF])
	}
}

// unquote turns a quoted path string ('...', quotes trimmed from both
// ends) into its value, reading JSON escapes.
func unquote(s string) (string, bool) {
	s = strings.Trim(s, "'")
	var out string
	if err := json.Unmarshal([]byte(`"`+s+`"`), &out); err != nil {
		return "", false
	}
	return out, true
}
