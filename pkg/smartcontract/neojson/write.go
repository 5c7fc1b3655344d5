package neojson

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrUnsupported is returned by Append for a Go value that is no JSON value
// of this package.
var ErrUnsupported = errors.New("neojson: unsupported value")

// Append writes v in compact form.
func Append(buf []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case bool:
		if v {
			return append(buf, "true"...), nil
		}
		return append(buf, "false"...), nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%w: %v", ErrNumberRange, v)
		}
		return AppendNumber(buf, v), nil
	case string:
		return AppendString(buf, v), nil
	case []any:
		buf = append(buf, '[')
		for i, e := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = Append(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case *Object:
		buf = append(buf, '{')
		for i, m := range v.Members {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = AppendString(buf, m.Key)
			buf = append(buf, ':')
			var err error
			if buf, err = Append(buf, m.Value); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	default:
		return nil, fmt.Errorf("%w: %T", ErrUnsupported, v)
	}
}

// Marshal returns v in compact form.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// safeASCII marks the ASCII bytes written as they are.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = true
	}
	for _, c := range `"&'+<>` + "`\\" {
		t[c] = false
	}
	return t
}()

const hexUpper = "0123456789ABCDEF"

// AppendString writes s as a quoted, escaped JSON string. Bytes that are not
// valid UTF-8 are written as \uFFFD (the parser never produces them).
func AppendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && safeASCII[c] {
			i++
			continue
		}
		buf = append(buf, s[start:i]...)
		if c < utf8.RuneSelf {
			buf = appendEscapedASCII(buf, c)
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				buf = appendU(buf, r1)
				buf = appendU(buf, r2)
			} else {
				buf = appendU(buf, r)
			}
		}
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

func appendEscapedASCII(buf []byte, c byte) []byte {
	switch c {
	case '\b':
		return append(buf, '\\', 'b')
	case '\t':
		return append(buf, '\\', 't')
	case '\n':
		return append(buf, '\\', 'n')
	case '\f':
		return append(buf, '\\', 'f')
	case '\r':
		return append(buf, '\\', 'r')
	case '\\':
		return append(buf, '\\', '\\')
	}
	return appendU(buf, rune(c))
}

func appendU(buf []byte, r rune) []byte {
	return append(buf, '\\', 'u', hexUpper[r>>12&0xF], hexUpper[r>>8&0xF], hexUpper[r>>4&0xF], hexUpper[r&0xF])
}

// AppendNumber writes f as .NET formats a double by default: the shortest
// digits that round-trip, in fixed notation when the decimal exponent fits
// (at most max(15, digits) integer digits, at most three leading zeros
// after the point), otherwise as d.dddE+XX with at least two exponent
// digits. Negative zero is "-0". f must be finite.
func AppendNumber(buf []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(buf, '-', '0')
		}
		return append(buf, '0')
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], math.Abs(f), 'e', -1, 64)
	// e is d[.ddd]e±XX
	var digits [17]byte
	nd := 0
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[nd] = e[i]
			nd++
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	scale := exp + 1 // position of the decimal point relative to the digits
	if f < 0 {
		buf = append(buf, '-')
	}
	if scale > max(15, nd) || scale < -3 {
		buf = append(buf, digits[0])
		if nd > 1 {
			buf = append(buf, '.')
			buf = append(buf, digits[1:nd]...)
		}
		buf = append(buf, 'E')
		if exp < 0 {
			buf = append(buf, '-')
			exp = -exp
		} else {
			buf = append(buf, '+')
		}
		if exp < 10 {
			buf = append(buf, '0')
		}
		return strconv.AppendInt(buf, int64(exp), 10)
	}
	if scale <= 0 {
		buf = append(buf, '0', '.')
		for ; scale < 0; scale++ {
			buf = append(buf, '0')
		}
		return append(buf, digits[:nd]...)
	}
	for k := 0; k < scale; k++ {
		if k < nd {
			buf = append(buf, digits[k])
		} else {
			buf = append(buf, '0')
		}
	}
	if nd > scale {
		buf = append(buf, '.')
		buf = append(buf, digits[scale:nd]...)
	}
	return buf
}
