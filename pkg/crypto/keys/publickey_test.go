package keys_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"sort"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/stretchr/testify/require"
)

// P-256 field prime and b, from SEC 2 / FIPS 186-4.
var (
	p256P, _ = new(big.Int).SetString("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16)
	p256B, _ = new(big.Int).SetString("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b", 16)
)

// nonResidueX finds an x for which x³-3x+b has no square root mod p, i.e.
// no point of P-256 has that X, using plain math/big.
func nonResidueX(t *testing.T) []byte {
	for x := int64(1); x < 1000; x++ {
		bx := big.NewInt(x)
		rhs := new(big.Int).Exp(bx, big.NewInt(3), p256P)
		rhs.Sub(rhs, new(big.Int).Mul(bx, big.NewInt(3)))
		rhs.Add(rhs, p256B)
		rhs.Mod(rhs, p256P)
		if new(big.Int).ModSqrt(rhs, p256P) == nil {
			return bx.FillBytes(make([]byte, 32))
		}
	}
	t.Fatal("no non-residue found")
	return nil
}

func TestPublicKeyDecodeRules(t *testing.T) {
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	pub := priv.PublicKey()
	comp, un := pub.Bytes(), pub.UncompressedBytes()
	require.Len(t, comp, 33)
	require.Len(t, un, 65)
	require.Equal(t, byte(0x02)|un[64]&1, comp[0])
	require.Equal(t, comp[1:], un[1:33])

	flipped := append([]byte{comp[0] ^ 1}, comp[1:]...)
	other, err := keys.NewPublicKeyFromBytes(flipped)
	require.NoError(t, err)
	require.False(t, other.Equal(pub))
	y1 := new(big.Int).SetBytes(un[33:])
	y2 := new(big.Int).SetBytes(other.UncompressedBytes()[33:])
	require.Zero(t, new(big.Int).Add(y1, y2).Cmp(p256P), "y and p-y")

	offCurve := append([]byte{}, un...)
	offCurve[64] ^= 1
	bigX := append([]byte{0x02}, bytes.Repeat([]byte{0xff}, 32)...)
	pX := append([]byte{0x03}, p256P.Bytes()...)
	bad := map[string][]byte{
		"empty":             {},
		"infinity":          {0x00},
		"hybrid":            append([]byte{0x06}, un[1:]...),
		"04 with 33 bytes":  append([]byte{0x04}, comp[1:]...),
		"02 with 65 bytes":  append([]byte{0x02}, un[1:]...),
		"short compressed":  comp[:32],
		"long compressed":   append(append([]byte{}, comp...), 0),
		"x >= p":            bigX,
		"x = p":             pX,
		"off-curve 04":      offCurve,
		"x not on curve":    append([]byte{0x02}, nonResidueX(t)...),
		"unknown prefix 05": append([]byte{0x05}, un[1:]...),
	}
	for name, b := range bad {
		_, err := keys.NewPublicKeyFromBytes(b)
		require.ErrorIs(t, err, keys.ErrInvalidPublicKey, name)
	}
	_, err = keys.NewPublicKeyFromBytesOnCurve(comp, keys.Curve(9))
	require.ErrorIs(t, err, keys.ErrUnknownCurve)
}

func TestInfinity(t *testing.T) {
	var inf keys.PublicKey
	require.True(t, inf.IsInfinity())
	require.Equal(t, []byte{0}, inf.Bytes())
	require.Equal(t, []byte{0}, inf.UncompressedBytes())
	require.Equal(t, "00", inf.String())
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	require.Equal(t, -1, inf.Cmp(priv.PublicKey()))
	require.Equal(t, 1, priv.PublicKey().Cmp(&inf))
	require.Zero(t, inf.Cmp(&keys.PublicKey{}))

	w := io.NewBufBinWriter()
	inf.EncodeBinary(w.BinWriter)
	require.Equal(t, []byte{0}, w.Bytes())
	var back keys.PublicKey
	r := io.NewBinReaderFromBuf(w.Bytes())
	back.DecodeBinary(r)
	require.ErrorIs(t, r.Err, keys.ErrInvalidPublicKey, "the reference never decodes infinity")
}

func TestPublicKeyOrder(t *testing.T) {
	var ks keys.PublicKeys
	for range 20 {
		priv, err := keys.NewPrivateKey()
		require.NoError(t, err)
		ks = append(ks, priv.PublicKey())
		// The twin with the same X and the other Y.
		c := priv.PublicKey().Bytes()
		c[0] ^= 1
		twin, err := keys.NewPublicKeyFromBytes(c)
		require.NoError(t, err)
		ks = append(ks, twin)
	}
	ks = append(ks, &keys.PublicKey{})
	sort.Sort(ks)
	require.True(t, ks[0].IsInfinity())
	for i := 2; i < len(ks); i++ {
		a, b := ks[i-1].UncompressedBytes(), ks[i].UncompressedBytes()
		xa, xb := new(big.Int).SetBytes(a[1:33]), new(big.Int).SetBytes(b[1:33])
		ya, yb := new(big.Int).SetBytes(a[33:]), new(big.Int).SetBytes(b[33:])
		c := xa.Cmp(xb)
		if c == 0 {
			c = ya.Cmp(yb)
		}
		require.Equal(t, -1, c, "keys %d and %d out of order", i-1, i)
	}
	cp := ks.Copy()
	cp.Sort()
	require.Equal(t, ks, cp)
	require.Len(t, append(ks, ks...).Unique(), len(ks))
	require.True(t, ks.Contains(ks[5]))
}

func TestPublicKeyCodecs(t *testing.T) {
	var ks keys.PublicKeys
	for range 5 {
		priv, err := keys.NewPrivateKey()
		require.NoError(t, err)
		ks = append(ks, priv.PublicKey())
	}
	// Binary array round trip.
	w := io.NewBufBinWriter()
	ks.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	require.Equal(t, 1+5*33, w.Len())
	r := io.NewBinReaderFromBuf(w.Bytes())
	back := keys.ReadPublicKeys(r, 10)
	require.NoError(t, r.Err)
	require.Equal(t, ks.Strings(), back.Strings())
	r = io.NewBinReaderFromBuf(w.Bytes())
	keys.ReadPublicKeys(r, 4)
	require.Error(t, r.Err, "bound")

	// Uncompressed keys decode through DecodeBinary too.
	var k keys.PublicKey
	r = io.NewBinReaderFromBuf(ks[0].UncompressedBytes())
	k.DecodeBinary(r)
	require.NoError(t, r.Err)
	require.True(t, k.Equal(ks[0]))
	r = io.NewBinReaderFromBuf(ks[0].Bytes()[:20])
	k.DecodeBinary(r)
	require.Error(t, r.Err)

	// JSON: hex of the compressed form.
	js, err := json.Marshal(ks)
	require.NoError(t, err)
	var strs []string
	require.NoError(t, json.Unmarshal(js, &strs))
	require.Equal(t, ks.Strings(), strs)
	var fromJS keys.PublicKeys
	require.NoError(t, json.Unmarshal(js, &fromJS))
	require.Equal(t, ks.Strings(), fromJS.Strings())
	var one keys.PublicKey
	require.NoError(t, json.Unmarshal([]byte(`"`+hex.EncodeToString(ks[1].UncompressedBytes())+`"`), &one))
	require.True(t, one.Equal(ks[1]))
	require.Error(t, json.Unmarshal([]byte(`"zz"`), &one))
	require.Error(t, json.Unmarshal([]byte(`12`), &one))

	strsBack, err := keys.NewPublicKeysFromStrings(strs)
	require.NoError(t, err)
	require.Equal(t, strs, strsBack.Strings())
}

func TestCacheIsolation(t *testing.T) {
	a, err := keys.NewPrivateKey()
	require.NoError(t, err)
	b, err := keys.NewPrivateKey()
	require.NoError(t, err)
	enc := a.PublicKey().Bytes()
	k1, err := keys.NewPublicKeyFromBytes(enc)
	require.NoError(t, err)
	// Overwrite the first decoded value in place; the cache must not care.
	require.NoError(t, json.Unmarshal([]byte(`"`+b.PublicKey().String()+`"`), k1))
	k2, err := keys.NewPublicKeyFromBytes(enc)
	require.NoError(t, err)
	require.Equal(t, hex.EncodeToString(enc), k2.String())
}

func TestInteropIDs(t *testing.T) {
	// The syscall operands as they appear in every standard script of the
	// reference chains: CheckSig 0x27b3e756, CheckMultisig 0x3adcd09e.
	require.Equal(t, uint32(0x27b3e756), keys.CheckSigID)
	require.Equal(t, uint32(0x3adcd09e), keys.CheckMultisigID)
}

func TestConcurrentDecodeVerify(t *testing.T) {
	type item struct {
		enc, sig []byte
		digest   [32]byte
	}
	items := make([]item, 8)
	for i := range items {
		priv, err := keys.NewPrivateKey()
		require.NoError(t, err)
		items[i].digest[0] = byte(i)
		items[i].enc = priv.PublicKey().Bytes()
		items[i].sig = priv.SignHash(items[i].digest)
	}
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for n := range 50 {
				it := items[(g+n)%len(items)]
				k, err := keys.NewPublicKeyFromBytes(it.enc)
				if err == nil && !k.Verify(it.sig, it.digest[:]) {
					err = keys.ErrInvalidPublicKey
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		require.NoError(t, <-errs)
	}
}
