package transaction

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
)

// WitnessAction is what a rule does when its condition matches.
type WitnessAction byte

// Rule actions, as in the reference.
const (
	WitnessDeny  WitnessAction = 0
	WitnessAllow WitnessAction = 1
)

// String returns "Deny" or "Allow".
func (a WitnessAction) String() string {
	switch a {
	case WitnessDeny:
		return "Deny"
	case WitnessAllow:
		return "Allow"
	}
	return fmt.Sprintf("%d", byte(a))
}

// WitnessRule allows or denies the witness where its condition matches.
type WitnessRule struct {
	Action    WitnessAction
	Condition WitnessCondition
}

// DecodeBinary reads the action byte and the condition tree.
func (wr *WitnessRule) DecodeBinary(r *io.BinReader) {
	wr.Action = WitnessAction(r.ReadU8())
	if r.Err == nil && wr.Action != WitnessDeny && wr.Action != WitnessAllow {
		setErr(r, fmt.Errorf("%w: %d", ErrInvalidAction, byte(wr.Action)))
		return
	}
	wr.Condition.DecodeBinary(r)
}

// EncodeBinary writes the rule.
func (wr *WitnessRule) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(wr.Action))
	wr.Condition.EncodeBinary(w)
}

// Size is the serialized size of the rule.
func (wr *WitnessRule) Size() int { return 1 + wr.Condition.Size() }

type ruleJSON struct {
	Action    string          `json:"action"`
	Condition json.RawMessage `json:"condition"`
}

// MarshalJSON writes {"action": "Allow"|"Deny", "condition": {...}}.
func (wr WitnessRule) MarshalJSON() ([]byte, error) {
	if wr.Action != WitnessDeny && wr.Action != WitnessAllow {
		return nil, fmt.Errorf("%w: %d", ErrInvalidAction, byte(wr.Action))
	}
	cond, err := json.Marshal(wr.Condition)
	if err != nil {
		return nil, err
	}
	return json.Marshal(ruleJSON{Action: wr.Action.String(), Condition: cond})
}

// UnmarshalJSON parses the form written by MarshalJSON.
func (wr *WitnessRule) UnmarshalJSON(data []byte) error {
	var aux ruleJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: rule: %w", ErrInvalidJSON, err)
	}
	switch aux.Action {
	case "Deny":
		wr.Action = WitnessDeny
	case "Allow":
		wr.Action = WitnessAllow
	default:
		return fmt.Errorf("%w: %q", ErrInvalidAction, aux.Action)
	}
	if len(aux.Condition) == 0 {
		return fmt.Errorf("%w: rule without condition", ErrInvalidCondition)
	}
	return wr.Condition.UnmarshalJSON(aux.Condition)
}

// Copy returns a deep copy of wr.
func (wr WitnessRule) Copy() WitnessRule {
	wr.Condition = wr.Condition.Copy()
	return wr
}
