package keys

import (
	"encoding/binary"
	"math/big"
	"math/bits"
)

// Arithmetic modulo p = 2^256 - 2^224 + 2^192 + 2^96 - 1, the field of
// P-256, for signature verification.
//
// An element is four little-endian 64-bit limbs holding a·R mod p in
// Montgomery form (R = 2^256), always fully reduced (< p). Verification
// works on public data only, so nothing here is constant-time.
//
// Multiplication interleaves the schoolbook product with Montgomery
// reduction (CIOS). The special form of p makes reduction cheap:
// -p^-1 ≡ 1 (mod 2^64), so the reduction multiplier of a round is the low
// limb m itself, and m·p = m·2^256 - m·2^224 + m·2^192 + m·2^96 - m needs
// one 64×64 product (m times the top limb) and shifts.
type p256Elem [4]uint64

// Limbs of p.
const (
	p256P0 = 0xffffffffffffffff
	p256P1 = 0x00000000ffffffff
	p256P2 = 0
	p256P3 = 0xffffffff00000001
)

var (
	p256Prime = p256Elem{p256P0, p256P1, p256P2, p256P3}
	// p256One is 1 in Montgomery form (R mod p).
	p256One = p256Elem{1, 0xffffffff00000000, 0xffffffffffffffff, 0xfffffffe}
	// p256RR is R² mod p, which takes an element into Montgomery form.
	p256RR = p256RSquared()
)

// p256RSquared computes R² mod p with math/big.
func p256RSquared() p256Elem {
	p := p256Prime.toBig()
	rr := new(big.Int).Lsh(big.NewInt(1), 512)
	return limbsFromBig(rr.Mod(rr, p))
}

// limbsFromBig returns the little-endian limbs of 0 <= v < 2^256.
func limbsFromBig(v *big.Int) p256Elem {
	var b [32]byte
	v.FillBytes(b[:])
	return limbsFromBytes(&b)
}

// limbsFromBytes reads a 32-byte big-endian integer.
func limbsFromBytes(b *[32]byte) p256Elem {
	return p256Elem{
		binary.BigEndian.Uint64(b[24:]),
		binary.BigEndian.Uint64(b[16:]),
		binary.BigEndian.Uint64(b[8:]),
		binary.BigEndian.Uint64(b[0:]),
	}
}

// toBig returns the limbs as an integer (no Montgomery conversion).
func (z *p256Elem) toBig() *big.Int {
	var b [32]byte
	z.putBytes(&b)
	return new(big.Int).SetBytes(b[:])
}

// putBytes writes the limbs as a 32-byte big-endian integer.
func (z *p256Elem) putBytes(b *[32]byte) {
	binary.BigEndian.PutUint64(b[24:], z[0])
	binary.BigEndian.PutUint64(b[16:], z[1])
	binary.BigEndian.PutUint64(b[8:], z[2])
	binary.BigEndian.PutUint64(b[0:], z[3])
}

// lessThan tells whether the limbs, as an integer, are below m's.
func (z *p256Elem) lessThan(m *p256Elem) bool {
	_, b := bits.Sub64(z[0], m[0], 0)
	_, b = bits.Sub64(z[1], m[1], b)
	_, b = bits.Sub64(z[2], m[2], b)
	_, b = bits.Sub64(z[3], m[3], b)
	return b == 1
}

// setCanonical sets z to the field element v (given as plain limbs, not in
// Montgomery form) and reports whether v < p.
func (z *p256Elem) setCanonical(v *p256Elem) bool {
	if !v.lessThan(&p256Prime) {
		return false
	}
	z.mul(v, &p256RR)
	return true
}

// canonical returns z out of Montgomery form, as plain limbs.
func (z *p256Elem) canonical() p256Elem {
	var out p256Elem
	out.mul(z, &p256Elem{1})
	return out
}

// isZero tells whether z is 0.
func (z *p256Elem) isZero() bool {
	return z[0]|z[1]|z[2]|z[3] == 0
}

// add sets z = x + y. Field helpers are written out in full rather than
// sharing a conditional-subtraction helper: the compiler does not inline
// them, and a call costs as much as the addition.
func (z *p256Elem) add(x, y *p256Elem) *p256Elem {
	t0, c := bits.Add64(x[0], y[0], 0)
	t1, c := bits.Add64(x[1], y[1], c)
	t2, c := bits.Add64(x[2], y[2], c)
	t3, c := bits.Add64(x[3], y[3], c)
	d0, b := bits.Sub64(t0, p256P0, 0)
	d1, b := bits.Sub64(t1, p256P1, b)
	d2, b := bits.Sub64(t2, p256P2, b)
	d3, b := bits.Sub64(t3, p256P3, b)
	_, b = bits.Sub64(c, 0, b)
	keep := -b // all ones when t < p
	z[0] = t0&keep | d0&^keep
	z[1] = t1&keep | d1&^keep
	z[2] = t2&keep | d2&^keep
	z[3] = t3&keep | d3&^keep
	return z
}

// sub sets z = x - y.
func (z *p256Elem) sub(x, y *p256Elem) *p256Elem {
	t0, b := bits.Sub64(x[0], y[0], 0)
	t1, b := bits.Sub64(x[1], y[1], b)
	t2, b := bits.Sub64(x[2], y[2], b)
	t3, b := bits.Sub64(x[3], y[3], b)
	// Add p back when the subtraction wrapped.
	mask := -b
	t0, c := bits.Add64(t0, p256P0&mask, 0)
	t1, c = bits.Add64(t1, p256P1&mask, c)
	t2, c = bits.Add64(t2, p256P2&mask, c)
	t3, _ = bits.Add64(t3, p256P3&mask, c)
	z[0], z[1], z[2], z[3] = t0, t1, t2, t3
	return z
}

// neg sets z = -x.
func (z *p256Elem) neg(x *p256Elem) *p256Elem {
	return z.sub(&p256Elem{}, x)
}

// mulGeneric sets z = x·y·R^-1, the Montgomery product, in pure Go; it is
// mul where no assembly is available and the oracle of the assembly's tests.
// The schoolbook product is written out row by row: the compiler does not
// inline a row helper, and the calls cost a third of the time.
func (z *p256Elem) mulGeneric(x, y *p256Elem) *p256Elem {
	x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
	var t0, t1, t2, t3, t4, t5, t6, t7 uint64
	var c, h0, h1, h2, h3, l0, l1, l2, l3 uint64
	{
		yi := y[0]
		h0, t0 = bits.Mul64(x0, yi)
		h1, l1 = bits.Mul64(x1, yi)
		h2, l2 = bits.Mul64(x2, yi)
		h3, l3 = bits.Mul64(x3, yi)
		t1, c = bits.Add64(l1, h0, 0)
		t2, c = bits.Add64(l2, h1, c)
		t3, c = bits.Add64(l3, h2, c)
		t4 = h3 + c
	}
	{
		yi := y[1]
		h0, l0 = bits.Mul64(x0, yi)
		h1, l1 = bits.Mul64(x1, yi)
		h2, l2 = bits.Mul64(x2, yi)
		h3, l3 = bits.Mul64(x3, yi)
		l1, c = bits.Add64(l1, h0, 0)
		l2, c = bits.Add64(l2, h1, c)
		l3, c = bits.Add64(l3, h2, c)
		h3 += c
		t1, c = bits.Add64(t1, l0, 0)
		t2, c = bits.Add64(t2, l1, c)
		t3, c = bits.Add64(t3, l2, c)
		t4, c = bits.Add64(t4, l3, c)
		t5 = h3 + c
	}
	{
		yi := y[2]
		h0, l0 = bits.Mul64(x0, yi)
		h1, l1 = bits.Mul64(x1, yi)
		h2, l2 = bits.Mul64(x2, yi)
		h3, l3 = bits.Mul64(x3, yi)
		l1, c = bits.Add64(l1, h0, 0)
		l2, c = bits.Add64(l2, h1, c)
		l3, c = bits.Add64(l3, h2, c)
		h3 += c
		t2, c = bits.Add64(t2, l0, 0)
		t3, c = bits.Add64(t3, l1, c)
		t4, c = bits.Add64(t4, l2, c)
		t5, c = bits.Add64(t5, l3, c)
		t6 = h3 + c
	}
	{
		yi := y[3]
		h0, l0 = bits.Mul64(x0, yi)
		h1, l1 = bits.Mul64(x1, yi)
		h2, l2 = bits.Mul64(x2, yi)
		h3, l3 = bits.Mul64(x3, yi)
		l1, c = bits.Add64(l1, h0, 0)
		l2, c = bits.Add64(l2, h1, c)
		l3, c = bits.Add64(l3, h2, c)
		h3 += c
		t3, c = bits.Add64(t3, l0, 0)
		t4, c = bits.Add64(t4, l1, c)
		t5, c = bits.Add64(t5, l2, c)
		t6, c = bits.Add64(t6, l3, c)
		t7 = h3 + c
	}
	z.montReduce(t0, t1, t2, t3, t4, t5, t6, t7)
	return z
}

// sqrGeneric sets z = x·x·R^-1 in pure Go (see mulGeneric).
func (z *p256Elem) sqrGeneric(x *p256Elem) *p256Elem {
	// Off-diagonal products x_i·x_j (i < j), doubled, plus the squares.
	h01, l01 := bits.Mul64(x[0], x[1])
	h02, l02 := bits.Mul64(x[0], x[2])
	h03, l03 := bits.Mul64(x[0], x[3])
	h12, l12 := bits.Mul64(x[1], x[2])
	h13, l13 := bits.Mul64(x[1], x[3])
	h23, l23 := bits.Mul64(x[2], x[3])
	// Sum them at their positions: t1..t6.
	t1 := l01
	t2, c := bits.Add64(h01, l02, 0)
	t3, c := bits.Add64(h02, l03, c)
	t4, c := bits.Add64(h03, l13, c)
	t5, c := bits.Add64(h13, l23, c)
	t6 := h23 + c
	t3, c = bits.Add64(t3, l12, 0)
	t4, c = bits.Add64(t4, h12, c)
	t5, c = bits.Add64(t5, 0, c)
	t6 += c
	// Double.
	t7 := t6 >> 63
	t6 = t6<<1 | t5>>63
	t5 = t5<<1 | t4>>63
	t4 = t4<<1 | t3>>63
	t3 = t3<<1 | t2>>63
	t2 = t2<<1 | t1>>63
	t1 <<= 1
	// Add the squares.
	s0h, t0 := bits.Mul64(x[0], x[0])
	s1h, s1l := bits.Mul64(x[1], x[1])
	s2h, s2l := bits.Mul64(x[2], x[2])
	s3h, s3l := bits.Mul64(x[3], x[3])
	t1, c = bits.Add64(t1, s0h, 0)
	t2, c = bits.Add64(t2, s1l, c)
	t3, c = bits.Add64(t3, s1h, c)
	t4, c = bits.Add64(t4, s2l, c)
	t5, c = bits.Add64(t5, s2h, c)
	t6, c = bits.Add64(t6, s3l, c)
	t7, _ = bits.Add64(t7, s3h, c)
	z.montReduce(t0, t1, t2, t3, t4, t5, t6, t7)
	return z
}

// montReduce sets z = t·R^-1 mod p for t < p·R, given as eight limbs.
//
// The low half is reduced on its own: four rounds of a = (a + m·p)/2^64
// with m = a mod 2^64 leave a = (t_lo + M·p)/R ≤ p. Adding the high half
// (< p) gives a value below 2p, which one conditional subtraction fixes.
func (z *p256Elem) montReduce(t0, t1, t2, t3, t4, t5, t6, t7 uint64) {
	a0, a1, a2, a3 := p256RedRound(t0, t1, t2, t3)
	a0, a1, a2, a3 = p256RedRound(a0, a1, a2, a3)
	a0, a1, a2, a3 = p256RedRound(a0, a1, a2, a3)
	a0, a1, a2, a3 = p256RedRound(a0, a1, a2, a3)
	r0, c := bits.Add64(a0, t4, 0)
	r1, c := bits.Add64(a1, t5, c)
	r2, c := bits.Add64(a2, t6, c)
	r3, c := bits.Add64(a3, t7, c)
	// r < 2p: subtract p unless that borrows.
	d0, b := bits.Sub64(r0, p256P0, 0)
	d1, b := bits.Sub64(r1, p256P1, b)
	d2, b := bits.Sub64(r2, p256P2, b)
	d3, b := bits.Sub64(r3, p256P3, b)
	_, b = bits.Sub64(c, 0, b)
	keep := -b // all ones when r < p
	z[0] = r0&keep | d0&^keep
	z[1] = r1&keep | d1&^keep
	z[2] = r2&keep | d2&^keep
	z[3] = r3&keep | d3&^keep
}

// p256RedRound returns (a + m·p)/2^64 for m = a0, where a < 2^256. With
// m·(2^64-1) + a0 = m·2^64, the terms of p below 2^192 add m·2^96 in all.
func p256RedRound(a0, a1, a2, a3 uint64) (r0, r1, r2, r3 uint64) {
	m := a0
	r0, c := bits.Add64(a1, m<<32, 0)
	r1, c = bits.Add64(a2, m>>32, c)
	ph, pl := bits.Mul64(m, p256P3)
	r2, c = bits.Add64(a3, pl, c)
	return r0, r1, r2, ph + c
}

// inv sets z = x^-1 (0 for x = 0) by Fermat's little theorem, x^(p-2).
// It is only used when building tables.
func (z *p256Elem) inv(x *p256Elem) *p256Elem {
	e := p256Prime
	e[0] -= 2 // p0 is all ones, no borrow
	r := p256One
	base := *x
	for i := 255; i >= 0; i-- {
		r.sqr(&r)
		if e[i/64]>>(i%64)&1 == 1 {
			r.mul(&r, &base)
		}
	}
	*z = r
	return z
}
