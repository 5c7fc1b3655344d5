package stackitem

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJSONRoundTrip(t *testing.T) {
	m := NewMap()
	require.NoError(t, m.Add(ByteString("a"), NewArray([]Item{NewInt(1), ByteString("x"), Bool(true), Null{}})))
	require.NoError(t, m.Add(ByteString("b"), NewMap()))
	b, err := ToJSON(m)
	require.NoError(t, err)
	require.Equal(t, `{"a":[1,"x",true,null],"b":{}}`, string(b))
	back, err := FromJSON(b, false)
	require.NoError(t, err)
	b2, err := ToJSON(back)
	require.NoError(t, err)
	require.Equal(t, b, b2)
}

func TestJSONErrors(t *testing.T) {
	_, err := ToJSON(NewInt(1 << 53))
	require.ErrorIs(t, err, ErrJSON)
	m := NewMap()
	require.NoError(t, m.Add(NewInt(1), NewInt(1)))
	_, err = ToJSON(m)
	require.ErrorIs(t, err, ErrJSON)
	_, err = ToJSON(ByteString{0xff})
	require.ErrorIs(t, err, ErrInvalidUTF8)
	_, err = ToJSON(NewInterop(nil))
	require.ErrorIs(t, err, ErrJSON)
	_, err = ToJSONLimited(ByteString("0123456789"), 5)
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = FromJSON([]byte(`1.5`), false)
	require.ErrorIs(t, err, ErrJSON)
	_, err = FromJSON([]byte(`[[[[[[[[[[[1]]]]]]]]]]]`), false)
	require.ErrorIs(t, err, ErrJSON)
}

func TestJSONNumberHardfork(t *testing.T) {
	// 1e23 is not exact in binary: Basilisk reads its printed digits.
	it, err := FromJSON([]byte(`1e23`), false)
	require.NoError(t, err)
	want, _ := new(big.Int).SetString("100000000000000000000000", 10)
	require.Equal(t, 0, it.(*Integer).Big().Cmp(want))
	it, err = FromJSON([]byte(`1e23`), true)
	require.NoError(t, err)
	exact, _ := new(big.Float).SetFloat64(1e23).Int(nil)
	require.Equal(t, 0, it.(*Integer).Big().Cmp(exact))
	require.NotEqual(t, 0, exact.Cmp(want))
}

func FuzzFromJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,{"b":null}],"c":"d"}`))
	f.Add([]byte(`[true,false,-5,"\u00e9"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := FromJSON(data, false)
		if err != nil {
			return
		}
		out, err := ToJSON(it)
		if err != nil {
			return // e.g. integers beyond the safe range
		}
		back, err := FromJSON(out, false)
		require.NoError(t, err)
		out2, err := ToJSON(back)
		require.NoError(t, err)
		require.Equal(t, out, out2)
	})
}
