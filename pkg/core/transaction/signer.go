package transaction

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// Signer is an account that signs the transaction and the scope in which
// its witness is valid. The lists are only serialized when the matching
// scope flag is set.
type Signer struct {
	Account          util.Uint160
	Scopes           WitnessScope
	AllowedContracts []util.Uint160
	AllowedGroups    []ECPoint
	Rules            []WitnessRule
}

// DecodeBinary reads a signer and validates its scope.
func (s *Signer) DecodeBinary(r *io.BinReader) {
	r.ReadBytes(s.Account[:])
	s.Scopes = WitnessScope(r.ReadU8())
	if r.Err != nil {
		return
	}
	if err := s.Scopes.Validate(); err != nil {
		setErr(r, err)
		return
	}
	s.AllowedContracts, s.AllowedGroups, s.Rules = nil, nil, nil
	if s.Scopes&CustomContracts != 0 {
		s.AllowedContracts = io.ReadArray[util.Uint160](r, MaxSubitems)
	}
	if s.Scopes&CustomGroups != 0 {
		s.AllowedGroups = io.ReadArray[ECPoint](r, MaxSubitems)
	}
	if s.Scopes&WitnessRules != 0 {
		s.Rules = io.ReadArray[WitnessRule](r, MaxSubitems)
	}
}

// EncodeBinary writes the signer.
func (s *Signer) EncodeBinary(w *io.BinWriter) {
	w.WriteBytes(s.Account[:])
	w.WriteU8(byte(s.Scopes))
	if s.Scopes&CustomContracts != 0 {
		w.WriteVarUint(uint64(len(s.AllowedContracts)))
		for i := range s.AllowedContracts {
			w.WriteBytes(s.AllowedContracts[i][:])
		}
	}
	if s.Scopes&CustomGroups != 0 {
		w.WriteVarUint(uint64(len(s.AllowedGroups)))
		for i := range s.AllowedGroups {
			w.WriteBytes(s.AllowedGroups[i][:])
		}
	}
	if s.Scopes&WitnessRules != 0 {
		w.WriteVarUint(uint64(len(s.Rules)))
		for i := range s.Rules {
			s.Rules[i].EncodeBinary(w)
		}
	}
}

// Size is the serialized size of the signer.
func (s *Signer) Size() int {
	n := util.Uint160Size + 1
	if s.Scopes&CustomContracts != 0 {
		n += io.GetVarSize(len(s.AllowedContracts)) + len(s.AllowedContracts)*util.Uint160Size
	}
	if s.Scopes&CustomGroups != 0 {
		n += io.GetVarSize(len(s.AllowedGroups)) + len(s.AllowedGroups)*ECPointSize
	}
	if s.Scopes&WitnessRules != 0 {
		n += io.GetVarSize(len(s.Rules))
		for i := range s.Rules {
			n += s.Rules[i].Size()
		}
	}
	return n
}

// signerJSONFull is used when a list whose flag is set is empty: the
// reference still prints it as [].
type signerJSONFull struct {
	Account          util.Uint160    `json:"account"`
	Scopes           WitnessScope    `json:"scopes"`
	AllowedContracts *[]util.Uint160 `json:"allowedcontracts,omitempty"`
	AllowedGroups    *[]ECPoint      `json:"allowedgroups,omitempty"`
	Rules            *[]WitnessRule  `json:"rules,omitempty"`
}

// MarshalJSON writes the reference's form: account, scopes, then the lists
// whose scope flag is set (even when empty).
func (s Signer) MarshalJSON() ([]byte, error) {
	aux := signerJSONFull{Account: s.Account, Scopes: s.Scopes}
	if s.Scopes&CustomContracts != 0 {
		l := s.AllowedContracts
		if l == nil {
			l = []util.Uint160{}
		}
		aux.AllowedContracts = &l
	}
	if s.Scopes&CustomGroups != 0 {
		l := s.AllowedGroups
		if l == nil {
			l = []ECPoint{}
		}
		aux.AllowedGroups = &l
	}
	if s.Scopes&WitnessRules != 0 {
		l := s.Rules
		if l == nil {
			l = []WitnessRule{}
		}
		aux.Rules = &l
	}
	return json.Marshal(aux)
}

// UnmarshalJSON parses the reference's form; lists are required when their
// flag is set and ignored otherwise, as in the reference.
func (s *Signer) UnmarshalJSON(data []byte) error {
	var aux struct {
		Account          *util.Uint160   `json:"account"`
		Scopes           *WitnessScope   `json:"scopes"`
		AllowedContracts *[]util.Uint160 `json:"allowedcontracts"`
		AllowedGroups    *[]ECPoint      `json:"allowedgroups"`
		Rules            *[]WitnessRule  `json:"rules"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: signer: %w", ErrInvalidJSON, err)
	}
	if aux.Account == nil || aux.Scopes == nil {
		return fmt.Errorf("%w: signer without account or scopes", ErrInvalidJSON)
	}
	*s = Signer{Account: *aux.Account, Scopes: *aux.Scopes}
	var err error
	if s.Scopes&CustomContracts != 0 {
		s.AllowedContracts, err = requiredList(aux.AllowedContracts, "allowedcontracts")
		if err != nil {
			return err
		}
	}
	if s.Scopes&CustomGroups != 0 {
		s.AllowedGroups, err = requiredList(aux.AllowedGroups, "allowedgroups")
		if err != nil {
			return err
		}
	}
	if s.Scopes&WitnessRules != 0 {
		s.Rules, err = requiredList(aux.Rules, "rules")
	}
	return err
}

func requiredList[T any](l *[]T, name string) ([]T, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: signer without %s", ErrInvalidJSON, name)
	}
	if len(*l) > MaxSubitems {
		return nil, fmt.Errorf("%w: %d %s", ErrTooManySubitems, len(*l), name)
	}
	return *l, nil
}

// Copy returns a deep copy of s.
func (s Signer) Copy() Signer {
	s.AllowedContracts = append([]util.Uint160(nil), s.AllowedContracts...)
	s.AllowedGroups = append([]ECPoint(nil), s.AllowedGroups...)
	if s.Rules != nil {
		rules := make([]WitnessRule, len(s.Rules))
		for i := range s.Rules {
			rules[i] = s.Rules[i].Copy()
		}
		s.Rules = rules
	}
	return s
}
