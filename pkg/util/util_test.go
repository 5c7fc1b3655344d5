package util

import (
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/stretchr/testify/require"
)

func TestUint160Forms(t *testing.T) {
	// Script hash of the NEO native contract as the reference prints it.
	const be = "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"
	u, err := Uint160DecodeStringBE(be)
	require.NoError(t, err)
	require.Equal(t, be, u.String())
	require.Equal(t, be[2:], u.StringBE())
	require.Equal(t, byte(0xf5), u[0], "stored little-endian")
	require.Equal(t, u.BytesBE(), u.Reverse().BytesLE())

	v, err := Uint160DecodeStringLE(u.StringLE())
	require.NoError(t, err)
	require.Equal(t, u, v)
	v, err = Uint160DecodeBytesBE(u.BytesBE())
	require.NoError(t, err)
	require.True(t, u.Equals(v))

	js, err := json.Marshal(u)
	require.NoError(t, err)
	require.Equal(t, `"`+be+`"`, string(js))
	var w Uint160
	require.NoError(t, json.Unmarshal(js, &w))
	require.Equal(t, u, w)

	_, err = Uint160DecodeStringBE("0x1234")
	require.ErrorIs(t, err, ErrBadLength)
	_, err = Uint160DecodeStringBE("zz" + be[4:])
	require.Error(t, err)
	_, err = Uint160DecodeBytesLE(make([]byte, 19))
	require.ErrorIs(t, err, ErrBadLength)
	require.Error(t, json.Unmarshal([]byte(`12`), &w))
	require.True(t, Uint160{}.IsZero())
}

func TestUint256Forms(t *testing.T) {
	const be = "0x0f8fb4e17d2ab9f3097af75ca7fd16064160fb8043db94909e00dd4e257b9dc4"
	u, err := Uint256DecodeStringBE(be)
	require.NoError(t, err)
	require.Equal(t, be, u.String())
	require.Equal(t, byte(0xc4), u[0])
	w := io.NewBufBinWriter()
	u.EncodeBinary(w.BinWriter)
	require.Equal(t, u.BytesLE(), w.Bytes())
	var d Uint256
	d.DecodeBinary(io.NewBinReaderFromBuf(w.Bytes()))
	require.Equal(t, u, d)
	_, err = Uint256DecodeBytesBE(nil)
	require.ErrorIs(t, err, ErrBadLength)
}

func TestCompareIsBigEndian(t *testing.T) {
	var a, b Uint160
	a[0] = 2  // least significant byte
	b[19] = 1 // most significant byte
	require.Equal(t, -1, a.Compare(b))
	require.Equal(t, 1, b.Compare(a))
	require.Equal(t, 0, a.Compare(a))
	require.True(t, a.Less(b))
	var c, d Uint256
	d[31] = 1
	require.True(t, c.Less(d))
}

func TestFixed8(t *testing.T) {
	cases := map[string]Fixed8{
		"0": 0, "1": 100000000, "1.5": 150000000, "-0.00000001": -1,
		"52000000": Fixed8FromInt64(52000000), "0.1": 10000000,
	}
	for s, v := range cases {
		got, err := Fixed8FromString(s)
		require.NoError(t, err, s)
		require.Equal(t, v, got, s)
		require.Equal(t, s, v.String())
	}
	for _, bad := range []string{"", "-", "1.", ".5", "1.123456789", "abc", "99999999999999999999"} {
		_, err := Fixed8FromString(bad)
		require.ErrorIs(t, err, ErrBadFixed8, bad)
	}
	js, err := json.Marshal(Fixed8(150000000))
	require.NoError(t, err)
	require.Equal(t, `"1.5"`, string(js))
	var f Fixed8
	require.NoError(t, json.Unmarshal([]byte(`2.25`), &f))
	require.Equal(t, Fixed8(225000000), f)
	require.Error(t, json.Unmarshal([]byte(`"x"`), &f))
}

func FuzzUint256JSON(f *testing.F) {
	f.Add([]byte(`"0x0f8fb4e17d2ab9f3097af75ca7fd16064160fb8043db94909e00dd4e257b9dc4"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var u Uint256
		if json.Unmarshal(data, &u) != nil {
			return
		}
		js, err := json.Marshal(u)
		require.NoError(t, err)
		var v Uint256
		require.NoError(t, json.Unmarshal(js, &v))
		require.Equal(t, u, v)
	})
}

func FuzzFixed8(f *testing.F) {
	f.Add("1.5")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Fixed8FromString(s)
		if err != nil {
			return
		}
		w, err := Fixed8FromString(v.String())
		require.NoError(t, err)
		require.Equal(t, v, w)
	})
}
