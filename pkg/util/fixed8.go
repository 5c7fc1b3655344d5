package util

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Fixed8 is an amount with 8 decimal places, the precision of GAS: 1 GAS is
// Fixed8(100000000).
type Fixed8 int64

const (
	fixed8Decimals = 8
	fixed8One      = 100000000
)

// ErrBadFixed8 is returned for a string that is not a valid Fixed8 amount.
var ErrBadFixed8 = errors.New("util: bad Fixed8")

// Fixed8FromInt64 makes a Fixed8 of v whole units.
func Fixed8FromInt64(v int64) Fixed8 { return Fixed8(v * fixed8One) }

// String formats f as a decimal without trailing zeros ("1.5", "-0.00000001").
func (f Fixed8) String() string {
	v := int64(f)
	sign := ""
	u := uint64(v)
	if v < 0 {
		sign = "-"
		u = uint64(-v) // also right for math.MinInt64 in two's complement
	}
	s := sign + strconv.FormatUint(u/fixed8One, 10)
	if frac := u % fixed8One; frac != 0 {
		fs := fmt.Sprintf("%08d", frac)
		s += "." + strings.TrimRight(fs, "0")
	}
	return s
}

// Fixed8FromString parses a decimal with at most 8 fractional digits.
func Fixed8FromString(s string) (Fixed8, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	intPart, fracPart, hasDot := strings.Cut(body, ".")
	if intPart == "" || (hasDot && fracPart == "") || len(fracPart) > fixed8Decimals {
		return 0, fmt.Errorf("%w: %q", ErrBadFixed8, s)
	}
	ip, err := strconv.ParseUint(intPart, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q: %w", ErrBadFixed8, s, err)
	}
	var fp uint64
	if fracPart != "" {
		fp, err = strconv.ParseUint(fracPart+strings.Repeat("0", fixed8Decimals-len(fracPart)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: %q: %w", ErrBadFixed8, s, err)
		}
	}
	if ip > (math.MaxInt64-fp)/fixed8One {
		return 0, fmt.Errorf("%w: %q out of range", ErrBadFixed8, s)
	}
	v := int64(ip*fixed8One + fp)
	if neg {
		v = -v
	}
	return Fixed8(v), nil
}

// MarshalJSON encodes f as a decimal string, as the reference RPC does.
func (f Fixed8) MarshalJSON() ([]byte, error) {
	return []byte(`"` + f.String() + `"`), nil
}

// UnmarshalJSON accepts a decimal string or a JSON number.
func (f *Fixed8) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		s = string(data)
	}
	v, err := Fixed8FromString(s)
	if err != nil {
		return err
	}
	*f = v
	return nil
}
