package manifest

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/smartcontract"
)

// Parameter is a named, typed parameter of a method or an event.
type Parameter struct {
	Name string
	Type smartcontract.ParamType
}

// NewParameter returns a parameter.
func NewParameter(name string, typ smartcontract.ParamType) Parameter {
	return Parameter{Name: name, Type: typ}
}

// validate applies the reference's checks: a non-empty name and a defined
// type other than Void.
func (p *Parameter) validate() error {
	if p.Name == "" {
		return fmt.Errorf("%w: empty parameter name", ErrInvalidField)
	}
	if !p.Type.IsValid() || p.Type == smartcontract.VoidType {
		return fmt.Errorf("%w: parameter %q of type %s", ErrInvalidField, p.Name, p.Type)
	}
	return nil
}

// Event is an event the contract may emit.
type Event struct {
	Name       string
	Parameters []Parameter
}

// Method is a method the contract exposes.
type Method struct {
	Name       string
	Parameters []Parameter
	ReturnType smartcontract.ParamType
	Offset     int
	Safe       bool
}

// validateParams checks the parameters and their names' uniqueness.
func validateParams(owner string, ps []Parameter) error {
	for i := range ps {
		if err := ps[i].validate(); err != nil {
			return fmt.Errorf("%s: %w", owner, err)
		}
	}
	if d, ok := firstDuplicate(ps, func(p Parameter) string { return p.Name }); ok {
		return fmt.Errorf("%w: %s: parameter %q", ErrDuplicate, owner, d.Name)
	}
	return nil
}

func (e *Event) validate() error {
	if e.Name == "" {
		return fmt.Errorf("%w: empty event name", ErrInvalidField)
	}
	return validateParams("event "+e.Name, e.Parameters)
}

func (m *Method) validate() error {
	if m.Name == "" {
		return fmt.Errorf("%w: empty method name", ErrInvalidField)
	}
	if err := validateParams("method "+m.Name, m.Parameters); err != nil {
		return err
	}
	if !m.ReturnType.IsValid() {
		return fmt.Errorf("%w: method %q returns %s", ErrInvalidField, m.Name, m.ReturnType)
	}
	if m.Offset < 0 {
		return fmt.Errorf("%w: method %q at offset %d", ErrInvalidField, m.Name, m.Offset)
	}
	return nil
}

// ABI lists the methods and events of a contract.
type ABI struct {
	Methods []Method
	Events  []Event
}

// validate applies the reference's JSON-time checks: at least one method,
// every method and event valid. Uniqueness is checked by CheckUnique.
func (a *ABI) validate() error {
	if len(a.Methods) == 0 {
		return fmt.Errorf("%w: no methods", ErrInvalidField)
	}
	for i := range a.Methods {
		if err := a.Methods[i].validate(); err != nil {
			return err
		}
	}
	for i := range a.Events {
		if err := a.Events[i].validate(); err != nil {
			return err
		}
	}
	return nil
}

type methodKey struct {
	name   string
	params int
}

// CheckUnique reports a method declared twice with the same name and
// parameter count, or two events of the same name. ContractManagement runs
// it on deploy and update, as part of Check.
func (a *ABI) CheckUnique() error {
	if d, ok := firstDuplicate(a.Methods, func(m Method) methodKey {
		return methodKey{m.Name, len(m.Parameters)}
	}); ok {
		return fmt.Errorf("%w: method %q with %d parameters", ErrDuplicate, d.Name, len(d.Parameters))
	}
	if d, ok := firstDuplicate(a.Events, func(e Event) string { return e.Name }); ok {
		return fmt.Errorf("%w: event %q", ErrDuplicate, d.Name)
	}
	return nil
}

// InstructionChecker is what Check needs from a parsed script: the
// reference's Script.GetInstruction, failing unless offset starts an
// instruction (in strict mode: one found by decoding the whole script).
type InstructionChecker interface {
	CheckInstruction(offset int) error
}

// Check is the reference's deployment check of an ABI against its script
// (Helper.Check): every method offset starts an instruction, then
// CheckUnique.
func (a *ABI) Check(script InstructionChecker) error {
	for i := range a.Methods {
		if err := script.CheckInstruction(a.Methods[i].Offset); err != nil {
			return fmt.Errorf("%w: method %q at offset %d: %w", ErrInvalidField, a.Methods[i].Name, a.Methods[i].Offset, err)
		}
	}
	return a.CheckUnique()
}

// GetMethod returns the method called name taking paramCount parameters;
// with paramCount -1, the first method called name. It returns nil when
// there is none.
func (a *ABI) GetMethod(name string, paramCount int) *Method {
	for i := range a.Methods {
		m := &a.Methods[i]
		if m.Name == name && (paramCount == -1 || len(m.Parameters) == paramCount) {
			return m
		}
	}
	return nil
}

// GetEvent returns the event called name, or nil.
func (a *ABI) GetEvent(name string) *Event {
	for i := range a.Events {
		if a.Events[i].Name == name {
			return &a.Events[i]
		}
	}
	return nil
}
