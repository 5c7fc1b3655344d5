package smartcontract

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
)

// naivePush is the reference's EmitPush(BigInteger) written plainly: small
// values as PUSH0+v, others as the minimal two's complement bytes padded to
// the next PUSHINT size.
func naivePush(v uint32) []byte {
	if v <= 16 {
		return []byte{opPUSH0 + byte(v)}
	}
	b := bigint.ToBytes(new(big.Int).SetUint64(uint64(v)))
	for i, size := range []int{1, 2, 4, 8} {
		if len(b) <= size {
			out := append([]byte{opPUSHINT8 + byte(i)}, b...)
			return append(out, make([]byte, size-len(b))...)
		}
	}
	panic("too large")
}

func TestAppendPushUint32(t *testing.T) {
	vals := []uint32{0, 1, 16, 17, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000,
		0xffff, 0x10000, 0x7fffff, 0x800000, 0x7fffffff, 0x80000000, 0xffffffff}
	for _, v := range vals {
		require.Equal(t, naivePush(v), appendPushUint32(nil, v), v)
	}
}

func TestAppendPushData(t *testing.T) {
	for _, n := range []int{0, 1, 0xff, 0x100, 0xffff, 0x10000} {
		data := make([]byte, n)
		got := appendPushData(nil, data)
		switch {
		case n < 0x100:
			require.Equal(t, []byte{opPUSHDATA1, byte(n)}, got[:2])
		case n < 0x10000:
			require.Equal(t, []byte{opPUSHDATA2, byte(n), byte(n >> 8)}, got[:3])
		default:
			require.Equal(t, []byte{opPUSHDATA4, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}, got[:5])
		}
		require.Equal(t, data, got[len(got)-n:])
	}
}
