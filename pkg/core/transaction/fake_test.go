package transaction

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFakeFromJSONRoundTrip: the verbose form of a transaction decodes to
// the same transaction, hash and size; a given hash and size are kept
// whatever the contents, and absent they are the zero hash and the
// computed size.
func TestFakeFromJSONRoundTrip(t *testing.T) {
	tx := fullTx(t)
	data, err := json.Marshal(tx)
	require.NoError(t, err)
	got, err := NewFakeFromJSON(data)
	require.NoError(t, err)
	require.Equal(t, tx.Hash(), got.Hash())
	require.Equal(t, tx.Size(), got.Size())
	b1, err := tx.Bytes()
	require.NoError(t, err)
	b2, err := got.Bytes()
	require.NoError(t, err)
	require.Equal(t, b1, b2)

	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	m["hash"], m["size"] = "0x"+u256(5).StringBE(), 7
	data, err = json.Marshal(m)
	require.NoError(t, err)
	got, err = NewFakeFromJSON(data)
	require.NoError(t, err)
	require.Equal(t, u256(5), got.Hash())
	require.Equal(t, 7, got.Size())

	delete(m, "hash")
	delete(m, "size")
	data, err = json.Marshal(m)
	require.NoError(t, err)
	got, err = NewFakeFromJSON(data)
	require.NoError(t, err)
	require.True(t, got.Hash().IsZero())
	require.Equal(t, tx.Size(), got.Size())

	badHex := `{"hash":"0xzz` + strings.Repeat("0", 62) + `"}`
	for _, bad := range []string{`"abc"`, `{"hash":"0x12"}`, badHex, `{"script":1}`, `{"sysfee":1}`} {
		_, err := NewFakeFromJSON([]byte(bad))
		require.Error(t, err, bad)
	}
}

func FuzzFakeFromJSON(f *testing.F) {
	tx := fullTx(f)
	data, err := json.Marshal(tx)
	require.NoError(f, err)
	f.Add(data)
	f.Add([]byte(`{"script":"EQ==","hash":"0x0000000000000000000000000000000000000000000000000000000000000001"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := NewFakeFromJSON(data)
		if err != nil {
			return
		}
		_ = got.Hash()
		_ = got.Size()
	})
}
