package native

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// The expected values below are the C# reference's StdLib unit tests
// (neo tests/Neo.UnitTests/SmartContract/Native/UT_StdLib.cs).

func TestStdConversions(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Std.Metadata().Hash
	str := func(method string, args ...any) string { return itemString(t, e.mustCall(h, method, args...)) }
	num := func(method string, args ...any) int64 { return itemInt(t, e.mustCall(h, method, args...)) }

	require.Equal(t, "AQIDBA==", str("base64Encode", []byte{1, 2, 3, 4}))
	require.Equal(t, "2VfUX", str("base58Encode", []byte{1, 2, 3, 4}))
	require.Equal(t, []byte{1, 2, 3}, []byte(str("base64Decode", "A \r Q \t I \n D")))
	require.Equal(t, "3DUz7ncyT", str("base58CheckEncode", []byte{1, 2, 3}))
	require.Equal(t, []byte{1, 2, 3}, []byte(str("base58CheckDecode", "3DUz7ncyT")))
	require.Equal(t, "1", str("itoa", 1, 10))
	require.Equal(t, "1", str("itoa", 1, 16))
	require.Equal(t, "-1", str("itoa", -1, 10))
	require.Equal(t, "f", str("itoa", -1, 16))
	require.Equal(t, "3b9aca00", str("itoa", 1_000_000_000, 16))
	require.Equal(t, int64(-1), num("atoi", "-1", 10))
	require.Equal(t, int64(1), num("atoi", "+1", 10))
	require.Equal(t, int64(-1), num("atoi", "ff", 16))
	require.Equal(t, int64(-1), num("atoi", "FF", 16))
	require.Equal(t, int64(1), num("atoi", str("itoa", 1)))
	require.Equal(t, "U3ViamVjdD10ZXN0QGV4YW1wbGUuY29tJklzc3Vlcj1odHRwczovL2V4YW1wbGUuY29t",
		str("base64UrlEncode", "Subject=test@example.com&Issuer=https://example.com"))
	for _, in := range []string{"U3ViamVjdD10ZXN0QGV4YW1wbGUuY29tJklzc3Vlcj1odHRwczovL2V4YW1wbGUuY29t",
		"U 3 \t V \n \riamVjdD10ZXN0QGV4YW1wbGUuY29tJklzc3Vlcj1odHRwczovL2V4YW1wbGUuY29t"} {
		require.Equal(t, "Subject=test@example.com&Issuer=https://example.com", str("base64UrlDecode", in))
	}
	for _, bad := range [][]any{{"a", 10}, {"g", 16}, {"a", 11}} {
		_, err := e.call(h, "atoi", bad...)
		require.Error(t, err, bad)
	}
	for _, bad := range []any{"AA", nil} {
		_, err := e.call(h, "base58CheckDecode", bad)
		require.Error(t, err)
	}
}

func TestStdMemoryAndStrings(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Std.Metadata().Hash
	num := func(method string, args ...any) int64 { return itemInt(t, e.mustCall(h, method, args...)) }

	for i, c := range []struct {
		b    string
		want int64
	}{{"c", -1}, {"d", -1}, {"abc", 0}, {"abcd", -1}} {
		require.Equal(t, c.want, num("memoryCompare", "abc", c.b), i)
	}
	forward := []int64{2, 2, 2, -1, -1}
	backward := []int64{-1, -1, -1, 2, -1}
	for i, c := range []struct {
		v     string
		start int
	}{{"c", 0}, {"c", 1}, {"c", 2}, {"c", 3}, {"d", 0}} {
		require.Equal(t, forward[i], num("memorySearch", "abc", c.v, c.start), i)
		require.Equal(t, forward[i], num("memorySearch", "abc", c.v, c.start, false), i)
		require.Equal(t, backward[i], num("memorySearch", "abc", c.v, c.start, true), i)
	}
	arr, ok := e.mustCall(h, "stringSplit", "a,b", ",").(*stackitem.Array)
	require.True(t, ok)
	require.Equal(t, 2, arr.Len())
	require.Equal(t, "a", itemString(t, arr.At(0)))
	require.Equal(t, "b", itemString(t, arr.At(1)))
	for _, s := range []string{"🦆", "ã", "a"} {
		require.Equal(t, int64(1), num("strLen", s), s)
	}
	bad := string([]byte{0xff, 0xfe}) // invalid UTF-8 is rejected by the reference's strict decoder
	_, err := e.call(h, "strLen", bad)
	require.Error(t, err)
}

func TestStdJSON(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Std.Metadata().Hash
	require.Equal(t, int64(123), itemInt(t, e.mustCall(h, "jsonDeserialize", "123")))
	require.Equal(t, stackitem.Null{}, e.mustCall(h, "jsonDeserialize", "null"))
	for _, bad := range []string{"***", "123.45"} {
		_, err := e.call(h, "jsonDeserialize", bad)
		require.Error(t, err, bad)
	}
	require.Equal(t, "5", itemString(t, e.mustCall(h, "jsonSerialize", 5)))
	require.Equal(t, "true", itemString(t, e.mustCall(h, "jsonSerialize", true)))
	require.Equal(t, `"test"`, itemString(t, e.mustCall(h, "jsonSerialize", "test")))
	require.Equal(t, "null", itemString(t, e.mustCall(h, "jsonSerialize", nil)))
}

func TestStdHardforkMethods(t *testing.T) {
	e := newEnv(t, protocol.HFDomovoi)
	_, err := e.call(e.core.Std.Metadata().Hash, "base64UrlEncode", "x")
	require.Error(t, err, "base64UrlEncode exists only from Echidna")
	_, err = e.call(e.core.Std.Metadata().Hash, "hexEncode", []byte{1})
	require.Error(t, err, "hexEncode exists only from Faun")
}

func TestStdOpsEdgeCases(t *testing.T) {
	n, err := atoi("8", 16)
	require.NoError(t, err)
	require.Equal(t, int64(-8), n.Int64())
	n, err = atoi("08", 16)
	require.NoError(t, err)
	require.Equal(t, int64(8), n.Int64())
	for _, bad := range []string{"", "-", "+", " 1", "1 ", "0x1", "١"} {
		_, err := atoi(bad, 10)
		require.Error(t, err, bad)
	}
	b, err := base58Decode("")
	require.NoError(t, err)
	require.Empty(t, b)
	b, err = base58Decode("11")
	require.NoError(t, err)
	require.Equal(t, []byte{0, 0}, b)
	require.Equal(t, []string{""}, stringSplit("", ",", false))
	require.Empty(t, stringSplit("", ",", true))
	require.Equal(t, []string{"a,b"}, stringSplit("a,b", "", false))
	require.Equal(t, "\uFFFD", toValidUTF8([]byte{0xE2, 0x82}))
	require.Equal(t, "\uFFFD\uFFFD", toValidUTF8([]byte{0xFF, 0xFE}))
}
