package bigint

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// naive encodes n the slow, obviously correct way: take bytes of n mod
// 2^(8k) for growing k until decoding gives n back.
func naive(n *big.Int) []byte {
	if n.Sign() == 0 {
		return []byte{}
	}
	for k := 1; ; k++ {
		mod := new(big.Int).Lsh(big.NewInt(1), uint(8*k))
		v := new(big.Int).Mod(n, mod)
		be := v.FillBytes(make([]byte, k))
		le := make([]byte, k)
		for i := range be {
			le[i] = be[k-1-i]
		}
		if le[k-1]&0x80 != 0 {
			v.Sub(v, mod) // the top bit set means v - 2^(8k)
		}
		if v.Cmp(n) == 0 {
			return le
		}
	}
}

func TestKnownEncodings(t *testing.T) {
	// Two's complement facts, as System.Numerics.BigInteger.ToByteArray.
	cases := map[int64][]byte{
		0: {}, 1: {1}, -1: {0xff}, 127: {0x7f}, 128: {0x80, 0}, -128: {0x80},
		-129: {0x7f, 0xff}, 255: {0xff, 0}, 256: {0, 1}, 65535: {0xff, 0xff, 0},
		-65536: {0, 0, 0xff}, 1 << 62: {0, 0, 0, 0, 0, 0, 0, 0x40},
	}
	for v, want := range cases {
		require.Equal(t, want, ToBytes(big.NewInt(v)), v)
		require.Equal(t, want, Int64ToBytes(v, nil), v)
		require.Equal(t, 0, big.NewInt(v).Cmp(FromBytes(want)), v)
		got, ok := FromInt64Bytes(want)
		require.True(t, ok)
		require.Equal(t, v, got)
	}
	require.NotNil(t, ToBytes(new(big.Int)))
}

func TestAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, 64)
	for range 5000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		n := new(big.Int).SetBytes(b)
		if rng.IntN(2) == 0 {
			n.Neg(n)
		}
		want := naive(n)
		require.Equal(t, want, ToBytes(n), n.String())
		require.Equal(t, want, ToPreallocatedBytes(n, buf), n.String())
		require.Equal(t, 0, n.Cmp(FromBytes(want)), n.String())
	}
	_, ok := FromInt64Bytes(make([]byte, 9))
	require.False(t, ok)
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{0x80, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		n := FromBytes(data)
		enc := ToBytes(n)
		require.LessOrEqual(t, len(enc), max(len(data), 1))
		require.Equal(t, 0, n.Cmp(FromBytes(enc)))
		if v, ok := FromInt64Bytes(data); ok {
			require.Equal(t, n.Int64(), v)
		}
	})
}
