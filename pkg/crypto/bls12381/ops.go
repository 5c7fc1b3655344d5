package bls12381

import (
	"fmt"
	"math/big"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// flagInfinity is the ZCash infinity flag in the first byte of a compressed
// point.
const flagInfinity = 0x40

// ScalarSize is the length of a Mul multiplier.
const ScalarSize = fr.Bytes

// Deserialize decodes a value by its length (bls12381Deserialize): 48 bytes
// give a G1Affine, 96 a G2Affine, 576 a GT.
func Deserialize(data []byte) (Point, error) {
	switch len(data) {
	case G1Size:
		g := new(G1Affine)
		if _, err := g.p.SetBytes(data); err != nil {
			return nil, fmt.Errorf("%w: G1: %w", ErrInvalidPoint, err)
		}
		return g, nil
	case G2Size:
		// The reference computes sqrt(x³ + 4(u+1)) before it honours the
		// infinity flag; with x = 0 that root does not exist, so it rejects
		// every G2 encoding carrying the flag (see the package doc).
		if data[0]&flagInfinity != 0 {
			return nil, fmt.Errorf("%w: G2: infinity flag is not decodable by the reference", ErrInvalidPoint)
		}
		g := new(G2Affine)
		if _, err := g.p.SetBytes(data); err != nil {
			return nil, fmt.Errorf("%w: G2: %w", ErrInvalidPoint, err)
		}
		return g, nil
	case GTSize:
		g := new(GT)
		if err := g.v.SetBytes(data); err != nil {
			return nil, fmt.Errorf("%w: GT: %w", ErrInvalidPoint, err)
		}
		return g, nil
	default:
		return nil, fmt.Errorf("%w: %d bytes", ErrInvalidLength, len(data))
	}
}

// Serialize returns the reference's serialization of p (bls12381Serialize).
func Serialize(p Point) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: nil point", ErrTypeMismatch)
	}
	return p.Bytes(), nil
}

// Equal implements bls12381Equal: both values must be of the same kind
// (G1Affine with G1Affine, G1Projective with G1Projective, ...); any other
// combination is an error.
func Equal(a, b Point) (bool, error) {
	if a == nil || b == nil || a.Kind() != b.Kind() {
		return false, mismatch("equal", a, b)
	}
	return a.Equal(b), nil
}

// Add implements bls12381Add. Points of the same group may be mixed in any
// affine/projective combination and give a projective point; GT + GT is the
// Fp12 product.
func Add(a, b Point) (Point, error) {
	switch x := a.(type) {
	case *G1Affine:
		r := new(G1Projective)
		r.p.FromAffine(&x.p)
		return addG1(r, b, a)
	case *G1Projective:
		r := new(G1Projective)
		r.p.Set(&x.p)
		return addG1(r, b, a)
	case *G2Affine:
		r := new(G2Projective)
		r.p.FromAffine(&x.p)
		return addG2(r, b, a)
	case *G2Projective:
		r := new(G2Projective)
		r.p.Set(&x.p)
		return addG2(r, b, a)
	case *GT:
		y, ok := b.(*GT)
		if !ok {
			return nil, mismatch("add", a, b)
		}
		r := new(GT)
		r.v.Mul(&x.v, &y.v)
		return r, nil
	default:
		return nil, mismatch("add", a, b)
	}
}

// addG1 adds b to the accumulator r (already holding a).
func addG1(r *G1Projective, b, a Point) (Point, error) {
	switch y := b.(type) {
	case *G1Affine:
		r.p.AddMixed(&y.p)
	case *G1Projective:
		r.p.AddAssign(&y.p)
	default:
		return nil, mismatch("add", a, b)
	}
	return r, nil
}

// addG2 adds b to the accumulator r (already holding a).
func addG2(r *G2Projective, b, a Point) (Point, error) {
	switch y := b.(type) {
	case *G2Affine:
		r.p.AddMixed(&y.p)
	case *G2Projective:
		r.p.AddAssign(&y.p)
	default:
		return nil, mismatch("add", a, b)
	}
	return r, nil
}

// Mul implements bls12381Mul: p times the 32-byte little-endian scalar
// (negated modulo r when neg is set). Curve points give a projective point;
// on GT it is exponentiation.
func Mul(p Point, scalar []byte, neg bool) (Point, error) {
	k, err := ParseScalar(scalar, neg)
	if err != nil {
		return nil, err
	}
	switch x := p.(type) {
	case *G1Affine:
		r := new(G1Projective)
		r.p.FromAffine(&x.p)
		r.p.ScalarMultiplication(&r.p, k)
		return r, nil
	case *G1Projective:
		r := new(G1Projective)
		r.p.ScalarMultiplication(&x.p, k)
		return r, nil
	case *G2Affine:
		r := new(G2Projective)
		r.p.FromAffine(&x.p)
		r.p.ScalarMultiplication(&r.p, k)
		return r, nil
	case *G2Projective:
		r := new(G2Projective)
		r.p.ScalarMultiplication(&x.p, k)
		return r, nil
	case *GT:
		r := new(GT)
		r.v.Exp(x.v, k)
		return r, nil
	default:
		return nil, mismatch("mul", p, nil)
	}
}

// ParseScalar decodes a Mul multiplier as the reference does
// (Scalar.FromBytes, then negation modulo r when neg is set) and returns
// its canonical value in [0, r).
func ParseScalar(scalar []byte, neg bool) (*big.Int, error) {
	if len(scalar) != ScalarSize {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrInvalidScalar, len(scalar), ScalarSize)
	}
	e, err := fr.LittleEndian.Element((*[ScalarSize]byte)(scalar))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidScalar, err)
	}
	if neg {
		e.Neg(&e)
	}
	return e.BigInt(new(big.Int)), nil
}

// Pairing implements bls12381Pairing: e(g1, g2) for a G1 point (affine or
// projective) and a G2 point (affine or projective).
func Pairing(g1, g2 Point) (Point, error) {
	var p bls.G1Affine
	switch x := g1.(type) {
	case *G1Affine:
		p = x.p
	case *G1Projective:
		p.FromJacobian(&x.p)
	default:
		return nil, mismatch("pairing", g1, g2)
	}
	var q bls.G2Affine
	switch y := g2.(type) {
	case *G2Affine:
		q = y.p
	case *G2Projective:
		q.FromJacobian(&y.p)
	default:
		return nil, mismatch("pairing", g1, g2)
	}
	gt, err := bls.Pair([]bls.G1Affine{p}, []bls.G2Affine{q})
	if err != nil {
		return nil, fmt.Errorf("bls12381: pairing: %w", err)
	}
	return &GT{v: gt}, nil
}

func mismatch(op string, a, b Point) error {
	return fmt.Errorf("%w: %s(%s, %s)", ErrTypeMismatch, op, kindOf(a), kindOf(b))
}

func kindOf(p Point) string {
	if p == nil {
		return "nil"
	}
	return p.Kind().String()
}
