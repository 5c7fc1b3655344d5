package vm

// State is the VM state (reference VMState values).
type State uint8

// VM states.
const (
	NoneState  State = 0
	HaltState  State = 1
	FaultState State = 2
	BreakState State = 4
)

// String returns "NONE", "HALT", "FAULT" or "BREAK".
func (s State) String() string {
	switch s {
	case NoneState:
		return "NONE"
	case HaltState:
		return "HALT"
	case FaultState:
		return "FAULT"
	case BreakState:
		return "BREAK"
	}
	return "UNKNOWN"
}

// Limits are the reference ExecutionEngineLimits.
type Limits struct {
	MaxShift               int
	MaxStackSize           int
	MaxItemSize            int
	MaxComparableSize      int
	MaxInvocationStackSize int
	MaxTryNestingDepth     int
}

// DefaultLimits are the reference ExecutionEngineLimits.Default.
var DefaultLimits = Limits{
	MaxShift:               256,
	MaxStackSize:           2048,
	MaxItemSize:            65535 * 2,
	MaxComparableSize:      65536,
	MaxInvocationStackSize: 1024,
	MaxTryNestingDepth:     16,
}
