package params

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// Errors of the Param getters. The texts are neo-go's, without a package
// prefix, as the server quotes them in the data of its answers.
var (
	ErrMissing  = errors.New("parameter is missing")
	ErrNotStr   = errors.New("not a string")
	ErrNotInt   = errors.New("not an integer")
	ErrNotBool  = errors.New("not a boolean")
	ErrNotArray = errors.New("not an array")
)

// Param is one positional parameter, kept as raw JSON and converted on
// demand.
type Param struct {
	json.RawMessage
}

// Params are the positional parameters of a call.
type Params []Param

// Value returns parameter i, nil when there are fewer parameters.
func (ps Params) Value(i int) *Param {
	if i < len(ps) {
		return &ps[i]
	}
	return nil
}

// IsNull reports whether the parameter is JSON null.
func (p *Param) IsNull() bool {
	return p != nil && bytes.Equal(bytes.TrimSpace(p.RawMessage), []byte("null"))
}

// scalar is the parsed JSON value of a scalar parameter: string, int64,
// bool, or nil for anything else (null included).
func (p *Param) scalar() any {
	if p.IsNull() {
		return nil
	}
	var s string
	if json.Unmarshal(p.RawMessage, &s) == nil {
		return s
	}
	var i int64
	if json.Unmarshal(p.RawMessage, &i) == nil {
		return i
	}
	var b bool
	if json.Unmarshal(p.RawMessage, &b) == nil {
		return b
	}
	return nil
}

// GetString returns a string parameter; numbers and booleans are given in
// their decimal and true/false forms (the reference's leniency).
func (p *Param) GetString() (string, error) {
	if p == nil {
		return "", ErrMissing
	}
	if b, ok := p.PlainBytes(); ok {
		return string(b), nil
	}
	switch v := p.scalar().(type) {
	case string:
		return v, nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case bool:
		return strconv.FormatBool(v), nil
	}
	return "", ErrNotStr
}

// plainString is raw's value when raw is a JSON string of printable ASCII
// without escapes (a base64 transaction, a hash, an address): its
// contents, what json.Unmarshal into a string gives, without its scans.
// Any other string takes the general way.
func plainString(raw []byte) (string, bool) {
	if !isPlainString(raw) {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

func isPlainString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			return false
		}
	}
	return true
}

// PlainBytes returns the contents of a string parameter of printable
// ASCII without escapes (a base64 transaction, a hash) without copying
// them: they alias the request, do not modify them. It reports false for
// a missing parameter and any other value (GetString then reads it).
func (p *Param) PlainBytes() ([]byte, bool) {
	if p == nil {
		return nil, false
	}
	raw := p.RawMessage
	if !isPlainString(raw) {
		return nil, false
	}
	return raw[1 : len(raw)-1 : len(raw)-1], true
}

// GetStringStrict returns a JSON string parameter.
func (p *Param) GetStringStrict() (string, error) {
	if p == nil {
		return "", ErrMissing
	}
	var s string
	if p.IsNull() || json.Unmarshal(p.RawMessage, &s) != nil {
		return "", ErrNotStr
	}
	return s, nil
}

// GetInt returns an integer given as a number, a decimal string or a
// boolean (1/0).
func (p *Param) GetInt() (int64, error) {
	if p == nil {
		return 0, ErrMissing
	}
	switch v := p.scalar().(type) {
	case int64:
		return v, nil
	case string:
		i, err := strconv.Atoi(v) // its error is neo-go's answer text
		return int64(i), err
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	return 0, ErrNotInt
}

// GetIntStrict returns an integer given as a JSON number.
func (p *Param) GetIntStrict() (int64, error) {
	if p == nil {
		return 0, ErrMissing
	}
	var i int64
	if p.IsNull() || json.Unmarshal(p.RawMessage, &i) != nil {
		return 0, ErrNotInt
	}
	return i, nil
}

// GetBigInt returns an arbitrary integer given as a number, a decimal
// string or a boolean.
func (p *Param) GetBigInt() (*big.Int, error) {
	if p == nil {
		return nil, ErrMissing
	}
	switch v := p.scalar().(type) {
	case int64:
		return big.NewInt(v), nil
	case string:
		n, ok := new(big.Int).SetString(v, 10)
		if !ok {
			return nil, ErrNotInt
		}
		return n, nil
	case bool:
		if v {
			return big.NewInt(1), nil
		}
		return new(big.Int), nil
	}
	// A number beyond int64.
	var n json.Number
	if json.Unmarshal(p.RawMessage, &n) == nil {
		if b, ok := new(big.Int).SetString(n.String(), 10); ok {
			return b, nil
		}
	}
	return nil, ErrNotInt
}

// GetBoolean returns a boolean; strings are true when non-empty and
// numbers when non-zero (the reference's leniency).
func (p *Param) GetBoolean() (bool, error) {
	if p == nil {
		return false, ErrMissing
	}
	switch v := p.scalar().(type) {
	case bool:
		return v, nil
	case string:
		return v != "", nil
	case int64:
		return v != 0, nil
	}
	return false, ErrNotBool
}

// GetBooleanStrict returns a JSON boolean.
func (p *Param) GetBooleanStrict() (bool, error) {
	if p == nil {
		return false, ErrMissing
	}
	switch string(bytes.TrimSpace(p.RawMessage)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, ErrNotBool
}

// GetArray returns the elements of an array parameter.
func (p *Param) GetArray() ([]Param, error) {
	if p == nil {
		return nil, ErrMissing
	}
	var a []Param
	if p.IsNull() || json.Unmarshal(p.RawMessage, &a) != nil {
		return nil, ErrNotArray
	}
	if a == nil {
		a = []Param{}
	}
	return a, nil
}

// GetUint256 parses a hash in the reference's printed form, 0x optional.
func (p *Param) GetUint256() (util.Uint256, error) {
	s, err := p.GetString()
	if err != nil {
		return util.Uint256{}, err
	}
	return decodeHash(strings.TrimPrefix(s, "0x"), 2*util.Uint256Size, util.Uint256DecodeStringBE)
}

// decodeHash decodes hex s of want digits with dec, a wrong length worded
// as neo-go's ("expected string size of 40 got 1").
func decodeHash[T any](s string, want int, dec func(string) (T, error)) (T, error) {
	v, err := dec(s)
	if err != nil && len(s) != want {
		return v, wording(fmt.Sprintf("expected string size of %d got %d", want, len(s)), err)
	}
	return v, err
}

// GetUint160FromHex parses a script hash in the reference's printed form,
// 0x optional.
func (p *Param) GetUint160FromHex() (util.Uint160, error) {
	s, err := p.GetString()
	if err != nil {
		return util.Uint160{}, err
	}
	return decodeHash(strings.TrimPrefix(s, "0x"), 2*util.Uint160Size, util.Uint160DecodeStringBE)
}

// GetUint160FromAddress parses a Neo address.
func (p *Param) GetUint160FromAddress() (util.Uint160, error) {
	s, err := p.GetString()
	if err != nil {
		return util.Uint160{}, err
	}
	return address.StringToUint160(s)
}

// GetUint160FromAddressOrHex accepts a script hash or an address.
func (p *Param) GetUint160FromAddressOrHex() (util.Uint160, error) {
	if u, err := p.GetUint160FromHex(); err == nil {
		return u, nil
	}
	return p.GetUint160FromAddress()
}

// GetBytesHex decodes a hex string parameter.
func (p *Param) GetBytesHex() ([]byte, error) {
	s, err := p.GetString()
	if err != nil {
		return nil, err
	}
	return hex.DecodeString(s)
}

// GetBytesBase64 decodes a base64 string parameter.
func (p *Param) GetBytesBase64() ([]byte, error) {
	s, err := p.GetString()
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s)
}

// String returns the parameter as GetString gives it, or its raw JSON.
func (p Param) String() string {
	if s, err := p.GetString(); err == nil {
		return s
	}
	return string(p.RawMessage)
}
