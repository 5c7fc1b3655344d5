package native

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/rivo/uniseg"
)

// StdMaxInputLength is the MaxLength of StdLib's string and byte inputs.
const StdMaxInputLength = 1024

// The pure operations behind StdLib. They follow the C# reference
// (BigInteger.ToString/Parse, Convert.To/FromBase64String,
// Base64UrlEncoder, String.Split, StringInfo text elements).

// itoa formats n in base 10 or 16 (.NET "x": two's complement, shortest
// form whose first digit carries the sign).
func itoa(n *big.Int, base int64) (string, error) {
	switch base {
	case 10:
		return n.Text(10), nil
	case 16:
		if n.Sign() == 0 {
			return "0", nil
		}
		b := bigint.ToBytes(n)
		slices.Reverse(b)
		s := hex.EncodeToString(b)
		if top := b[0] & 0xF8; top == 0 || top == 0xF8 {
			s = s[1:]
		}
		return s, nil
	default:
		return "", errInvalidBase
	}
}

// atoi parses s in base 10 (optional leading sign, ASCII digits) or 16
// (hex digits only, the first one carrying the two's complement sign).
func atoi(s string, base int64) (*big.Int, error) {
	switch base {
	case 10:
		digits := s
		if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
			digits = digits[1:]
		}
		if digits == "" || strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			return nil, errInvalidFormat
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, errInvalidFormat
		}
		return n, nil
	case 16:
		if s == "" {
			return nil, errInvalidFormat
		}
		odd := len(s)%2 != 0
		if odd {
			s = "0" + s
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, vm.Fault(ErrInvalidFormat, "invalid format", err)
		}
		if odd && b[0]&0x08 != 0 {
			b[0] |= 0xF0
		}
		slices.Reverse(b)
		return bigint.FromBytes(b), nil
	default:
		return nil, errInvalidBase
	}
}

// stripBase64Space removes the white space Convert.FromBase64String
// ignores.
func stripBase64Space(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, s)
}

func base64Decode(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(stripBase64Space(s))
	if err != nil {
		return nil, vm.Fault(ErrInvalidFormat, err.Error(), err)
	}
	return b, nil
}

// base64URLEncode is Base64UrlEncoder.Encode: URL alphabet, no padding.
func base64URLEncode(s string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// base64URLDecode is Base64UrlEncoder.Decode: URL (or standard) alphabet,
// optional padding, the result read as UTF-8 with invalid sequences
// replaced.
func base64URLDecode(s string) (string, error) {
	s = stripBase64Space(s)
	if len(s)%4 == 1 {
		// Worded as the reference Go node's decoder words it.
		_, err := base64.URLEncoding.DecodeString(s)
		if err == nil {
			err = base64.CorruptInputError(len(s) - 1)
		}
		return "", vm.Fault(ErrInvalidFormat, err.Error(), err)
	}
	s = strings.NewReplacer("-", "+", "_", "/").Replace(s)
	for len(s)%4 != 0 {
		s += "="
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", vm.Fault(ErrInvalidFormat, err.Error(), err)
	}
	return toValidUTF8(b), nil
}

// toValidUTF8 decodes b as .NET's UTF8Encoding does: each maximal invalid
// subsequence becomes one U+FFFD.
func toValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r != utf8.RuneError || n > 1 {
			sb.WriteRune(r)
			b = b[n:]
			continue
		}
		sb.WriteRune(utf8.RuneError)
		b = b[invalidPrefixLen(b):]
	}
	return sb.String()
}

// invalidPrefixLen is the length of the maximal prefix of b that starts a
// valid UTF-8 sequence but is cut short (at least 1).
func invalidPrefixLen(b []byte) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(b); i++ {
		if b[i] < lo || b[i] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return i
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Decode is the reference Base58.Decode: the value as a big
// number, leading '1's as zero bytes; "" decodes to no bytes.
func base58Decode(s string) ([]byte, error) {
	n := new(big.Int)
	radix := big.NewInt(58)
	d := new(big.Int)
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(base58Alphabet, s[i])
		if v < 0 {
			return nil, interop.Faultf(ErrInvalidFormat, "invalid base58 digit ('%c')", s[i])
		}
		n.Mul(n, radix).Add(n, d.SetInt64(int64(v)))
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	return append(make([]byte, zeros), n.Bytes()...), nil
}

// base58CheckDecode is the reference Base58CheckDecode: at least the 4
// checksum bytes, which must match.
func base58CheckDecode(s string) ([]byte, error) {
	b, err := base58Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 4 {
		return nil, interop.Fault(ErrInvalidFormat, "invalid base-58 check string: missing checksum")
	}
	data, sum := b[:len(b)-4], b[len(b)-4:]
	if !bytes.Equal(hash.Checksum(data), sum) {
		return nil, interop.Fault(ErrInvalidFormat, "invalid base-58 check string: invalid checksum")
	}
	return data, nil
}

// hexDecode is String.HexToBytes: an even number of hex digits.
func hexDecode(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, vm.Fault(ErrInvalidFormat, fmt.Sprintf("hexDecode: invalid hex string %q: %s", s, err), err)
	}
	return b, nil
}

// memorySearch is the reference MemorySearch: forward from start, or
// backward within mem[:start].
func memorySearch(mem, value []byte, start int, backward bool) (int, error) {
	switch {
	case start < 0:
		return 0, invalidValue("bigint is not in uint32 range")
	case start > len(mem) && backward:
		return 0, interop.Fault(ErrInvalidArgument, "invalid start index")
	case start > len(mem):
		// The reference slices mem[start:] and panics.
		return 0, interop.Faultf(ErrInvalidArgument, "runtime error: slice bounds out of range [%d:%d]", start, len(mem))
	}
	if backward {
		return bytes.LastIndex(mem[:start], value), nil
	}
	i := bytes.Index(mem[start:], value)
	if i < 0 {
		return -1, nil
	}
	return i + start, nil
}

// stringSplit is String.Split(separator[, RemoveEmptyEntries]); an empty
// separator leaves the string whole (an empty string gives no entry when
// empty entries are removed).
func stringSplit(s, sep string, removeEmpty bool) []string {
	var parts []string
	if sep == "" {
		parts = []string{s}
	} else {
		parts = strings.Split(s, sep)
	}
	if !removeEmpty {
		return parts
	}
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// strLen counts text elements (extended grapheme clusters) as
// StringInfo.GetTextElementEnumerator does.
func strLen(s string) int {
	return uniseg.GraphemeClusterCount(s)
}
