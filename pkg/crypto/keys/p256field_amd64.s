//go:build amd64 && !purego

#include "textflag.h"

// Montgomery multiplication and squaring modulo the P-256 prime
// p = 2^256 - 2^224 + 2^192 + 2^96 - 1 with BMI2 (MULX) and ADX (ADCX,
// ADOX); the algorithm is that of mulGeneric, sqrGeneric and montReduce
// in p256field.go. Elements are four little-endian 64-bit limbs, below p.
//
// A product first computes the full 512-bit x·y (or x²) into eight
// registers, then reduces it: four rounds that each add m·p to the low
// half, for m its lowest limb, and drop that limb (-p^-1 ≡ 1 mod 2^64, so
// m needs no multiplication); then the high half is added and p is
// subtracted once unless that borrows.
//
// Register allocation of the bodies (every general register but SP, BP):
//
//	R8..R15  t0..t7, the 512-bit product; R8..R11 end as the result
//	SI, DI   pointers to x and y during the product; during the
//	         reduction SI holds p's limb 3, DI p's limb 1
//	DX       the implicit factor of MULX (a limb of y, of x, or m)
//	AX, BX   low and high halves of a partial product
//	CX       zero during the product; the carry out of the final sum
//
// MULXQ src, lo, hi sets hi:lo = DX·src and leaves the flags alone, so
// two carry chains can run at once: ADCXQ adds with CF only, ADOXQ with
// OF only, and XORQ CX, CX clears both.

// MULROW adds x·y[i] (i = yoff/8) into t_i..t_{i+4}, where t_{i+4} is
// still unset. Every prefix sum of the rows fits in i+5 limbs, so neither
// chain carries out of t_{i+4}.
#define MULROW(yoff, ti, ti1, ti2, ti3, ti4) \
	MOVQ  yoff(DI), DX    \
	XORQ  CX, CX          \
	MULXQ (SI), AX, BX    \
	ADCXQ AX, ti          \
	ADOXQ BX, ti1         \
	MULXQ 8(SI), AX, BX   \
	ADCXQ AX, ti1         \
	ADOXQ BX, ti2         \
	MULXQ 16(SI), AX, BX  \
	ADCXQ AX, ti2         \
	ADOXQ BX, ti3         \
	MULXQ 24(SI), AX, ti4 \
	ADCXQ AX, ti3         \
	ADOXQ CX, ti4         \
	ADCXQ CX, ti4

// MULBODY sets R8..R15 = x·y for x at SI, y at DI. Row 0 writes
// t0..t4 with one carry chain; rows 1..3 accumulate with MULROW.
#define MULBODY \
	MOVQ  (DI), DX        \
	MULXQ (SI), R8, R9    \
	MULXQ 8(SI), AX, R10  \
	ADDQ  AX, R9          \
	MULXQ 16(SI), AX, R11 \
	ADCQ  AX, R10         \
	MULXQ 24(SI), AX, R12 \
	ADCQ  AX, R11         \
	ADCQ  $0, R12         \
	MULROW(8, R9, R10, R11, R12, R13)   \
	MULROW(16, R10, R11, R12, R13, R14) \
	MULROW(24, R11, R12, R13, R14, R15)

// SQRBODY sets R8..R15 = x² for x at SI. First the six products x_i·x_j,
// i < j, at their positions in t1..t6: x0·x1..x3 in one chain, x1·x2 and
// x1·x3 in two, x2·x3 in one. Then t1..t7 = 2·(t1..t6) (CF chain, each
// limb added to itself) interleaved with adding the squares x_i² at
// positions 2i and 2i+1 (OF chain); t0 is the low half of x0².
#define SQRBODY \
	MOVQ  (SI), DX        \
	MULXQ 8(SI), R9, R10  \
	MULXQ 16(SI), AX, R11 \
	ADDQ  AX, R10         \
	MULXQ 24(SI), AX, R12 \
	ADCQ  AX, R11         \
	ADCQ  $0, R12         \
	MOVQ  8(SI), DX       \
	XORQ  CX, CX          \
	MULXQ 16(SI), AX, BX  \
	ADCXQ AX, R11         \
	ADOXQ BX, R12         \
	MULXQ 24(SI), AX, R13 \
	ADCXQ AX, R12         \
	ADOXQ CX, R13         \
	ADCXQ CX, R13         \
	MOVQ  16(SI), DX      \
	MULXQ 24(SI), AX, R14 \
	ADDQ  AX, R13         \
	ADCQ  $0, R14         \
	XORQ  R15, R15        \
	MOVQ  (SI), DX        \
	MULXQ DX, R8, AX      \
	ADCXQ R9, R9          \
	ADOXQ AX, R9          \
	MOVQ  8(SI), DX       \
	MULXQ DX, AX, BX      \
	ADCXQ R10, R10        \
	ADOXQ AX, R10         \
	ADCXQ R11, R11        \
	ADOXQ BX, R11         \
	MOVQ  16(SI), DX      \
	MULXQ DX, AX, BX      \
	ADCXQ R12, R12        \
	ADOXQ AX, R12         \
	ADCXQ R13, R13        \
	ADOXQ BX, R13         \
	MOVQ  24(SI), DX      \
	MULXQ DX, AX, BX      \
	ADCXQ R14, R14        \
	ADOXQ AX, R14         \
	ADCXQ R15, R15        \
	ADOXQ BX, R15

// REDROUND is one reduction round (p256RedRound in Go) on the low limbs
// a0..a3 with SI = p3: for m = a0, a + m·p = a1..a3 + m·2^96 +
// m·p3·2^192 above the dropped limb (m·(2^64-1) + a0 = m·2^64). The
// result is left in a1, a2, a3, a0 (a0 takes the top limb).
#define REDROUND(a0, a1, a2, a3) \
	MOVQ  a0, DX      \
	MOVQ  a0, AX      \
	SHLQ  $32, AX     \
	MOVQ  a0, BX      \
	SHRQ  $32, BX     \
	MULXQ SI, CX, a0  \
	ADDQ  AX, a1      \
	ADCQ  BX, a2      \
	ADCQ  CX, a3      \
	ADCQ  $0, a0

// REDUCE sets R8..R11 = t·R^-1 mod p for t = R8..R15 < p·2^256
// (montReduce in Go). The four rounds rotate the low limbs back into
// R8..R11; adding the high half gives a value below 2p with its carry
// in CX; d = that - p goes into R12..R15 and replaces it unless the
// subtraction borrowed.
#define REDUCE \
	MOVQ    $0xffffffff00000001, SI \
	REDROUND(R8, R9, R10, R11)      \
	REDROUND(R9, R10, R11, R8)      \
	REDROUND(R10, R11, R8, R9)      \
	REDROUND(R11, R8, R9, R10)      \
	XORQ    CX, CX                  \
	ADDQ    R12, R8                 \
	ADCQ    R13, R9                 \
	ADCQ    R14, R10                \
	ADCQ    R15, R11                \
	ADCQ    $0, CX                  \
	MOVQ    R8, R12                 \
	MOVQ    R9, R13                 \
	MOVQ    R10, R14                \
	MOVQ    R11, R15                \
	MOVL    $0xffffffff, DI         \
	SUBQ    $-1, R12                \
	SBBQ    DI, R13                 \
	SBBQ    $0, R14                 \
	SBBQ    SI, R15                 \
	SBBQ    $0, CX                  \
	CMOVQCC R12, R8                 \
	CMOVQCC R13, R9                 \
	CMOVQCC R14, R10                \
	CMOVQCC R15, R11

// STORE writes R8..R11 to the element at dst.
#define STORE(dst) \
	MOVQ R8, (dst)   \
	MOVQ R9, 8(dst)  \
	MOVQ R10, 16(dst) \
	MOVQ R11, 24(dst)

// func p256MulADX(z, x, y *p256Elem)
TEXT ·p256MulADX(SB), NOSPLIT, $0-24
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MULBODY
	REDUCE
	MOVQ z+0(FP), AX
	STORE(AX)
	RET

// func p256SqrADX(z, x *p256Elem)
TEXT ·p256SqrADX(SB), NOSPLIT, $0-16
	MOVQ x+8(FP), SI
	SQRBODY
	REDUCE
	MOVQ z+0(FP), AX
	STORE(AX)
	RET

// The routines below serve p256XYZZAddAffineADX: the same bodies as
// internal calls, with pointers to the operands in SI and DI and the result
// left in R8..R11. Each clobbers every general register but SP and BP.

// p256MulInternal sets R8..R11 = (SI)·(DI)·R^-1 mod p.
TEXT p256MulInternal<>(SB), NOSPLIT, $0
	MULBODY
	REDUCE
	RET

// p256SqrInternal sets R8..R11 = (SI)²·R^-1 mod p.
TEXT p256SqrInternal<>(SB), NOSPLIT, $0
	SQRBODY
	REDUCE
	RET

// SUBMOD sets R8..R11 = R8..R11 - (src) mod p for both below p. When the
// subtraction borrows, CX is all ones and p (masked by CX) is added back.
// It clobbers BX, CX, DX.
#define SUBMOD(src) \
	SUBQ  (src), R8            \
	SBBQ  8(src), R9           \
	SBBQ  16(src), R10         \
	SBBQ  24(src), R11         \
	SBBQ  CX, CX               \
	MOVL  $0xffffffff, BX      \
	ANDQ  CX, BX               \
	MOVQ  $0xffffffff00000001, DX \
	ANDQ  CX, DX               \
	ADDQ  CX, R8               \
	ADCQ  BX, R9               \
	ADCQ  $0, R10              \
	ADCQ  DX, R11

// LOAD reads the element at src into R8..R11.
#define LOAD(src) \
	MOVQ (src), R8    \
	MOVQ 8(src), R9   \
	MOVQ 16(src), R10 \
	MOVQ 24(src), R11

// Offsets of the coordinates in a p256XYZZ and of the temporaries in the
// frame of p256XYZZAddAffineADX (hardware SP).
#define PX 0
#define PY 32
#define PZZ 64
#define PZZZ 96
#define TU 0
#define TR 32
#define TPP 64
#define TPPP 96
#define TQ 128
#define TT 160

// func p256XYZZAddAffineADX(p *p256XYZZ, x2, y2 *p256Elem) bool
//
// The general case of p256XYZZ.addAffine (madd-2008-s, 8M + 2S); see
// p256point.go for the formulas. p must not be the point at infinity. It
// returns false, leaving p untouched, when P = x2·ZZ1 - X1 is 0 (the
// points are equal or opposite), for the caller to handle. Every field
// operation reloads its operands' addresses from the arguments or the
// frame, as the products clobber all registers.
TEXT ·p256XYZZAddAffineADX(SB), NOSPLIT, $192-25
	// U = x2·ZZ1 - X1
	MOVQ x2+8(FP), SI
	MOVQ p+0(FP), DI
	LEAQ PZZ(DI), DI
	CALL p256MulInternal<>(SB)
	MOVQ p+0(FP), SI
	SUBMOD(SI)
	STORE(SP)
	// R = y2·ZZZ1 - Y1
	MOVQ y2+16(FP), SI
	MOVQ p+0(FP), DI
	LEAQ PZZZ(DI), DI
	CALL p256MulInternal<>(SB)
	MOVQ p+0(FP), SI
	LEAQ PY(SI), SI
	SUBMOD(SI)
	LEAQ TR(SP), AX
	STORE(AX)
	// U = 0 means equal or opposite points.
	MOVQ TU(SP), AX
	ORQ  TU+8(SP), AX
	ORQ  TU+16(SP), AX
	ORQ  TU+24(SP), AX
	JNZ  general
	MOVB $0, ret+24(FP)
	RET

general:
	// PP = U², PPP = U·PP
	LEAQ TU(SP), SI
	CALL p256SqrInternal<>(SB)
	LEAQ TPP(SP), AX
	STORE(AX)
	LEAQ TU(SP), SI
	LEAQ TPP(SP), DI
	CALL p256MulInternal<>(SB)
	LEAQ TPPP(SP), AX
	STORE(AX)
	// Q = X1·PP
	MOVQ p+0(FP), SI
	LEAQ TPP(SP), DI
	CALL p256MulInternal<>(SB)
	LEAQ TQ(SP), AX
	STORE(AX)
	// ZZ3 = ZZ1·PP
	MOVQ p+0(FP), SI
	LEAQ PZZ(SI), SI
	LEAQ TPP(SP), DI
	CALL p256MulInternal<>(SB)
	MOVQ p+0(FP), AX
	LEAQ PZZ(AX), AX
	STORE(AX)
	// ZZZ3 = ZZZ1·PPP
	MOVQ p+0(FP), SI
	LEAQ PZZZ(SI), SI
	LEAQ TPPP(SP), DI
	CALL p256MulInternal<>(SB)
	MOVQ p+0(FP), AX
	LEAQ PZZZ(AX), AX
	STORE(AX)
	// T = Y1·PPP, before Y1 is overwritten
	MOVQ p+0(FP), SI
	LEAQ PY(SI), SI
	LEAQ TPPP(SP), DI
	CALL p256MulInternal<>(SB)
	LEAQ TT(SP), AX
	STORE(AX)
	// X3 = R² - PPP - 2Q
	LEAQ TR(SP), SI
	CALL p256SqrInternal<>(SB)
	LEAQ TPPP(SP), SI
	SUBMOD(SI)
	LEAQ TQ(SP), SI
	SUBMOD(SI)
	LEAQ TQ(SP), SI
	SUBMOD(SI)
	MOVQ p+0(FP), AX
	STORE(AX)
	// Q = Q - X3
	LEAQ TQ(SP), AX
	LOAD(AX)
	MOVQ p+0(FP), SI
	SUBMOD(SI)
	LEAQ TQ(SP), AX
	STORE(AX)
	// Y3 = R·(Q - X3) - Y1·PPP
	LEAQ TR(SP), SI
	LEAQ TQ(SP), DI
	CALL p256MulInternal<>(SB)
	LEAQ TT(SP), SI
	SUBMOD(SI)
	MOVQ p+0(FP), AX
	LEAQ PY(AX), AX
	STORE(AX)
	MOVB $1, ret+24(FP)
	RET
