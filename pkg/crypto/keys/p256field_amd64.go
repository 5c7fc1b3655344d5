//go:build amd64 && !purego

package keys

import "golang.org/x/sys/cpu"

// On amd64 the field products, and the general case of the mixed XYZZ
// addition that comb verification repeats, run in assembly
// (p256field_amd64.s) built on MULX, ADCX and ADOX (BMI2 and ADX: Intel
// since Broadwell, AMD since Zen). Without them the pure-Go code runs; the
// branch on useADX costs nothing measurable next to a product.
//
// Same binary, pure Go (useADX off) vs assembly, medians of 15 alternating
// runs on a shared 2-core AMD EPYC (Nov 2026; the machine was loaded, so
// the spread is wide: best runs are given in brackets):
//
//	BenchmarkP256FieldMul[Generic]   30.9 → 19.3 ns   [20.1 → 16.1]
//	BenchmarkP256FieldSqr[Generic]   24.6 → 16.4 ns   [18.1 → 13.9]
//	BenchmarkP256VerifyComb          25.6 → 20.0 µs   [17.9 → 12.5]
//
// Against the previous build (separate binaries, 15 alternations):
// P256VerifyPaths/comb 33.2 → 22.8 µs, VerifyR1 26.3 → 20.6 µs,
// CombTableBuild 2.24 → 1.65 ms. What is left of a comb verification is
// about two thirds mixed additions (10 products each) and a fifth the
// scalar inversion mod N (math/big).

// useADX tells whether the CPU has the instructions the assembly needs.
// Tests clear it to run the pure-Go fallback.
var useADX = cpu.X86.HasADX && cpu.X86.HasBMI2

// p256MulADX sets *z = x·y·R^-1 mod p for x, y < p. z may alias x or y.
//
//go:noescape
func p256MulADX(z, x, y *p256Elem)

// p256SqrADX sets *z = x·x·R^-1 mod p for x < p. z may alias x.
//
//go:noescape
func p256SqrADX(z, x *p256Elem)

// mul sets z = x·y·R^-1, the Montgomery product. z may alias x or y.
func (z *p256Elem) mul(x, y *p256Elem) *p256Elem {
	if useADX {
		p256MulADX(z, x, y)
		return z
	}
	return z.mulGeneric(x, y)
}

// sqr sets z = x·x·R^-1. z may alias x.
func (z *p256Elem) sqr(x *p256Elem) *p256Elem {
	if useADX {
		p256SqrADX(z, x)
		return z
	}
	return z.sqrGeneric(x)
}

// p256XYZZAddAffineADX sets p = p + (x2, y2) for p not the point at
// infinity and returns true, unless x(p) = x2, where it returns false and
// leaves p as it was.
//
//go:noescape
func p256XYZZAddAffineADX(p *p256XYZZ, x2, y2 *p256Elem) bool

// addAffine sets p = p + (x2, y2). The assembly does the general case; the
// point at infinity and equal or opposite points go to the Go code.
func (p *p256XYZZ) addAffine(x2, y2 *p256Elem) {
	if useADX && !p.isInfinity() && p256XYZZAddAffineADX(p, x2, y2) {
		return
	}
	p.addAffineGeneric(x2, y2)
}
