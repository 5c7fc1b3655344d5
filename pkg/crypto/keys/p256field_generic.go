//go:build !amd64 || purego

package keys

// Without the amd64 assembly, the field products are the pure-Go ones.

// mul sets z = x·y·R^-1, the Montgomery product. z may alias x or y.
func (z *p256Elem) mul(x, y *p256Elem) *p256Elem { return z.mulGeneric(x, y) }

// sqr sets z = x·x·R^-1. z may alias x.
func (z *p256Elem) sqr(x *p256Elem) *p256Elem { return z.sqrGeneric(x) }

// addAffine sets p = p + (x2, y2).
func (p *p256XYZZ) addAffine(x2, y2 *p256Elem) { p.addAffineGeneric(x2, y2) }
