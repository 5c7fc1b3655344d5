package keys

// Points of P-256 (y² = x³ - 3x + b) for verification: affine points for
// tables, Jacobian points (x = X/Z², y = Y/Z³) for building them, XYZZ
// points for the sums of verification. Formulas are from the
// Explicit-Formulas Database (hyperelliptic.org/EFD, "g1p/auto-shortw-
// jacobian-3" and "auto-shortw-xyzz"): dbl-2001-b, madd-2007-bl, madd-2008-s
// and mdbl-2008-s-1. They are not complete, so every addition checks for
// equal and opposite operands; the branches depend on public data only.

// p256Affine is an affine point, never the point at infinity.
type p256Affine struct {
	x, y p256Elem
}

// p256Jac is a Jacobian point; Z = 0 is the point at infinity.
type p256Jac struct {
	x, y, z p256Elem
}

// isInfinity tells whether p is the point at infinity.
func (p *p256Jac) isInfinity() bool { return p.z.isZero() }

// setAffine sets p = (x, y).
func (p *p256Jac) setAffine(x, y *p256Elem) *p256Jac {
	p.x, p.y, p.z = *x, *y, p256One
	return p
}

// double sets p = 2q (dbl-2001-b, 3M + 5S). The point at infinity stays
// there: Z3 = (Y+Z)² - Y² - Z² is 0 for Z = 0.
func (p *p256Jac) double(q *p256Jac) *p256Jac {
	var delta, gamma, beta, alpha, t, u p256Elem
	delta.sqr(&q.z)
	gamma.sqr(&q.y)
	beta.mul(&q.x, &gamma)
	t.sub(&q.x, &delta)
	u.add(&q.x, &delta)
	alpha.mul(&t, &u)
	t.add(&alpha, &alpha)
	alpha.add(&alpha, &t) // alpha = 3(X-delta)(X+delta)
	// Z3 = (Y+Z)² - gamma - delta, before X and Y are overwritten.
	t.add(&q.y, &q.z)
	t.sqr(&t)
	t.sub(&t, &gamma)
	p.z.sub(&t, &delta)
	// X3 = alpha² - 8beta
	beta.add(&beta, &beta)
	beta.add(&beta, &beta) // 4beta
	u.add(&beta, &beta)
	p.x.sqr(&alpha)
	p.x.sub(&p.x, &u)
	// Y3 = alpha(4beta - X3) - 8gamma²
	beta.sub(&beta, &p.x)
	gamma.sqr(&gamma)
	gamma.add(&gamma, &gamma)
	gamma.add(&gamma, &gamma)
	gamma.add(&gamma, &gamma)
	p.y.mul(&alpha, &beta)
	p.y.sub(&p.y, &gamma)
	return p
}

// addAffine sets p = q + (x2, y2) (madd-2007-bl, 7M + 4S).
func (p *p256Jac) addAffine(q *p256Jac, x2, y2 *p256Elem) *p256Jac {
	if q.isInfinity() {
		return p.setAffine(x2, y2)
	}
	var z1z1, u2, s2, h, r p256Elem
	z1z1.sqr(&q.z)
	u2.mul(x2, &z1z1)
	s2.mul(y2, &q.z)
	s2.mul(&s2, &z1z1)
	h.sub(&u2, &q.x)
	r.sub(&s2, &q.y)
	if h.isZero() {
		if r.isZero() {
			return p.double(q) // q = (x2, y2)
		}
		*p = p256Jac{} // q = -(x2, y2)
		return p
	}
	r.add(&r, &r)
	var hh, i, j, v p256Elem
	hh.sqr(&h)
	i.add(&hh, &hh)
	i.add(&i, &i)
	j.mul(&h, &i)
	v.mul(&q.x, &i)
	// Z3 = (Z1+H)² - Z1Z1 - HH, before Z1 is overwritten.
	p.z.add(&q.z, &h)
	p.z.sqr(&p.z)
	p.z.sub(&p.z, &z1z1)
	p.z.sub(&p.z, &hh)
	// Y1·J before Y1 is overwritten.
	u2.mul(&q.y, &j)
	// X3 = r² - J - 2V
	p.x.sqr(&r)
	p.x.sub(&p.x, &j)
	p.x.sub(&p.x, &v)
	p.x.sub(&p.x, &v)
	// Y3 = r(V - X3) - 2·Y1·J
	v.sub(&v, &p.x)
	p.y.mul(&r, &v)
	u2.add(&u2, &u2)
	p.y.sub(&p.y, &u2)
	return p
}

// p256BatchAffine converts Jacobian points to affine ones with a single
// field inversion (Montgomery's trick). No point may be the point at
// infinity; tables only hold non-zero multiples of a point of prime order.
func p256BatchAffine(out []p256Affine, in []p256Jac) {
	if len(in) == 0 {
		return
	}
	// prefix[i] = z_0·…·z_i, kept in out[i].x to save an allocation.
	acc := p256One
	for i := range in {
		if in[i].isInfinity() {
			panic("keys: point at infinity in a P-256 table")
		}
		acc.mul(&acc, &in[i].z)
		out[i].x = acc
	}
	var inv p256Elem
	inv.inv(&acc) // 1/(z_0·…·z_last)
	for i := len(in) - 1; i >= 0; i-- {
		var zinv p256Elem
		if i > 0 {
			zinv.mul(&inv, &out[i-1].x) // 1/z_i
			inv.mul(&inv, &in[i].z)     // 1/(z_0·…·z_{i-1})
		} else {
			zinv = inv
		}
		var zi2, zi3 p256Elem
		zi2.sqr(&zinv)
		zi3.mul(&zi2, &zinv)
		out[i].x.mul(&in[i].x, &zi2)
		out[i].y.mul(&in[i].y, &zi3)
	}
}

// p256XYZZ is a point in extended Jacobian ("XYZZ") coordinates,
// x = X/ZZ and y = Y/ZZZ with ZZ³ = ZZZ²; ZZ = 0 is the point at infinity.
// Adding an affine point costs 8M + 2S (madd-2008-s) against 7M + 4S in
// Jacobian coordinates, with half as many additions and subtractions, and
// x = X/ZZ needs no squaring. It accumulates the comb sums.
type p256XYZZ struct {
	x, y, zz, zzz p256Elem
}

// isInfinity tells whether p is the point at infinity.
func (p *p256XYZZ) isInfinity() bool { return p.zz.isZero() }

// setAffine sets p = (x, y).
func (p *p256XYZZ) setAffine(x, y *p256Elem) *p256XYZZ {
	p.x, p.y, p.zz, p.zzz = *x, *y, p256One, p256One
	return p
}

// addAffineGeneric sets p = p + (x2, y2) (madd-2008-s, 8M + 2S) in Go; it
// is addAffine where no assembly does the general case.
func (p *p256XYZZ) addAffineGeneric(x2, y2 *p256Elem) {
	if p.isInfinity() {
		p.setAffine(x2, y2)
		return
	}
	var u, r p256Elem
	u.mul(x2, &p.zz)
	u.sub(&u, &p.x) // P = x2·ZZ1 - X1
	r.mul(y2, &p.zzz)
	r.sub(&r, &p.y) // R = y2·ZZZ1 - Y1
	if u.isZero() {
		if r.isZero() {
			p.doubleAffine(x2, y2) // p = (x2, y2)
		} else {
			*p = p256XYZZ{} // p = -(x2, y2)
		}
		return
	}
	var pp, ppp, q, t p256Elem
	pp.sqr(&u)
	ppp.mul(&u, &pp)
	q.mul(&p.x, &pp)
	p.zz.mul(&p.zz, &pp)
	p.zzz.mul(&p.zzz, &ppp)
	// X3 = R² - PPP - 2Q
	p.x.sqr(&r)
	p.x.sub(&p.x, &ppp)
	t.add(&q, &q)
	p.x.sub(&p.x, &t)
	// Y3 = R(Q - X3) - Y1·PPP
	q.sub(&q, &p.x)
	t.mul(&p.y, &ppp)
	p.y.mul(&r, &q)
	p.y.sub(&p.y, &t)
}

// doubleAffine sets p = 2·(x1, y1) (mdbl-2008-s-1 with a = -3).
func (p *p256XYZZ) doubleAffine(x1, y1 *p256Elem) {
	var u, v, w, s, m, t p256Elem
	u.add(y1, y1)
	v.sqr(&u)
	w.mul(&u, &v)
	s.mul(x1, &v)
	// M = 3x1² - 3 = 3(x1² - 1)
	m.sqr(x1)
	m.sub(&m, &p256One)
	t.add(&m, &m)
	m.add(&m, &t)
	// X3 = M² - 2S, Y3 = M(S - X3) - W·y1
	p.x.sqr(&m)
	t.add(&s, &s)
	p.x.sub(&p.x, &t)
	s.sub(&s, &p.x)
	t.mul(&w, y1)
	p.y.mul(&m, &s)
	p.y.sub(&p.y, &t)
	p.zz, p.zzz = v, w
}
