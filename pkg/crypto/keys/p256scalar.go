package keys

import (
	"math/big"
	"math/bits"
)

// Scalars of P-256 (integers modulo the group order N) for verification:
// plain little-endian limbs, reduced below N. Products use Montgomery
// multiplication modulo N; the one inversion per signature uses math/big,
// whose Lehmer GCD is faster than an exponentiation by N-2 here.
type p256Scalar [4]uint64

var (
	// p256N is the group order N.
	p256N = p256Scalar{0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000}
	// p256Order is N as a big.Int.
	p256Order = (*p256Elem)(&p256N).toBig()
	// p256NInv is -N^-1 mod 2^64, the Montgomery reduction constant.
	p256NInv = negInverse64(p256N[0])
	// p256NRR is R² mod N, which takes a scalar into Montgomery form.
	p256NRR = p256Scalar(limbsFromBig(new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 512), p256Order)))
)

// negInverse64 returns -v^-1 mod 2^64 for odd v (Newton's iteration doubles
// the number of correct low bits each step: 1 → 64 in six steps).
func negInverse64(v uint64) uint64 {
	inv := uint64(1)
	for range 6 {
		inv *= 2 - v*inv
	}
	return -inv
}

// scalarFromBytes reads a 32-byte big-endian integer without reduction.
func scalarFromBytes(b []byte) p256Scalar {
	return p256Scalar(limbsFromBytes((*[32]byte)(b)))
}

// isZero tells whether k is 0.
func (k *p256Scalar) isZero() bool { return k[0]|k[1]|k[2]|k[3] == 0 }

// inRange tells whether 0 < k < N.
func (k *p256Scalar) inRange() bool {
	return !k.isZero() && (*p256Elem)(k).lessThan((*p256Elem)(&p256N))
}

// reduce sets k = k mod N for k < 2^256 < 2N.
func (k *p256Scalar) reduce() {
	d0, b := bits.Sub64(k[0], p256N[0], 0)
	d1, b := bits.Sub64(k[1], p256N[1], b)
	d2, b := bits.Sub64(k[2], p256N[2], b)
	d3, b := bits.Sub64(k[3], p256N[3], b)
	if b == 0 {
		*k = p256Scalar{d0, d1, d2, d3}
	}
}

// montMul sets z = x·y·R^-1 mod N (CIOS, x and y below N).
func (z *p256Scalar) montMul(x, y *p256Scalar) *p256Scalar {
	var t [6]uint64
	for i := range 4 {
		var c, cc uint64
		for j := range 4 {
			hi, lo := bits.Mul64(x[j], y[i])
			lo, cc = bits.Add64(lo, t[j], 0)
			hi += cc
			lo, cc = bits.Add64(lo, c, 0)
			t[j], c = lo, hi+cc
		}
		t[4], cc = bits.Add64(t[4], c, 0)
		t[5] = cc
		m := t[0] * p256NInv
		hi, lo := bits.Mul64(m, p256N[0])
		_, cc = bits.Add64(lo, t[0], 0)
		c = hi + cc
		for j := 1; j < 4; j++ {
			hi, lo = bits.Mul64(m, p256N[j])
			lo, cc = bits.Add64(lo, t[j], 0)
			hi += cc
			lo, cc = bits.Add64(lo, c, 0)
			t[j-1], c = lo, hi+cc
		}
		t[3], cc = bits.Add64(t[4], c, 0)
		t[4] = t[5] + cc
	}
	// t < 2N: one conditional subtraction.
	d0, b := bits.Sub64(t[0], p256N[0], 0)
	d1, b := bits.Sub64(t[1], p256N[1], b)
	d2, b := bits.Sub64(t[2], p256N[2], b)
	d3, b := bits.Sub64(t[3], p256N[3], b)
	_, b = bits.Sub64(t[4], 0, b)
	if b == 0 {
		*z = p256Scalar{d0, d1, d2, d3}
	} else {
		*z = p256Scalar{t[0], t[1], t[2], t[3]}
	}
	return z
}

// mulMod sets z = x·y mod N.
func (z *p256Scalar) mulMod(x, y *p256Scalar) *p256Scalar {
	var xr p256Scalar
	xr.montMul(x, &p256NRR) // x·R
	return z.montMul(&xr, y)
}

// p256VerifyScalars parses a 64-byte r‖s signature and returns r and the
// two multipliers u1 = e·s^-1 and u2 = r·s^-1 of SEC 1 §4.1.4, where e is
// the leftmost 256 bits of digest reduced mod N. ok is false unless r and
// s are in [1, N-1].
func p256VerifyScalars(sig, digest []byte) (r, u1, u2 p256Scalar, ok bool) {
	r = scalarFromBytes(sig[:coordLen])
	s := scalarFromBytes(sig[coordLen:])
	if !r.inRange() || !s.inRange() {
		return r, u1, u2, false
	}
	var eb [32]byte
	if len(digest) > coordLen {
		digest = digest[:coordLen]
	}
	copy(eb[32-len(digest):], digest)
	e := p256Scalar(limbsFromBytes(&eb))
	e.reduce()
	w := p256Scalar(limbsFromBig(new(big.Int).ModInverse((*p256Elem)(&s).toBig(), p256Order)))
	u1.mulMod(&e, &w)
	u2.mulMod(&r, &w)
	return r, u1, u2, true
}
