package scripts_test

import (
	"encoding/binary"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/stretchr/testify/require"
)

func genKeys(t testing.TB, n int) keys.PublicKeys {
	t.Helper()
	out := make(keys.PublicKeys, n)
	for i := range out {
		p, err := keys.NewPrivateKey()
		require.NoError(t, err)
		out[i] = p.PublicKey()
	}
	return out
}

func TestSignatureContract(t *testing.T) {
	k := genKeys(t, 1)[0]
	s := scripts.SignatureContract(k)
	require.Len(t, s, 40)
	require.Equal(t, byte(0x0C), s[0])
	require.Equal(t, byte(33), s[1])
	require.Equal(t, k.Bytes(), s[2:35])
	require.Equal(t, byte(0x41), s[35])
	require.Equal(t, keys.CheckSigID, binary.LittleEndian.Uint32(s[36:]))
	require.True(t, scripts.IsSignatureContract(s))
	require.True(t, scripts.IsStandardContract(s))
	require.False(t, scripts.IsMultiSigContract(s))
	key, ok := scripts.ParseSignatureContract(s)
	require.True(t, ok)
	require.Equal(t, k.Bytes(), key)
	require.Equal(t, k.Address(), scripts.Address(s))
	require.Equal(t, k.ScriptHash(), scripts.ScriptHash(s))

	for _, i := range []int{0, 1, 35, 36} {
		bad := append([]byte{}, s...)
		bad[i] ^= 0xff
		require.False(t, scripts.IsSignatureContract(bad), "byte %d", i)
	}
	require.False(t, scripts.IsSignatureContract(append(s, 0x40)))
	// As in the reference, the key itself is not checked.
	junk := append([]byte{}, s...)
	copy(junk[2:35], make([]byte, 33))
	require.True(t, scripts.IsSignatureContract(junk))
}

func TestMultiSigPushForms(t *testing.T) {
	cases := []struct {
		m, n       int
		mOp, nOp   byte
		mLen, nLen int
	}{
		{1, 1, 0x11, 0x11, 1, 1},
		{3, 4, 0x13, 0x14, 1, 1},
		{16, 16, 0x20, 0x20, 1, 1},
		{12, 17, 0x1C, 0x00, 1, 2},   // n as PUSHINT8
		{17, 127, 0x00, 0x00, 2, 2},  // both PUSHINT8
		{100, 128, 0x00, 0x01, 2, 3}, // 128 needs PUSHINT16 (signed)
	}
	big := genKeys(t, 128)
	for _, c := range cases {
		pubs := big[:c.n]
		s, err := scripts.MultiSigContract(c.m, pubs)
		require.NoError(t, err)
		require.Equal(t, c.mOp, s[0], "m=%d", c.m)
		nPos := c.mLen + 35*c.n
		require.Equal(t, c.nOp, s[nPos], "n=%d", c.n)
		require.Len(t, s, nPos+c.nLen+5)
		m, n, ok := scripts.MultiSigCounts(s)
		require.True(t, ok)
		require.Equal(t, [2]int{c.m, c.n}, [2]int{m, n})
		m, got, ok := scripts.ParseMultiSigContract(s)
		require.True(t, ok)
		require.Equal(t, c.m, m)
		sorted := pubs.Copy()
		sorted.Sort()
		require.Equal(t, sorted.Strings(), got.Strings())
		require.Equal(t, pubs.Strings(), big[:c.n].Strings(), "input left unsorted")
	}
	s, err := scripts.MultiSigContract(1024, genKeys(t, 1024))
	require.NoError(t, err)
	m, n, ok := scripts.MultiSigCounts(s)
	require.True(t, ok)
	require.Equal(t, [2]int{1024, 1024}, [2]int{m, n})
}

func TestMultiSigParams(t *testing.T) {
	pubs := genKeys(t, 3)
	for _, m := range []int{0, -1, 4} {
		_, err := scripts.MultiSigContract(m, pubs)
		require.ErrorIs(t, err, scripts.ErrMultisigParams, "m=%d", m)
	}
	_, err := scripts.MultiSigContract(1, genKeys(t, 1025))
	require.ErrorIs(t, err, scripts.ErrMultisigParams)
	require.Equal(t, 3, scripts.BFTThreshold(4))
	require.Equal(t, 5, scripts.BFTThreshold(7))
	require.Equal(t, 1, scripts.BFTThreshold(1))
	require.Equal(t, 4, scripts.MajorityThreshold(6))
	require.Equal(t, 11, scripts.MajorityThreshold(21))
	d, err := scripts.DefaultMultiSigContract(pubs)
	require.NoError(t, err)
	m, _, _ := scripts.MultiSigCounts(d)
	require.Equal(t, 3, m)
	d, err = scripts.MajorityMultiSigContract(pubs)
	require.NoError(t, err)
	m, _, _ = scripts.MultiSigCounts(d)
	require.Equal(t, 2, m)
}

// TestMultiSigReferenceQuirks pins the reference's acceptance rules.
func TestMultiSigReferenceQuirks(t *testing.T) {
	pubs := genKeys(t, 3)
	good, err := scripts.MultiSigContract(2, pubs)
	require.NoError(t, err) // 12 | 3×(0C 21 key) | 13 | 41 id
	require.True(t, scripts.IsMultiSigContract(good))

	mutated := func(f func([]byte) []byte) []byte { return f(append([]byte{}, good...)) }
	// m written as PUSHINT8 2 (non-minimal) is accepted.
	nonMinimal := append([]byte{0x00, 2}, good[1:]...)
	m, n, ok := scripts.MultiSigCounts(nonMinimal)
	require.True(t, ok)
	require.Equal(t, [2]int{2, 3}, [2]int{m, n})
	// n as PUSHINT16 is accepted too.
	nPos := 1 + 3*35
	n16 := append(append(append([]byte{}, good[:nPos]...), 0x01, 3, 0), good[nPos+1:]...)
	require.True(t, scripts.IsMultiSigContract(n16))

	// An undecodable key: the count-only check passes, the parse fails.
	badKey := mutated(func(b []byte) []byte { b[3] = 0x05; return b })
	require.True(t, scripts.IsMultiSigContract(badKey))
	_, _, ok = scripts.ParseMultiSigContract(badKey)
	require.False(t, ok)

	rejects := map[string][]byte{
		"m = 0":          mutated(func(b []byte) []byte { b[0] = 0x10; return b }),
		"m > n":          mutated(func(b []byte) []byte { b[0] = 0x14; return b }),
		"n mismatch":     mutated(func(b []byte) []byte { b[nPos] = 0x12; return b }),
		"wrong syscall":  mutated(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }),
		"no syscall":     mutated(func(b []byte) []byte { b[nPos+1] = 0x40; return b }),
		"trailing byte":  mutated(func(b []byte) []byte { return append(b, 0x40) }),
		"truncated":      mutated(func(b []byte) []byte { return b[:len(b)-1] }),
		"key length 32":  mutated(func(b []byte) []byte { b[2] = 32; return b }),
		"m PUSHM1":       mutated(func(b []byte) []byte { b[0] = 0x0F; return b }),
		"too short":      good[:41],
		"PUSHINT8 m = 0": append([]byte{0x00, 0}, good[1:]...),
		"m = 2000":       append([]byte{0x01, 0xD0, 0x07}, good[1:]...),
		"empty":          {},
	}
	for name, s := range rejects {
		require.False(t, scripts.IsMultiSigContract(s), name)
		_, _, ok := scripts.ParseMultiSigContract(s)
		require.False(t, ok, name)
	}
}

func TestVerifyMultiSig(t *testing.T) {
	privs := make([]*keys.PrivateKey, 4)
	pubs := make(keys.PublicKeys, 4)
	for i := range privs {
		var err error
		privs[i], err = keys.NewPrivateKey()
		require.NoError(t, err)
		pubs[i] = privs[i].PublicKey()
	}
	var digest [32]byte
	digest[5] = 7
	sig := func(i int) []byte { return privs[i].SignHash(digest) }
	cases := []struct {
		sigs [][]byte
		want bool
	}{
		{[][]byte{sig(0), sig(1), sig(2)}, true},
		{[][]byte{sig(1), sig(3)}, true},
		{[][]byte{sig(0), sig(1), sig(2), sig(3)}, true},
		{[][]byte{sig(2), sig(1)}, false}, // out of key order
		{[][]byte{sig(1), sig(1)}, false}, // one key twice
		{[][]byte{sig(0), make([]byte, 64)}, false},
		{[][]byte{sig(3)}, true},
	}
	for i, c := range cases {
		ok, err := scripts.VerifyMultiSig(digest[:], pubs, c.sigs)
		require.NoError(t, err)
		require.Equal(t, c.want, ok, "case %d", i)
	}
	for _, bad := range [][][]byte{nil, {sig(0), sig(1), sig(2), sig(3), sig(0)}} {
		_, err := scripts.VerifyMultiSig(digest[:], pubs, bad)
		require.ErrorIs(t, err, scripts.ErrMultisigParams)
	}
	_, err := scripts.VerifyMultiSig(digest[:], nil, [][]byte{sig(0)})
	require.ErrorIs(t, err, scripts.ErrMultisigParams)
}
