package transaction

import (
	"encoding/json"
	"fmt"
	"strings"
)

// WitnessScope is the set of contexts in which a signer's witness counts.
type WitnessScope byte

// Witness scope flags, as in the reference.
const (
	// None: the witness is only valid for transaction verification (fee
	// payment).
	None WitnessScope = 0
	// CalledByEntry: valid for the entry script and contracts it calls
	// directly.
	CalledByEntry WitnessScope = 0x01
	// CustomContracts: valid inside the listed contracts.
	CustomContracts WitnessScope = 0x10
	// CustomGroups: valid inside contracts of the listed groups.
	CustomGroups WitnessScope = 0x20
	// WitnessRules: valid where the signer's rules allow it.
	WitnessRules WitnessScope = 0x40
	// Global: valid everywhere; cannot be combined with other flags.
	Global WitnessScope = 0x80
)

const validScopes = CalledByEntry | CustomContracts | CustomGroups | WitnessRules | Global

// scopeNames lists the flags in ascending value order, the order the
// reference uses when printing a combination.
var scopeNames = [...]struct {
	s    WitnessScope
	name string
}{
	{CalledByEntry, "CalledByEntry"},
	{CustomContracts, "CustomContracts"},
	{CustomGroups, "CustomGroups"},
	{WitnessRules, "WitnessRules"},
	{Global, "Global"},
}

// Validate reports whether s is a scope the reference accepts: only known
// flags, and Global alone.
func (s WitnessScope) Validate() error {
	if s&^validScopes != 0 || (s&Global != 0 && s != Global) {
		return fmt.Errorf("%w: 0x%02x", ErrInvalidScope, byte(s))
	}
	return nil
}

// String prints the scope like the reference: "None", a single name, or
// names joined with ", " in ascending flag order. Unknown bits are printed
// as a number.
func (s WitnessScope) String() string {
	if s == None {
		return "None"
	}
	if s&^validScopes != 0 {
		return fmt.Sprintf("%d", byte(s))
	}
	var b strings.Builder
	for _, n := range scopeNames {
		if s&n.s != 0 {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n.name)
		}
	}
	return b.String()
}

// ScopesFromString parses a comma-separated list of scope names (spaces
// around names allowed, as the reference's enum parser does) and validates
// the result.
func ScopesFromString(str string) (WitnessScope, error) {
	var res WitnessScope
	parts := strings.Split(str, ",")
	for _, part := range parts {
		part = strings.TrimSpace(part)
		found := false
		if part == "None" {
			found = true
		}
		for _, n := range scopeNames {
			if part == n.name {
				res |= n.s
				found = true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("%w: unknown scope %q", ErrInvalidScope, part)
		}
	}
	if err := res.Validate(); err != nil {
		return 0, err
	}
	return res, nil
}

// MarshalJSON writes the scope as its string form.
func (s WitnessScope) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.String())
}

// UnmarshalJSON parses the string form.
func (s *WitnessScope) UnmarshalJSON(data []byte) error {
	var str string
	if err := json.Unmarshal(data, &str); err != nil {
		return fmt.Errorf("%w: scopes: %w", ErrInvalidJSON, err)
	}
	v, err := ScopesFromString(str)
	if err != nil {
		return err
	}
	*s = v
	return nil
}
