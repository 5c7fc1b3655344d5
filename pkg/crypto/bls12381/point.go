package bls12381

import (
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// Serialized sizes of the reference's formats.
const (
	G1Size = bls.SizeOfG1AffineCompressed // 48
	G2Size = bls.SizeOfG2AffineCompressed // 96
	GTSize = bls.SizeOfGT                 // 576
)

// Kind names the reference type a Point stands for.
type Kind byte

// The kinds of value the reference distinguishes.
const (
	KindG1Affine Kind = iota + 1
	KindG1Projective
	KindG2Affine
	KindG2Projective
	KindGT
)

// String returns the reference's type name.
func (k Kind) String() string {
	switch k {
	case KindG1Affine:
		return "G1Affine"
	case KindG1Projective:
		return "G1Projective"
	case KindG2Affine:
		return "G2Affine"
	case KindG2Projective:
		return "G2Projective"
	case KindGT:
		return "Gt"
	default:
		return "unknown"
	}
}

// Point is one BLS12-381 value of any of the five kinds. Points are
// immutable: operations return new values and never modify their inputs,
// so a Point may be shared between stack items and goroutines.
type Point interface {
	// Kind reports which reference type the value is.
	Kind() Kind
	// Bytes returns the reference's serialization (bls12381Serialize):
	// compressed affine G1 (48 bytes) or G2 (96 bytes), or GT (576 bytes).
	Bytes() []byte
	// Equal reports whether other is the same kind and the same value. It
	// never fails; this is how the VM compares two interop items holding
	// points. Use the package-level Equal for bls12381Equal.
	Equal(other Point) bool

	sealed()
}

// G1Affine is a G1 point in affine coordinates (what Deserialize returns for
// 48 bytes).
type G1Affine struct{ p bls.G1Affine }

// G1Projective is a G1 point as returned by Add and Mul.
type G1Projective struct{ p bls.G1Jac }

// G2Affine is a G2 point in affine coordinates (what Deserialize returns
// for 96 bytes).
type G2Affine struct{ p bls.G2Affine }

// G2Projective is a G2 point as returned by Add and Mul.
type G2Projective struct{ p bls.G2Jac }

// GT is an element of Fp12 as returned by Pairing or Deserialize(576 bytes).
type GT struct{ v bls.GT }

var (
	_ Point = (*G1Affine)(nil)
	_ Point = (*G1Projective)(nil)
	_ Point = (*G2Affine)(nil)
	_ Point = (*G2Projective)(nil)
	_ Point = (*GT)(nil)
)

func (*G1Affine) sealed()     {}
func (*G1Projective) sealed() {}
func (*G2Affine) sealed()     {}
func (*G2Projective) sealed() {}
func (*GT) sealed()           {}

// Kind implements Point.
func (*G1Affine) Kind() Kind { return KindG1Affine }

// Kind implements Point.
func (*G1Projective) Kind() Kind { return KindG1Projective }

// Kind implements Point.
func (*G2Affine) Kind() Kind { return KindG2Affine }

// Kind implements Point.
func (*G2Projective) Kind() Kind { return KindG2Projective }

// Kind implements Point.
func (*GT) Kind() Kind { return KindGT }

// Bytes implements Point.
func (g *G1Affine) Bytes() []byte {
	b := g.p.Bytes()
	return b[:]
}

// Bytes implements Point.
func (g *G1Projective) Bytes() []byte {
	a := g.affine()
	return a.Bytes()
}

// Bytes implements Point.
func (g *G2Affine) Bytes() []byte {
	b := g.p.Bytes()
	return b[:]
}

// Bytes implements Point.
func (g *G2Projective) Bytes() []byte {
	a := g.affine()
	return a.Bytes()
}

// Bytes implements Point.
func (g *GT) Bytes() []byte {
	b := g.v.Bytes()
	return b[:]
}

// Equal implements Point.
func (g *G1Affine) Equal(other Point) bool {
	o, ok := other.(*G1Affine)
	return ok && o != nil && g.p.Equal(&o.p)
}

// Equal implements Point.
func (g *G1Projective) Equal(other Point) bool {
	o, ok := other.(*G1Projective)
	return ok && o != nil && g.p.Equal(&o.p)
}

// Equal implements Point.
func (g *G2Affine) Equal(other Point) bool {
	o, ok := other.(*G2Affine)
	return ok && o != nil && g.p.Equal(&o.p)
}

// Equal implements Point.
func (g *G2Projective) Equal(other Point) bool {
	o, ok := other.(*G2Projective)
	return ok && o != nil && g.p.Equal(&o.p)
}

// Equal implements Point.
func (g *GT) Equal(other Point) bool {
	o, ok := other.(*GT)
	return ok && o != nil && g.v.Equal(&o.v)
}

func (g *G1Projective) affine() *G1Affine {
	a := new(G1Affine)
	a.p.FromJacobian(&g.p)
	return a
}

func (g *G2Projective) affine() *G2Affine {
	a := new(G2Affine)
	a.p.FromJacobian(&g.p)
	return a
}
