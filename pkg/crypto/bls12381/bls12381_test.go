package bls12381

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// refVectors are values taken from the reference's unit tests; see the
// "source" field of testdata/reference_vectors.json.
type refVectors struct {
	Source      string `json:"source"`
	G1          string `json:"g1"`
	G2          string `json:"g2"`
	GT          string `json:"gt"`
	NotG1       string `json:"not_g1"`
	NotG2       string `json:"not_g2"`
	GTPlusGT    string `json:"gt_plus_gt"`
	GTMul3      string `json:"gt_mul_3"`
	GTMul3Neg   string `json:"gt_mul_3_neg"`
	PairingG1G2 string `json:"pairing_g1_g2"`
	ScalarMul   []struct {
		Point    string `json:"point"`
		Scalar   string `json:"scalar"`
		Neg      bool   `json:"neg"`
		Expected string `json:"expected"`
		Type     string `json:"type"`
	} `json:"scalar_mul"`
}

func loadVectors(t testing.TB) refVectors {
	t.Helper()
	raw, err := os.ReadFile("testdata/reference_vectors.json")
	require.NoError(t, err)
	var v refVectors
	require.NoError(t, json.Unmarshal(raw, &v))
	return v
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func mustPoint(t testing.TB, s string) Point {
	t.Helper()
	p, err := Deserialize(unhex(t, s))
	require.NoError(t, err)
	return p
}

func TestDeserializeRoundTrip(t *testing.T) {
	v := loadVectors(t)
	for _, c := range []struct {
		hex  string
		kind Kind
	}{{v.G1, KindG1Affine}, {v.G2, KindG2Affine}, {v.GT, KindGT}, {v.GTMul3, KindGT}} {
		p := mustPoint(t, c.hex)
		require.Equal(t, c.kind, p.Kind())
		b, err := Serialize(p)
		require.NoError(t, err)
		require.Equal(t, c.hex, hex.EncodeToString(b))
		q := mustPoint(t, hex.EncodeToString(b))
		require.True(t, p.Equal(q))
	}
}

func TestDeserializeRejects(t *testing.T) {
	v := loadVectors(t)
	for name, in := range map[string]string{"notG1": v.NotG1, "notG2": v.NotG2} {
		_, err := Deserialize(unhex(t, in))
		require.ErrorIs(t, err, ErrInvalidPoint, name)
	}
	for _, n := range []int{0, 1, 47, 49, 95, 97, 192, 575, 577} {
		_, err := Deserialize(make([]byte, n))
		require.ErrorIs(t, err, ErrInvalidLength, "len %d", n)
	}
	g1 := unhex(t, v.G1)
	g2 := unhex(t, v.G2)
	flags := func(b []byte, f byte) []byte {
		c := append([]byte(nil), b...)
		c[0] = c[0]&0x1f | f
		return c
	}
	// The compression flag is mandatory; infinity needs an all-zero x and
	// no sort flag.
	for _, f := range []byte{0x00, 0x20, 0x40, 0x60, 0xc0, 0xe0} {
		_, err := Deserialize(flags(g1, f))
		require.ErrorIs(t, err, ErrInvalidPoint, "G1 flags %#x", f)
		_, err = Deserialize(flags(g2, f))
		require.ErrorIs(t, err, ErrInvalidPoint, "G2 flags %#x", f)
	}
	// x = p (not canonical).
	p := unhex(t, "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab")
	_, err := Deserialize(flags(p, 0x80))
	require.ErrorIs(t, err, ErrInvalidPoint)
	// GT with a non-canonical coordinate.
	gt := unhex(t, v.GT)
	copy(gt[:48], p)
	_, err = Deserialize(gt)
	require.ErrorIs(t, err, ErrInvalidPoint)
}

// The identity: G1 decodes (sqrt(0+4) exists); G2 does not, as in the
// reference (sqrt(4(u+1)) does not exist), although G2 identities still
// serialize in the canonical form.
func TestIdentityEncodings(t *testing.T) {
	g1Inf := make([]byte, G1Size)
	g1Inf[0] = 0xc0
	p, err := Deserialize(g1Inf)
	require.NoError(t, err)
	require.Equal(t, g1Inf, p.Bytes())

	g2Inf := make([]byte, G2Size)
	g2Inf[0] = 0xc0
	_, err = Deserialize(g2Inf)
	require.ErrorIs(t, err, ErrInvalidPoint)

	v := loadVectors(t)
	zero := make([]byte, ScalarSize)
	q, err := Mul(mustPoint(t, v.G2), zero, false)
	require.NoError(t, err)
	require.Equal(t, g2Inf, q.Bytes())
}

func TestPairingReference(t *testing.T) {
	v := loadVectors(t)
	gt, err := Pairing(mustPoint(t, v.G1), mustPoint(t, v.G2))
	require.NoError(t, err)
	require.Equal(t, KindGT, gt.Kind())
	require.Equal(t, v.PairingG1G2, hex.EncodeToString(gt.Bytes()))
	require.Equal(t, v.GT, v.PairingG1G2)

	// Projective inputs give the same result.
	g1p, err := Add(mustPoint(t, v.G1), g1Identity(t))
	require.NoError(t, err)
	require.Equal(t, KindG1Projective, g1p.Kind())
	one := make([]byte, ScalarSize)
	one[0] = 1
	g2p, err := Mul(mustPoint(t, v.G2), one, false)
	require.NoError(t, err)
	gt2, err := Pairing(g1p, g2p)
	require.NoError(t, err)
	require.True(t, gt.Equal(gt2))

	// e(O, Q) is the GT identity.
	id, err := Pairing(g1Identity(t), mustPoint(t, v.G2))
	require.NoError(t, err)
	want := make([]byte, GTSize)
	want[GTSize-1] = 1
	require.Equal(t, want, id.Bytes())
}

func g1Identity(t *testing.T) Point {
	t.Helper()
	g1Inf := make([]byte, G1Size)
	g1Inf[0] = 0xc0
	p, err := Deserialize(g1Inf)
	require.NoError(t, err)
	return p
}

func TestAddReference(t *testing.T) {
	v := loadVectors(t)
	gt := mustPoint(t, v.GT)
	sum, err := Add(gt, gt)
	require.NoError(t, err)
	require.Equal(t, KindGT, sum.Kind())
	require.Equal(t, v.GTPlusGT, hex.EncodeToString(sum.Bytes()))
}

func TestMulReference(t *testing.T) {
	v := loadVectors(t)
	three := make([]byte, ScalarSize)
	three[0] = 3
	gt := mustPoint(t, v.GT)
	r, err := Mul(gt, three, false)
	require.NoError(t, err)
	require.Equal(t, v.GTMul3, hex.EncodeToString(r.Bytes()))
	r, err = Mul(gt, three, true)
	require.NoError(t, err)
	require.Equal(t, v.GTMul3Neg, hex.EncodeToString(r.Bytes()))

	kinds := map[string]Kind{"G1Proj": KindG1Projective, "G2Proj": KindG2Projective, "GT": KindGT}
	require.Len(t, v.ScalarMul, 11)
	for i, c := range v.ScalarMul {
		r, err := Mul(mustPoint(t, c.Point), unhex(t, c.Scalar), c.Neg)
		require.NoError(t, err, "case %d", i)
		require.Equal(t, kinds[c.Type], r.Kind(), "case %d", i)
		require.Equal(t, c.Expected, hex.EncodeToString(r.Bytes()), "case %d", i)
	}
}

// Add is consistent with Mul: P+P = 2P, P+P+P = 3P, for every curve kind
// combination the reference accepts.
func TestAddMulConsistency(t *testing.T) {
	v := loadVectors(t)
	two := make([]byte, ScalarSize)
	two[0] = 2
	three := make([]byte, ScalarSize)
	three[0] = 3
	for _, s := range []string{v.G1, v.G2} {
		a := mustPoint(t, s)
		proj, err := Add(a, a) // affine + affine
		require.NoError(t, err)
		want2, err := Mul(a, two, false)
		require.NoError(t, err)
		ok, err := Equal(proj, want2)
		require.NoError(t, err)
		require.True(t, ok)

		want3, err := Mul(a, three, false)
		require.NoError(t, err)
		for _, pair := range [][2]Point{{proj, a}, {a, proj}} { // projective+affine, affine+projective
			r, err := Add(pair[0], pair[1])
			require.NoError(t, err)
			require.Equal(t, want3.Bytes(), r.Bytes())
		}
		one := make([]byte, ScalarSize)
		one[0] = 1
		aProj, err := Mul(a, one, false)
		require.NoError(t, err)
		r, err := Add(proj, aProj) // projective + projective
		require.NoError(t, err)
		require.True(t, r.Equal(want3))
		// Serialization normalizes the projective form.
		require.Equal(t, a.Bytes(), aProj.Bytes())
	}
}

func TestTypeRules(t *testing.T) {
	v := loadVectors(t)
	g1, g2, gt := mustPoint(t, v.G1), mustPoint(t, v.G2), mustPoint(t, v.GT)
	one := make([]byte, ScalarSize)
	one[0] = 1
	g1p, err := Mul(g1, one, false)
	require.NoError(t, err)

	// Equal demands the same kind, even for the same value.
	_, err = Equal(g1, g1p)
	require.ErrorIs(t, err, ErrTypeMismatch)
	require.False(t, g1.Equal(g1p), "VM equality of different kinds is false")
	ok, err := Equal(g1, mustPoint(t, v.G1))
	require.NoError(t, err)
	require.True(t, ok)
	_, err = Equal(nil, g1)
	require.ErrorIs(t, err, ErrTypeMismatch)

	for _, pair := range [][2]Point{{g1, g2}, {g2, g1p}, {gt, g1}, {g1, gt}, {nil, g1}} {
		_, err = Add(pair[0], pair[1])
		require.ErrorIs(t, err, ErrTypeMismatch)
	}
	for _, pair := range [][2]Point{{g2, g1}, {g1, g1}, {gt, g2}, {g1, gt}} {
		_, err = Pairing(pair[0], pair[1])
		require.ErrorIs(t, err, ErrTypeMismatch)
	}
	_, err = Mul(nil, one, false)
	require.ErrorIs(t, err, ErrTypeMismatch)
	_, err = Serialize(nil)
	require.ErrorIs(t, err, ErrTypeMismatch)
}

func TestScalarRules(t *testing.T) {
	v := loadVectors(t)
	g1 := mustPoint(t, v.G1)
	for _, n := range []int{0, 31, 33} {
		_, err := Mul(g1, make([]byte, n), false)
		require.ErrorIs(t, err, ErrInvalidScalar)
	}
	// r itself, little-endian, is not canonical.
	r := unhex(t, "01000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73")
	_, err := Mul(g1, r, false)
	require.ErrorIs(t, err, ErrInvalidScalar)
	// r-1 is fine and equals negating 1.
	r[0] = 0
	a, err := Mul(g1, r, false)
	require.NoError(t, err)
	one := make([]byte, ScalarSize)
	one[0] = 1
	b, err := Mul(g1, one, true)
	require.NoError(t, err)
	require.True(t, a.Equal(b))
	// -0 = 0.
	z, err := Mul(g1, make([]byte, ScalarSize), true)
	require.NoError(t, err)
	require.Equal(t, "c0", hex.EncodeToString(z.Bytes()[:1]))
}

func TestKindString(t *testing.T) {
	names := map[Kind]string{KindG1Affine: "G1Affine", KindG1Projective: "G1Projective",
		KindG2Affine: "G2Affine", KindG2Projective: "G2Projective", KindGT: "Gt", 0: "unknown"}
	for k, s := range names {
		require.Equal(t, s, k.String())
	}
}

func FuzzDeserialize(f *testing.F) {
	v := loadVectors(f)
	for _, s := range []string{v.G1, v.G2, v.GT, v.NotG1, v.NotG2} {
		f.Add(unhex(f, s))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Deserialize(data)
		if err != nil {
			require.Nil(t, p)
			return
		}
		// Whatever decodes re-encodes to the same bytes and decodes again
		// to an equal value.
		b := p.Bytes()
		require.Equal(t, data, b)
		q, err := Deserialize(b)
		require.NoError(t, err)
		require.True(t, p.Equal(q))
	})
}
