package block_test

import (
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/stretchr/testify/require"
)

// TestFakeHeaderFromJSON: a header's verbose form decodes to the same
// header; a changed field without its hash, a bad nonce, a witness count
// other than one and a non-object are refused with neo-go's words.
func TestFakeHeaderFromJSON(t *testing.T) {
	b := newBlock(2)
	b.Header.Nonce, b.Header.Index = 0xabcdef, 9
	b.Header.InvalidateCache()
	data, err := json.Marshal(&b.Header)
	require.NoError(t, err)
	h, err := block.NewFakeHeaderFromJSON(data)
	require.NoError(t, err)
	require.Equal(t, b.Header.Hash(), h.Hash())
	require.Equal(t, b.Header.Nonce, h.Nonce)
	require.Equal(t, b.Header.Index, h.Index)

	edit := func(f func(m map[string]any)) error {
		var m map[string]any
		require.NoError(t, json.Unmarshal(data, &m))
		f(m)
		raw, err := json.Marshal(m)
		require.NoError(t, err)
		_, err = block.NewFakeHeaderFromJSON(raw)
		return err
	}
	require.EqualError(t, edit(func(m map[string]any) { m["time"] = 1 }), "json 'hash' doesn't match block hash")
	require.EqualError(t, edit(func(m map[string]any) { m["witnesses"] = []any{} }), "wrong number of witnesses")
	require.EqualError(t, edit(func(m map[string]any) { m["nonce"] = "zz" }), `strconv.ParseUint: parsing "zz": invalid syntax`)
	_, err = block.NewFakeHeaderFromJSON([]byte(`"abc"`))
	require.EqualError(t, err, "json: cannot unmarshal string into Go value of type block.baseAux")
}

func FuzzFakeHeaderFromJSON(f *testing.F) {
	b := newBlock(1)
	data, err := json.Marshal(&b.Header)
	require.NoError(f, err)
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := block.NewFakeHeaderFromJSON(data)
		if err != nil {
			return
		}
		// What decodes is a header whose hash is the one it gave.
		out, err := json.Marshal(h)
		require.NoError(t, err)
		h2, err := block.NewFakeHeaderFromJSON(out)
		require.NoError(t, err)
		require.Equal(t, h.Hash(), h2.Hash())
	})
}
