package consensus

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/io"
)

func encode(t testing.TB, v io.Encodable) []byte {
	w := io.NewBufBinWriter()
	v.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	return w.Bytes()
}

func decode(t testing.TB, b []byte, v io.Decodable) {
	r := io.NewBinReaderFromBuf(b)
	v.DecodeBinary(r)
	require.NoError(t, r.Err)
	require.Zero(t, r.Len(), "trailing bytes")
}
