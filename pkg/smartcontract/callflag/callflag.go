package callflag

import (
	"encoding/json"
	"errors"

	"github.com/n3d-io/n3d/pkg/smartcontract/internal/dotnetenum"
)

// CallFlag is a set of call rights.
type CallFlag byte

// The call flags and their named combinations.
const (
	None        CallFlag = 0
	ReadStates  CallFlag = 1 << 0
	WriteStates CallFlag = 1 << 1
	AllowCall   CallFlag = 1 << 2
	AllowNotify CallFlag = 1 << 3

	States   = ReadStates | WriteStates
	ReadOnly = ReadStates | AllowCall
	All      = States | AllowCall | AllowNotify
)

// ErrInvalid is returned for a byte or a string that is no valid flag set.
var ErrInvalid = errors.New("callflag: invalid call flags")

var enum = dotnetenum.New([]dotnetenum.Member{
	{Name: "None", Value: uint64(None)},
	{Name: "ReadStates", Value: uint64(ReadStates)},
	{Name: "WriteStates", Value: uint64(WriteStates)},
	{Name: "AllowCall", Value: uint64(AllowCall)},
	{Name: "AllowNotify", Value: uint64(AllowNotify)},
	{Name: "States", Value: uint64(States)},
	{Name: "ReadOnly", Value: uint64(ReadOnly)},
	{Name: "All", Value: uint64(All)},
}, true, 0xff)

// IsValid reports whether f has no bits outside All.
func (f CallFlag) IsValid() bool { return f&^All == 0 }

// Has reports whether every flag of cf is set in f.
func (f CallFlag) Has(cf CallFlag) bool { return f&cf == cf }

// String returns the reference's text: a single name, or the names of the
// largest combinations covering f, ascending, joined by ", " (for example
// "States, AllowNotify"); a number for bits outside All.
func (f CallFlag) String() string { return enum.Format(uint64(f)) }

// FromString parses the reference's text (names joined by commas, or a
// number) and rejects bits outside All.
func FromString(s string) (CallFlag, error) {
	return dotnetenum.ParseValid(enum, s, CallFlag.IsValid, ErrInvalid)
}

// MarshalJSON writes f as its string form.
func (f CallFlag) MarshalJSON() ([]byte, error) { return json.Marshal(f.String()) }

// UnmarshalJSON reads the string form.
func (f *CallFlag) UnmarshalJSON(data []byte) error {
	return dotnetenum.UnmarshalJSON(data, f, FromString, ErrInvalid)
}
