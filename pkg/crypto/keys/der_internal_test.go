package keys

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"
)

// TestASN1Signature checks the DER writer against cryptobyte's ASN.1
// builder for edge-shaped r and s values.
func TestASN1Signature(t *testing.T) {
	vals := [][]byte{
		make([]byte, 32), // zero
		append(make([]byte, 31), 1),
		append([]byte{0x80}, make([]byte, 31)...),
		bytes.Repeat([]byte{0xff}, 32),
		append([]byte{0, 0x7f}, bytes.Repeat([]byte{0xff}, 30)...),
		append([]byte{0, 0x80}, make([]byte, 30)...),
	}
	for _, r := range vals {
		for _, s := range vals {
			var b cryptobyte.Builder
			b.AddASN1(asn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1BigInt(new(big.Int).SetBytes(r))
				b.AddASN1BigInt(new(big.Int).SetBytes(s))
			})
			want, err := b.Bytes()
			require.NoError(t, err)
			var buf [maxDERLen]byte
			require.Equal(t, want, asn1Signature(&buf, append(append([]byte{}, r...), s...)), "%x %x", r, s)
		}
	}
}
