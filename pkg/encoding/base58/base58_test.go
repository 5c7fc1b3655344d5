package base58

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKnownVector(t *testing.T) {
	require.Equal(t, "StV1DL6CwTryKyV", Encode([]byte("hello world")))
	b, err := Decode("StV1DL6CwTryKyV")
	require.NoError(t, err)
	require.Equal(t, "hello world", string(b))
	_, err = Decode("0")
	require.Error(t, err)
}

func TestCheck(t *testing.T) {
	s := CheckEncode([]byte{1, 2, 3})
	b, err := CheckDecode(s)
	require.NoError(t, err)
	require.Equal(t, []byte{1, 2, 3}, b)
	raw, err := Decode(s)
	require.NoError(t, err)
	raw[len(raw)-1] ^= 1
	_, err = CheckDecode(Encode(raw))
	require.ErrorIs(t, err, ErrChecksum)
}

func FuzzCheckDecode(f *testing.F) {
	f.Add(CheckEncode([]byte("neo")))
	f.Fuzz(func(t *testing.T, s string) {
		b, err := CheckDecode(s)
		if err != nil {
			return
		}
		back, err := CheckDecode(CheckEncode(b))
		require.NoError(t, err)
		require.Equal(t, b, back)
	})
}
