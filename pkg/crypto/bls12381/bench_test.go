package bls12381

import (
	"strconv"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// BenchmarkPairing compares the CryptoLib-shaped Pairing (kind dispatch,
// result allocation) with a bare gnark-crypto Pair call in the same run.
func BenchmarkPairing(b *testing.B) {
	v := loadVectors(b)
	g1, g2 := mustPoint(b, v.G1), mustPoint(b, v.G2)
	b.Run("Pairing", func(b *testing.B) {
		for b.Loop() {
			if _, err := Pairing(g1, g2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline-gnark-Pair", func(b *testing.B) {
		p := []bls.G1Affine{g1.(*G1Affine).p}
		q := []bls.G2Affine{g2.(*G2Affine).p}
		for b.Loop() {
			if _, err := bls.Pair(p, q); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMul measures scalar multiplication per kind; the GT case is
// compared with the reference's algorithm (bitwise square-and-multiply over
// all 255 scalar bits) as the baseline.
func BenchmarkMul(b *testing.B) {
	v := loadVectors(b)
	c := v.ScalarMul[0]
	scalar := unhex(b, c.Scalar)
	for _, p := range []Point{mustPoint(b, v.G1), mustPoint(b, v.G2), mustPoint(b, v.GT)} {
		b.Run(p.Kind().String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Mul(p, scalar, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("baseline-GT-double-and-add", func(b *testing.B) {
		x := mustPoint(b, v.GT).(*GT).v
		k, err := ParseScalar(scalar, false)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			var acc bls.GT
			acc.SetOne()
			for i := 254; i >= 0; i-- {
				acc.Square(&acc)
				if k.Bit(i) == 1 {
					acc.Mul(&acc, &x)
				}
			}
		}
	})
}

func BenchmarkDeserialize(b *testing.B) {
	v := loadVectors(b)
	for _, s := range []string{v.G1, v.G2, v.GT} {
		data := unhex(b, s)
		b.Run(strconv.Itoa(len(data))+"B", func(b *testing.B) {
			for b.Loop() {
				if _, err := Deserialize(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
