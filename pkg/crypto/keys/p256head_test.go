package keys

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/binary"
	"math/big"
	"sync"
	"testing"
	"time"

	"filippo.io/nistec"
	"github.com/stretchr/testify/require"
)

// The verifiers of HEAD before this package had its own P-256 arithmetic
// (commit 508f31f), kept to measure against in the same process: hot keys
// used a 5-bit comb of nistec points, cold ones crypto/ecdsa through DER.

const (
	headCombBits    = 5
	headCombWindows = (256 + headCombBits - 1) / headCombBits
	headCombEntries = 1<<headCombBits - 1
)

type headTable [headCombWindows][headCombEntries]nistec.P256Point

// newHeadTable builds HEAD's table of a valid key.
func newHeadTable(uncompressed []byte) *headTable {
	base, err := nistec.NewP256Point().SetBytes(uncompressed)
	if err != nil {
		panic(err)
	}
	tab := new(headTable)
	for w := range headCombWindows {
		tab[w][0].Set(base)
		for d := 1; d < headCombEntries; d++ {
			tab[w][d].Add(&tab[w][d-1], base)
		}
		for range headCombBits {
			base.Double(base)
		}
	}
	return tab
}

func (t *headTable) mul(k *[32]byte) *nistec.P256Point {
	var limbs [4]uint64
	for i := range limbs {
		limbs[i] = binary.BigEndian.Uint64(k[32-8*(i+1):])
	}
	acc := nistec.NewP256Point()
	for w := range headCombWindows {
		off := w * headCombBits
		i, sh := off/64, uint(off%64)
		d := limbs[i] >> sh
		if sh > 64-headCombBits && i+1 < len(limbs) {
			d |= limbs[i+1] << (64 - sh)
		}
		if d &= 1<<headCombBits - 1; d != 0 {
			acc.Add(acc, &t[w][d-1])
		}
	}
	return acc
}

func (t *headTable) verify(sig, digest []byte) bool {
	r := new(big.Int).SetBytes(sig[:coordLen])
	s := new(big.Int).SetBytes(sig[coordLen:])
	if r.Sign() == 0 || s.Sign() == 0 || r.Cmp(p256Order) >= 0 || s.Cmp(p256Order) >= 0 {
		return false
	}
	if len(digest) > coordLen {
		digest = digest[:coordLen]
	}
	e := new(big.Int).SetBytes(digest)
	w := new(big.Int).ModInverse(s, p256Order)
	u1 := e.Mul(e, w)
	u1.Mod(u1, p256Order)
	u2 := w.Mul(r, w)
	u2.Mod(u2, p256Order)
	var b1, b2 [32]byte
	u1.FillBytes(b1[:])
	u2.FillBytes(b2[:])
	p1, err := nistec.NewP256Point().ScalarBaseMult(b1[:])
	if err != nil {
		return false
	}
	p1.Add(p1, t.mul(&b2))
	x, err := p1.BytesX()
	if err != nil {
		return false
	}
	xn := new(big.Int).SetBytes(x)
	if xn.Cmp(p256Order) >= 0 {
		xn.Sub(xn, p256Order)
	}
	return xn.Cmp(r) == 0
}

// headColdVerify is HEAD's path for keys without a table.
func headColdVerify(p *PublicKey, sig, digest []byte) bool {
	var buf [2 + 2*(2+1+coordLen)]byte
	return ecdsa.VerifyASN1(p.r1, digest, headASN1(&buf, sig))
}

// headASN1 is HEAD's DER writer for r‖s.
func headASN1(buf *[2 + 2*(2+1+coordLen)]byte, sig []byte) []byte {
	n := 2
	for _, v := range [][]byte{sig[:coordLen], sig[coordLen:]} {
		for len(v) > 1 && v[0] == 0 {
			v = v[1:]
		}
		pad := int(v[0] >> 7)
		buf[n], buf[n+1], buf[n+2] = 0x02, byte(len(v)+pad), 0
		n += 2 + pad + copy(buf[n+2+pad:], v)
	}
	buf[0], buf[1] = 0x30, byte(n-2)
	return buf[:n]
}

// TestHeadVerifiers keeps the HEAD copies honest: they must agree with
// crypto/ecdsa (and so with the new verifiers).
func TestHeadVerifiers(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	pub := priv.PublicKey()
	tab := newHeadTable(pub.UncompressedBytes())
	sigs, digests := combCases(t, priv)
	for _, sig := range sigs {
		for _, dg := range digests {
			want := slowVerify(pub, sig, dg)
			require.Equal(t, want, tab.verify(sig, dg))
			require.Equal(t, want, headColdVerify(pub, sig, dg))
		}
	}
}

// BenchmarkVerifyVsHead measures each verifier (and building a hot key's
// table) against HEAD's in the same process, old and new alternating under
// -count. Besides the mean it
// reports the fastest single verification (min-ns/op), which a loaded
// machine disturbs much less.
func BenchmarkVerifyVsHead(b *testing.B) {
	priv, err := NewPrivateKey()
	require.NoError(b, err)
	pub := priv.PublicKey()
	d := sha256.Sum256([]byte("vs head"))
	sig := priv.SignHash(d)
	head := newHeadTable(pub.UncompressedBytes())
	tab := newP256Comb(pointOf(pub), combBitsQ)
	p256GComb()
	cases := []struct {
		name string
		f    func() bool
	}{
		{"key=hot/impl=head", func() bool { return head.verify(sig, d[:]) }},
		{"key=hot/impl=new", func() bool { return p256Verify(tab, sig, d[:]) }},
		{"key=cold/impl=head", func() bool { return headColdVerify(pub, sig, d[:]) }},
		{"key=cold/impl=new", func() bool { return p256VerifyNistec(pub.hot.nq, sig, d[:]) }},
		{"key=table/impl=head", func() bool { return newHeadTable(pub.UncompressedBytes()) != nil }},
		{"key=table/impl=new", func() bool { return newP256Comb(pointOf(pub), combBitsQ) != nil }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			best := time.Hour
			for b.Loop() {
				t0 := time.Now()
				ok := c.f()
				if dt := time.Since(t0); dt < best {
					best = dt
				}
				if !ok {
					b.Fatal("verify failed")
				}
			}
			b.ReportMetric(float64(best.Nanoseconds()), "min-ns/op")
		})
	}
}

// distinctFixture is 1000 keys with a signature each; the first 128 have
// tables (HEAD's and ours), as in a node's steady state.
type distinctFixture struct {
	keys       []*PublicKey
	sigs       [][]byte
	digest     []byte
	headTables []*headTable
	tables     []*p256Comb
}

var distinct = sync.OnceValue(func() *distinctFixture {
	d := sha256.Sum256([]byte("distinct"))
	fx := &distinctFixture{digest: d[:]}
	for i := range 1000 {
		priv, err := NewPrivateKey()
		if err != nil {
			panic(err)
		}
		pub := priv.PublicKey()
		fx.keys = append(fx.keys, pub)
		fx.sigs = append(fx.sigs, priv.SignHash(d))
		if i < maxHotTables {
			fx.headTables = append(fx.headTables, newHeadTable(pub.UncompressedBytes()))
			fx.tables = append(fx.tables, newP256Comb(pointOf(pub), combBitsQ))
		}
	}
	return fx
})

// BenchmarkDistinct1000VsHead verifies one signature each of 1000 keys per
// op, 128 of them with tables, with HEAD's verifiers and ours.
func BenchmarkDistinct1000VsHead(b *testing.B) {
	fx := distinct()
	p256GComb()
	impls := []struct {
		name string
		f    func(i int) bool
	}{
		{"impl=head", func(i int) bool {
			if i < len(fx.headTables) {
				return fx.headTables[i].verify(fx.sigs[i], fx.digest)
			}
			return headColdVerify(fx.keys[i], fx.sigs[i], fx.digest)
		}},
		{"impl=new", func(i int) bool {
			if i < len(fx.tables) {
				return p256Verify(fx.tables[i], fx.sigs[i], fx.digest)
			}
			return p256VerifyNistec(fx.keys[i].hot.nq, fx.sigs[i], fx.digest)
		}},
	}
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range fx.keys {
					if !im.f(i) {
						b.Fatal("verify failed")
					}
				}
			}
		})
	}
}
