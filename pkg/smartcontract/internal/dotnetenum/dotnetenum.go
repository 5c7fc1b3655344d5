package dotnetenum

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// ErrInvalid is returned when a string names no value of the enum.
var ErrInvalid = errors.New("dotnetenum: invalid value")

// Member is one named value of an enum.
type Member struct {
	Name  string
	Value uint64
}

// Enum is the list of named values of an enum, in any order.
type Enum struct {
	members []Member // sorted by value, ascending
	flags   bool
	max     uint64
}

// New describes an enum. flags tells whether the C# type carries
// [Flags] (it changes ToString for combined values); max is the largest
// value of the underlying integer type.
func New(members []Member, flags bool, max uint64) *Enum {
	ms := slices.Clone(members)
	slices.SortStableFunc(ms, func(a, b Member) int {
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	return &Enum{members: ms, flags: flags, max: max}
}

// Name returns the name of exactly v, if v is a named value.
func (e *Enum) Name(v uint64) (string, bool) {
	for _, m := range e.members {
		if m.Value == v {
			return m.Name, true
		}
	}
	return "", false
}

// IsDefined reports whether v is a named value (C# Enum.IsDefined).
func (e *Enum) IsDefined(v uint64) bool {
	_, ok := e.Name(v)
	return ok
}

// Format returns v as C# Enum.ToString does: the name of v; for a [Flags]
// enum otherwise the names of the largest named values that cover v,
// joined by ", " in ascending order; the decimal number when neither works.
func (e *Enum) Format(v uint64) string {
	if name, ok := e.Name(v); ok {
		return name
	}
	if e.flags && v != 0 {
		if s, ok := e.formatFlags(v); ok {
			return s
		}
	}
	return strconv.FormatUint(v, 10)
}

func (e *Enum) formatFlags(v uint64) (string, bool) {
	var found []int
	rest := v
	for i := len(e.members) - 1; i >= 0 && rest != 0; i-- {
		mv := e.members[i].Value
		if mv == 0 {
			break
		}
		if rest&mv == mv {
			rest -= mv
			found = append(found, i)
		}
	}
	if rest != 0 {
		return "", false
	}
	var sb strings.Builder
	for j := len(found) - 1; j >= 0; j-- {
		sb.WriteString(e.members[found[j]].Name)
		if j > 0 {
			sb.WriteString(", ")
		}
	}
	return sb.String(), true
}

// Parse converts s as C# Enum.Parse (case-sensitive) does: leading white
// space is skipped; a string starting with a digit or a sign is a number
// (surrounding ASCII white space allowed) and fails when out of range;
// otherwise it is a comma-separated list of names (each trimmed) whose
// values are OR-ed together. The result need not be a named value: check
// IsDefined where the reference does.
func (e *Enum) Parse(s string) (uint64, error) {
	v := strings.TrimLeftFunc(s, unicode.IsSpace)
	if v == "" {
		return 0, fmt.Errorf("%w: empty string", ErrInvalid)
	}
	if c := v[0]; (c >= '0' && c <= '9') || c == '-' || c == '+' {
		n, overflow, ok := parseNumber(v, e.max)
		if overflow {
			return 0, fmt.Errorf("%w: %q out of range", ErrInvalid, s)
		}
		if ok {
			return n, nil
		}
	}
	return e.parseNames(v, s)
}

func (e *Enum) parseNames(v, orig string) (uint64, error) {
	var res uint64
	for {
		part, rest, more := strings.Cut(v, ",")
		if more && rest == "" {
			return 0, fmt.Errorf("%w: %q ends with a separator", ErrInvalid, orig)
		}
		part = strings.TrimFunc(part, unicode.IsSpace)
		found := false
		for _, m := range e.members {
			if m.Name == part {
				res |= m.Value
				found = true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("%w: %q", ErrInvalid, orig)
		}
		if !more {
			return res, nil
		}
		v = rest
	}
}

// isASCIISpace is the white space .NET number parsing accepts.
func isASCIISpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// parseNumber parses an optionally signed decimal integer surrounded by
// ASCII white space, possibly followed by NUL characters. ok is false when s is not such a number; overflow is
// true when it is one but lies outside 0..max ("-0" is zero).
func parseNumber(s string, max uint64) (n uint64, overflow, ok bool) {
	i := 0
	for i < len(s) && isASCIISpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if !overflow {
			d := uint64(s[i] - '0')
			if n > (max-d)/10 {
				overflow = true
			} else {
				n = n*10 + d
			}
		}
		i++
	}
	if i == start {
		return 0, false, false
	}
	for i < len(s) && isASCIISpace(s[i]) {
		i++
	}
	// .NET also ignores trailing NUL characters after a number.
	for i < len(s) && s[i] == 0 {
		i++
	}
	if i != len(s) {
		return 0, false, false
	}
	if neg && n != 0 {
		overflow = true
	}
	return n, overflow, true
}
