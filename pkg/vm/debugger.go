package vm

// StepInto executes one instruction like the reference Debugger.StepInto:
// nothing after HALT or FAULT, BREAK afterwards unless the VM stopped.
func (v *VM) StepInto() {
	if v.state == HaltState || v.state == FaultState {
		return
	}
	v.ExecuteNext()
	if v.state == NoneState {
		v.state = BreakState
	}
}

// StepOut runs until the current context returns (reference
// Debugger.StepOut).
func (v *VM) StepOut() {
	if v.state == BreakState {
		v.state = NoneState
	}
	depth := len(v.istack)
	for v.state == NoneState && len(v.istack) >= depth {
		v.ExecuteNext()
	}
	if v.state == NoneState {
		v.state = BreakState
	}
}

// StepOver executes one instruction, running any call it makes to its end
// (reference Debugger.StepOver).
func (v *VM) StepOver() {
	if v.state == HaltState || v.state == FaultState {
		return
	}
	v.state = NoneState
	depth := len(v.istack)
	for {
		v.ExecuteNext()
		if v.state != NoneState || len(v.istack) <= depth {
			break
		}
	}
	if v.state == NoneState {
		v.state = BreakState
	}
}
