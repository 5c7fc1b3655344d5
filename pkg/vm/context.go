package vm

import (
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// shared is the state a context shares with the contexts that CALL,
// CALL_L and CALLA create from it (reference ExecutionContext.SharedStates).
type shared struct {
	script    *stackitem.Script
	estack    *Stack
	static    []elem // nil: no INITSSLOT yet
	hash      util.Uint160
	hashed    bool
	data      any
	feeExempt bool
	tree      *InvocationTree // this script's node, when the VM collects the tree
}

// Context is one frame of the invocation stack.
type Context struct {
	sh      *shared
	ip      int
	rvcount int
	locals  []elem // nil: none
	args    []elem // nil: none
	tries   []tryContext
}

type tryState uint8

const (
	tryBody tryState = iota
	tryCatch
	tryFinally
)

type tryContext struct {
	catchPtr   int // -1: none
	finallyPtr int // -1: none
	endPtr     int
	state      tryState
}

// Script returns the script bytes.
func (c *Context) Script() []byte { return c.sh.script.Bytes() }

// ScriptRef returns the script instance (pointers compare it by identity).
func (c *Context) ScriptRef() *stackitem.Script { return c.sh.script }

// ScriptHash returns the script hash: the one set with SetScriptHash, or
// Hash160 of the script.
func (c *Context) ScriptHash() util.Uint160 {
	if !c.sh.hashed {
		c.sh.hash = hash.Hash160(c.sh.script.Bytes())
		c.sh.hashed = true
	}
	return c.sh.hash
}

// SetScriptHash overrides the script hash (e.g. for a deployed contract).
func (c *Context) SetScriptHash(h util.Uint160) { c.sh.hash, c.sh.hashed = h, true }

// IP is the position of the next instruction.
func (c *Context) IP() int { return c.ip }

// NextOpcode is the opcode at IP, RET past the end of the script.
func (c *Context) NextOpcode() opcode.Opcode {
	b := c.sh.script.Bytes()
	if c.ip >= len(b) {
		return opcode.RET
	}
	return opcode.Opcode(b[c.ip])
}

// Estack is the context's evaluation stack (shared with CALL frames).
func (c *Context) Estack() *Stack { return c.sh.estack }

// Data is the opaque value the host attached with SetData; it is shared
// with the frames CALL creates from this context.
func (c *Context) Data() any { return c.sh.data }

// SetData attaches an opaque host value (call flags, contract state…).
func (c *Context) SetData(d any) { c.sh.data = d }

// SetFeeExempt makes the opcodes and AddFee of this context (and its CALL
// frames) free, as the reference does for whitelisted contracts.
func (c *Context) SetFeeExempt(b bool) { c.sh.feeExempt = b }

// RetCount is the number of values the context must return (-1: any).
func (c *Context) RetCount() int { return c.rvcount }

func slotItems(s []elem) []stackitem.Item {
	if s == nil {
		return nil
	}
	out := make([]stackitem.Item, len(s))
	for i, e := range s {
		out[i] = e.item()
	}
	return out
}

// StaticFields returns the static slot contents (nil if uninitialised).
func (c *Context) StaticFields() []stackitem.Item { return slotItems(c.sh.static) }

// Locals returns the local slot contents (nil if uninitialised).
func (c *Context) Locals() []stackitem.Item { return slotItems(c.locals) }

// Arguments returns the argument slot contents (nil if uninitialised).
func (c *Context) Arguments() []stackitem.Item { return slotItems(c.args) }

// Clone returns a frame that shares the script, evaluation stack, static
// fields and host data of c, starts at ip with no locals, arguments or
// TRY blocks and returns any number of values to the shared stack
// (reference ExecutionContext.Clone(initialPosition)). CALL uses it, and
// the interop layer runs a contract's _initialize in such a frame.
// LoadContext refuses it if ip is outside the script.
func (c *Context) Clone(ip int) *Context {
	return &Context{sh: c.sh, ip: ip, rvcount: 0}
}
