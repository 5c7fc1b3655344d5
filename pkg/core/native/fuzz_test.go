package native

import (
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"github.com/stretchr/testify/require"
)

// FuzzStdOps checks the StdLib decoders never panic and round-trip with
// their encoders (the script checker is fuzzed in pkg/vm).
func FuzzStdOps(f *testing.F) {
	f.Add([]byte("3DUz7ncyT"), "ff")
	f.Add([]byte{0, 0, 1}, "-12")
	f.Fuzz(func(t *testing.T, data []byte, s string) {
		if b, err := base58Decode(string(data)); err == nil {
			require.Equal(t, string(data), base58.Encode(b))
		}
		_, _ = base58CheckDecode(s)
		_, _ = base64URLDecode(s)
		r, err := base58Decode(base58.Encode(data))
		require.NoError(t, err)
		require.Equal(t, len(data), len(r))
		n := new(big.Int).SetBytes(data)
		if len(data) > 0 && data[0]&1 == 1 {
			n.Neg(n)
		}
		for _, base := range []int64{10, 16} {
			str, err := itoa(n, base)
			require.NoError(t, err)
			back, err := atoi(str, base)
			require.NoError(t, err)
			require.Zero(t, n.Cmp(back), "base %d %s", base, str)
		}
		if m, err := atoi(s, 10); err == nil {
			require.Equal(t, m.String(), new(big.Int).Set(m).String())
		}
	})
}
