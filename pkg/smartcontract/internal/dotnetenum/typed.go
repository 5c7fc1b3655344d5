package dotnetenum

import (
	"encoding/json"
	"fmt"
)

// ParseValid parses s as e.Parse does and converts it to the byte-sized
// enum type T, also rejecting values valid refuses. Every failure wraps
// errInvalid (the caller package's sentinel); a refused value is reported
// as its number.
func ParseValid[T ~uint8](e *Enum, s string, valid func(T) bool, errInvalid error) (T, error) {
	v, err := e.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errInvalid, err)
	}
	t := T(v)
	if !valid(t) {
		return 0, fmt.Errorf("%w: %d", errInvalid, v)
	}
	return t, nil
}

// UnmarshalJSON reads a JSON string into *dst through parse; a value that
// is not a JSON string wraps errInvalid, parse's errors are returned as
// they are. *dst is left untouched on failure.
func UnmarshalJSON[T ~uint8](data []byte, dst *T, parse func(string) (T, error), errInvalid error) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: %w", errInvalid, err)
	}
	v, err := parse(s)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}
