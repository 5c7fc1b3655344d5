package trigger

import (
	"encoding/json"
	"errors"

	"github.com/n3d-io/n3d/pkg/smartcontract/internal/dotnetenum"
)

// Type is a trigger or a set of triggers.
type Type byte

// The triggers and their named combinations.
const (
	OnPersist    Type = 0x01
	PostPersist  Type = 0x02
	Verification Type = 0x20
	Application  Type = 0x40

	System = OnPersist | PostPersist
	All    = OnPersist | PostPersist | Verification | Application
)

// ErrInvalid is returned for a string that names no trigger.
var ErrInvalid = errors.New("trigger: invalid trigger")

var enum = dotnetenum.New([]dotnetenum.Member{
	{Name: "OnPersist", Value: uint64(OnPersist)},
	{Name: "PostPersist", Value: uint64(PostPersist)},
	{Name: "Verification", Value: uint64(Verification)},
	{Name: "Application", Value: uint64(Application)},
	{Name: "System", Value: uint64(System)},
	{Name: "All", Value: uint64(All)},
}, true, 0xff)

// String returns the reference's name ("OnPersist", "Application", ...),
// combinations as a comma-separated list and unknown bits as a number.
func (t Type) String() string { return enum.Format(uint64(t)) }

// IsValid reports whether t has no bits outside All and is not empty.
func (t Type) IsValid() bool { return t != 0 && t&^All == 0 }

// FromString parses the reference's text of a trigger (set).
func FromString(s string) (Type, error) {
	return dotnetenum.ParseValid(enum, s, Type.IsValid, ErrInvalid)
}

// MarshalJSON writes t as its string form.
func (t Type) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// UnmarshalJSON reads the string form.
func (t *Type) UnmarshalJSON(data []byte) error {
	return dotnetenum.UnmarshalJSON(data, t, FromString, ErrInvalid)
}
