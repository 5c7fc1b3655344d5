package chain

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// restoredChain is reference chain name restored into an in-memory chain.
func restoredChain(t *testing.T, name string) *Chain {
	t.Helper()
	c := openMemChain(t, loadProtocol(t, name))
	acc, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", name), name+".acc"))
	require.NoError(t, err)
	_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
	require.NoError(t, err)
	return c
}

type storeKV struct{ k, v []byte }

func seekAll(t *testing.T, st storage.Store, rng storage.SeekRange) []storeKV {
	var out []storeKV
	require.NoError(t, st.Seek(rng, func(k, v []byte) bool {
		out = append(out, storeKV{bytes.Clone(k), bytes.Clone(v)})
		return true
	}))
	return out
}

// TestHistoricStoreSeek checks the trie-backed store of the current state
// against the chain's store: the same items for every contract, prefix,
// start and direction, and the same Get answers.
func TestHistoricStoreSeek(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) { checkHistoricStore(t, restoredChain(t, name)) })
	}
}

func checkHistoricStore(t *testing.T, c *Chain) {
	v, err := c.ViewAt(c.BlockHeight())
	require.NoError(t, err)
	hs, base := v.d.Store(), c.rec
	ids := map[int32]bool{}
	require.NoError(t, base.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(k, _ []byte) bool {
		ids[int32(binary.LittleEndian.Uint32(k[1:5]))] = true
		return true
	}))
	require.Greater(t, len(ids), 5)
	var checked int
	for id := range ids {
		p := binary.LittleEndian.AppendUint32(storage.STStorage.Bytes(), uint32(id))
		all := seekAll(t, base, storage.SeekRange{Prefix: p})
		last := all[len(all)-1].k[5:] // the greatest key: empty only if it is the only one
		if len(last) == 0 {
			continue
		}
		mid := all[len(all)/2].k[5:]
		for _, rng := range []storage.SeekRange{
			{Prefix: p}, {Prefix: p, Backwards: true},
			{Prefix: append(p, last[0])}, {Prefix: append(p, last[0]), Backwards: true},
			{Prefix: p, Start: mid}, {Prefix: p, Start: mid, Backwards: true},
			{Prefix: p, Start: []byte{0xff, 0xff}}, {Prefix: p, Start: []byte{0x00}, Backwards: true},
		} {
			require.Equal(t, seekAll(t, base, rng), seekAll(t, hs, rng), "id %d %+v", id, rng)
			checked++
		}
		for _, kv := range all {
			v, err := hs.Get(kv.k)
			require.NoError(t, err)
			require.Equal(t, kv.v, v)
		}
		_, err := hs.Get(append(p, 0xff, 0xfe, 0xfd))
		require.ErrorIs(t, err, storage.ErrKeyNotFound)
	}
	require.Positive(t, checked)
	// Outside contract storage: the chain's records; a range over all
	// contracts is refused; writes are refused.
	cur, err := hs.Get(storage.SYSCurrentBlock.Bytes())
	require.NoError(t, err)
	want, err := base.Get(storage.SYSCurrentBlock.Bytes())
	require.NoError(t, err)
	require.Equal(t, want, cur)
	require.ErrorIs(t, hs.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(_, _ []byte) bool { return true }), errHistoricRange)
	require.ErrorIs(t, hs.Seek(storage.SeekRange{}, func(_, _ []byte) bool { return true }), errHistoricRange)
	require.Error(t, hs.Put([]byte{1}, nil))
	require.Error(t, hs.Delete([]byte{1}))
	require.Error(t, hs.PutChangeSet(nil, nil))
}
