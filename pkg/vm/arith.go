package vm

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func init() {
	for _, op := range []opcode.Opcode{opcode.ADD, opcode.SUB, opcode.MUL, opcode.DIV, opcode.MOD,
		opcode.AND, opcode.OR, opcode.XOR, opcode.MIN, opcode.MAX} {
		handlers[op] = opBinary
	}
	for _, op := range []opcode.Opcode{opcode.NUMEQUAL, opcode.NUMNOTEQUAL} {
		handlers[op] = opNumCompare
	}
	for _, op := range []opcode.Opcode{opcode.LT, opcode.LE, opcode.GT, opcode.GE} {
		handlers[op] = opOrder
	}
	for _, op := range []opcode.Opcode{opcode.SIGN, opcode.ABS, opcode.NEGATE, opcode.INC,
		opcode.DEC, opcode.INVERT, opcode.SQRT} {
		handlers[op] = opUnary
	}
	handlers[opcode.NZ] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n, b := v.intOf(v.pop(c))
		c.sh.estack.pushBool(b != nil || n != 0)
	}
	handlers[opcode.NOT] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) { c.sh.estack.pushBool(!v.popBool(c)) }
	handlers[opcode.BOOLAND] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		x2, x1 := v.popBool(c), v.popBool(c)
		c.sh.estack.pushBool(x1 && x2)
	}
	handlers[opcode.BOOLOR] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		x2, x1 := v.popBool(c), v.popBool(c)
		c.sh.estack.pushBool(x1 || x2)
	}
	handlers[opcode.WITHIN] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		b, a, x := v.popBig(c), v.popBig(c), v.popBig(c)
		c.sh.estack.pushBool(a.Cmp(x) <= 0 && x.Cmp(b) < 0)
	}
	handlers[opcode.SHL] = opShift
	handlers[opcode.SHR] = opShift
	handlers[opcode.POW] = opPow
	handlers[opcode.MODMUL] = opModMul
	handlers[opcode.MODPOW] = opModPow
	handlers[opcode.EQUAL] = opEqual
	handlers[opcode.NOTEQUAL] = opEqual
}

func bigFromInt(n int64) *big.Int { return big.NewInt(n) }

// fastBinary computes op on int64 operands; ok is false on overflow or
// when the big-integer path must decide (division by zero).
func fastBinary(op opcode.Opcode, a, b int64) (r int64, ok bool) {
	switch op {
	case opcode.ADD:
		r = a + b
		return r, (a >= 0) != (b >= 0) || (r >= 0) == (a >= 0)
	case opcode.SUB:
		r = a - b
		return r, (a >= 0) == (b >= 0) || (r >= 0) == (a >= 0)
	case opcode.MUL:
		hi, lo := bits.Mul64(uint64(absInt(a)), uint64(absInt(b)))
		if hi != 0 || lo > math.MaxInt64 || a == math.MinInt64 || b == math.MinInt64 {
			return 0, false
		}
		return a * b, true
	case opcode.DIV:
		if b == 0 || (a == math.MinInt64 && b == -1) {
			return 0, false
		}
		return a / b, true
	case opcode.MOD:
		if b == 0 || b == -1 {
			return 0, b == -1
		}
		return a % b, true
	case opcode.AND:
		return a & b, true
	case opcode.OR:
		return a | b, true
	case opcode.XOR:
		return a ^ b, true
	case opcode.MIN:
		return min(a, b), true
	case opcode.MAX:
		return max(a, b), true
	}
	return 0, false
}

func absInt(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func (v *VM) slowBinary(op opcode.Opcode, a, b *big.Int) *big.Int {
	r := new(big.Int)
	switch op {
	case opcode.ADD:
		return r.Add(a, b)
	case opcode.SUB:
		return r.Sub(a, b)
	case opcode.MUL:
		return r.Mul(a, b)
	case opcode.DIV, opcode.MOD:
		if b.Sign() == 0 {
			v.fail(faultf(ErrDivideByZero, "division by zero"))
		}
		if op == opcode.DIV {
			return r.Quo(a, b)
		}
		return r.Rem(a, b)
	case opcode.AND:
		return r.And(a, b)
	case opcode.OR:
		return r.Or(a, b)
	case opcode.XOR:
		return r.Xor(a, b)
	case opcode.MIN:
		if a.Cmp(b) <= 0 {
			return a
		}
		return b
	}
	if a.Cmp(b) >= 0 { // MAX
		return a
	}
	return b
}

func opBinary(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	n2, b2 := v.intOf(v.pop(c))
	n1, b1 := v.intOf(v.pop(c))
	if b1 == nil && b2 == nil {
		if r, ok := fastBinary(op, n1, n2); ok {
			c.sh.estack.pushInt(r)
			return
		}
	}
	if b1 == nil {
		b1 = bigFromInt(n1)
	}
	if b2 == nil {
		b2 = bigFromInt(n2)
	}
	v.pushBig(c, v.slowBinary(op, b1, b2))
}

// cmpTop pops x2 and x1 and returns sign(x1 - x2).
func (v *VM) cmpTop(c *Context) int {
	n2, b2 := v.intOf(v.pop(c))
	n1, b1 := v.intOf(v.pop(c))
	return cmpInts(n1, b1, n2, b2)
}

func cmpInts(n1 int64, b1 *big.Int, n2 int64, b2 *big.Int) int {
	if b1 == nil && b2 == nil {
		switch {
		case n1 < n2:
			return -1
		case n1 > n2:
			return 1
		}
		return 0
	}
	if b1 == nil {
		b1 = bigFromInt(n1)
	}
	if b2 == nil {
		b2 = bigFromInt(n2)
	}
	return b1.Cmp(b2)
}

func opNumCompare(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	eq := v.cmpTop(c) == 0
	c.sh.estack.pushBool(eq == (op == opcode.NUMEQUAL))
}

func isNull(e elem) bool {
	_, ok := e.it.(stackitem.Null)
	return ok
}

func opOrder(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	x2, x1 := v.pop(c), v.pop(c)
	if isNull(x1) || isNull(x2) {
		c.sh.estack.pushBool(false)
		return
	}
	n1, b1 := v.intOf(x1)
	n2, b2 := v.intOf(x2)
	r := cmpInts(n1, b1, n2, b2)
	var ok bool
	switch op {
	case opcode.LT:
		ok = r < 0
	case opcode.LE:
		ok = r <= 0
	case opcode.GT:
		ok = r > 0
	default:
		ok = r >= 0
	}
	c.sh.estack.pushBool(ok)
}

func opUnary(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	n, b := v.intOf(v.pop(c))
	if b == nil && n != math.MinInt64 && n != math.MaxInt64 {
		switch op {
		case opcode.SIGN:
			c.sh.estack.pushInt(int64(cmpInts(n, nil, 0, nil)))
			return
		case opcode.ABS:
			c.sh.estack.pushInt(absInt(n))
			return
		case opcode.NEGATE:
			c.sh.estack.pushInt(-n)
			return
		case opcode.INC:
			c.sh.estack.pushInt(n + 1)
			return
		case opcode.DEC:
			c.sh.estack.pushInt(n - 1)
			return
		case opcode.INVERT:
			c.sh.estack.pushInt(^n)
			return
		}
	}
	if b == nil {
		b = bigFromInt(n)
	}
	r := new(big.Int)
	switch op {
	case opcode.SIGN:
		r.SetInt64(int64(b.Sign()))
	case opcode.ABS:
		r.Abs(b)
	case opcode.NEGATE:
		r.Neg(b)
	case opcode.INC:
		r.Add(b, big.NewInt(1))
	case opcode.DEC:
		r.Sub(b, big.NewInt(1))
	case opcode.INVERT:
		r.Not(b)
	case opcode.SQRT:
		if b.Sign() < 0 {
			v.fail(faultf(ErrOutOfRange, "negative value"))
		}
		r.Sqrt(b)
	}
	v.pushBig(c, r)
}

func (v *VM) checkShift(n int) {
	if n < 0 || n > v.limits.MaxShift {
		v.fail(faultf(ErrOutOfRange, "operand must be between 0 and %d", v.limits.MaxShift))
	}
}

func opShift(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	shift := v.popInt32(c)
	v.checkShift(shift)
	if shift == 0 && v.preGorgon {
		return // before Gorgon a zero shift left the operand untouched
	}
	n, b := v.intOf(v.pop(c))
	if b == nil {
		if op == opcode.SHR {
			c.sh.estack.pushInt(n >> shift) // arithmetic: 0 or -1 past 63
			return
		}
		if r := n << shift; shift < 63 && r>>shift == n {
			c.sh.estack.pushInt(r)
			return
		}
	}
	x := b
	if x == nil {
		x = bigFromInt(n)
	}
	r := new(big.Int)
	if op == opcode.SHL {
		r.Lsh(x, uint(shift))
	} else {
		r.Rsh(x, uint(shift))
	}
	v.pushBig(c, r)
}

func opPow(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e, x := v.popBig(c), v.popBig(c)
	if !e.IsInt64() || e.Int64() < 0 || e.Int64() > int64(v.limits.MaxShift) {
		v.fail(faultf(ErrOutOfRange, "invalid exponent"))
	}
	exp := int(e.Int64())
	v.pushBig(c, new(big.Int).Exp(x, big.NewInt(int64(exp)), nil))
}

func opModMul(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	m := v.popBig(c)
	if m.Sign() == 0 {
		v.fail(faultf(ErrDivideByZero, "zero modulus"))
	}
	x2, x1 := v.popBig(c), v.popBig(c)
	r := new(big.Int).Mul(x1, x2)
	v.pushBig(c, r.Rem(r, m))
}

func opModPow(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	m, exp, x := v.popBig(c), v.popBig(c), v.popBig(c)
	if exp.Sign() < 0 && !exp.IsInt64() || exp.Sign() < 0 && exp.Int64() != -1 {
		v.fail(faultf(ErrOutOfRange, "exponent should be >= -1"))
	}
	if exp.Sign() < 0 { // -1: modular inverse
		if x.Sign() <= 0 {
			v.fail(faultf(ErrOutOfRange, "invalid base"))
		}
		if m.Cmp(big.NewInt(2)) < 0 {
			v.fail(faultf(ErrOutOfRange, "invalid modulus"))
		}
		r := new(big.Int).ModInverse(x, m)
		if r == nil {
			v.fail(faultf(ErrOutOfRange, "base and modulus are not relatively prime"))
		}
		v.pushBig(c, r)
		return
	}
	if m.Sign() == 0 {
		v.fail(faultf(ErrDivideByZero, "zero modulus"))
	}
	am := new(big.Int).Abs(m)
	r := new(big.Int).Exp(new(big.Int).Abs(x), exp, am)
	r.Rem(r, am)
	if x.Sign() < 0 && exp.Bit(0) == 1 {
		r.Neg(r)
	}
	v.pushBig(c, r)
}

func opEqual(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	x2, x1 := v.pop(c), v.pop(c)
	var eq bool
	if x1.it == nil && x2.it == nil {
		eq = x1.n == x2.n
	} else {
		var err error
		eq, err = stackitem.EqualsLimited(x1.item(), x2.item(), v.limits.MaxStackSize, v.limits.MaxComparableSize)
		v.check(err)
	}
	c.sh.estack.pushBool(eq == (op == opcode.EQUAL))
}
