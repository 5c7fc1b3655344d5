package keys

// Points of P-256 (y² = x³ - 3x + b) for verification: affine points for
// tables, Jacobian points (x = X/Z², y = Y/Z³) for sums. Formulas are from
// the Explicit-Formulas Database (hyperelliptic.org/EFD, "g1p/auto-
// shortw-jacobian-3"): dbl-2001-b, madd-2007-bl and add-2007-bl. They are
// not complete, so every addition checks for equal and opposite operands;
// the branches depend on public data only.

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

// negate sets p = -q.
func (p *p256Jac) negate(q *p256Jac) *p256Jac {
	p.x, p.z = q.x, q.z
	p.y.neg(&q.y)
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

// add sets p = q1 + q2 (add-2007-bl, 11M + 5S).
func (p *p256Jac) add(q1, q2 *p256Jac) *p256Jac {
	switch {
	case q1.isInfinity():
		*p = *q2
		return p
	case q2.isInfinity():
		*p = *q1
		return p
	}
	var z1z1, z2z2, u1, u2, s1, s2, h, r p256Elem
	z1z1.sqr(&q1.z)
	z2z2.sqr(&q2.z)
	u1.mul(&q1.x, &z2z2)
	u2.mul(&q2.x, &z1z1)
	s1.mul(&q1.y, &q2.z)
	s1.mul(&s1, &z2z2)
	s2.mul(&q2.y, &q1.z)
	s2.mul(&s2, &z1z1)
	h.sub(&u2, &u1)
	r.sub(&s2, &s1)
	if h.isZero() {
		if r.isZero() {
			return p.double(q1)
		}
		*p = p256Jac{}
		return p
	}
	r.add(&r, &r)
	var i, j, v, z p256Elem
	i.add(&h, &h)
	i.sqr(&i)
	j.mul(&h, &i)
	v.mul(&u1, &i)
	z.add(&q1.z, &q2.z)
	z.sqr(&z)
	z.sub(&z, &z1z1)
	z.sub(&z, &z2z2)
	p.z.mul(&z, &h)
	p.x.sqr(&r)
	p.x.sub(&p.x, &j)
	p.x.sub(&p.x, &v)
	p.x.sub(&p.x, &v)
	v.sub(&v, &p.x)
	s1.mul(&s1, &j)
	s1.add(&s1, &s1)
	p.y.mul(&r, &v)
	p.y.sub(&p.y, &s1)
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
