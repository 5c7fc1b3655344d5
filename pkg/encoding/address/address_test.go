package address

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	// A signer account and sender address from the reference chain dumps.
	u, err := util.Uint160DecodeStringBE("0x3f223f6da778e805d1b9b479906c0e8c1ee8b968")
	require.NoError(t, err)
	require.Equal(t, "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq", Uint160ToString(u))
	back, err := StringToUint160("NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq")
	require.NoError(t, err)
	require.Equal(t, u, back)
}

func TestErrors(t *testing.T) {
	var u util.Uint160
	_, err := StringToUint160(EncodeWithVersion(u, 0x17)) // a Neo Legacy address
	require.ErrorIs(t, err, ErrBadAddress)
	_, err = StringToUint160("NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVr") // checksum off
	require.ErrorIs(t, err, ErrBadAddress)
	_, err = StringToUint160("0OIl")
	require.ErrorIs(t, err, ErrBadAddress)
	_, err = StringToUint160(base58.CheckEncode([]byte{NEO3Prefix, 1, 2}))
	require.ErrorIs(t, err, ErrBadAddress)
	_, err = base58.CheckDecode(base58.Encode([]byte{1, 2}))
	require.ErrorIs(t, err, base58.ErrTooShort)
}

func FuzzAddress(f *testing.F) {
	f.Add("NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := StringToUint160(s)
		if err != nil {
			return
		}
		back, err := StringToUint160(Uint160ToString(u))
		require.NoError(t, err)
		require.Equal(t, u, back)
	})
}
