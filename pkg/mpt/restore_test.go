package mpt

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// restoreSource builds a trie in one flush, with repeated subtrees (the
// branches under 0x5? and 0x6? are identical; random keys never start with
// those nibbles) and shared leaves.
func restoreSource(t *testing.T, mode Mode) (*mapStore, util.Uint256, map[string][]byte) {
	tr, s := newTestTrie(t, mode)
	s.missing = errTestNotFound
	model := map[string][]byte{
		"\x50": {0xa}, "\x51": {0xb}, "\x60": {0xa}, "\x61": {0xb},
		"\x70\x01": {0xa}, "\x70": {},
	}
	r := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		model[string(randomKey(r))] = randomValue(r)
	}
	b, err := NewBatch(model)
	require.NoError(t, err)
	require.NoError(t, tr.PutBatch(b))
	require.NoError(t, tr.Flush(1))
	return s, tr.StateRoot(), model
}

// fetch returns the encoding of node h from a source store, as a peer would.
func fetch(t *testing.T, s *mapStore, mode Mode, h util.Uint256) []byte {
	cfg := testConfig(s, mode)
	rec, ok, err := cfg.getStored(h, true)
	require.NoError(t, err)
	require.True(t, ok, "source lacks %s", h)
	return append([]byte{}, rec.enc...)
}

// leafSink collects the leaves a restorer reports; it fails on a key
// reported twice.
type leafSink map[string][]byte

func (l leafSink) add(t *testing.T) func(k, v []byte) error {
	return func(k, v []byte) error {
		_, dup := l[string(k)]
		require.False(t, dup, "leaf %x reported twice", k)
		l[string(k)] = append([]byte{}, v...)
		return nil
	}
}

// feed gives the restorer the nodes it asks for, at most steps rounds of
// up to 5 hashes (all rounds if steps < 0), and some duplicates.
func feed(t *testing.T, r *Restorer, src *mapStore, mode Mode, steps int) {
	for i := 0; !r.Done() && i != steps; i++ {
		for _, h := range r.Missing(5) {
			data := fetch(t, src, mode, h)
			ok, err := r.AddNode(data)
			require.NoError(t, err)
			require.True(t, ok)
			ok, err = r.AddNode(data) // sent twice by peers
			require.NoError(t, err)
			require.False(t, ok)
		}
	}
}

func TestRestore(t *testing.T) {
	for _, mode := range allModes {
		src, root, model := restoreSource(t, mode)
		dst := newMapStore()
		dst.missing = errTestNotFound
		leaves := leafSink{}
		r, err := NewRestorer(root, testConfig(dst, mode), leaves.add(t))
		require.NoError(t, err)
		require.Equal(t, []util.Uint256{root}, r.Missing(10))
		feed(t, r, src, mode, -1)
		require.True(t, r.Done())
		require.Zero(t, r.Pending())
		require.Equal(t, model, map[string][]byte(leaves), mode.String())
		// Byte for byte the store Flush wrote, reference counts included.
		require.Equal(t, src.m, dst.m, mode.String())
		if mode.refCounted() {
			repeated := 0
			for _, v := range dst.m {
				if v[len(v)-4] >= 2 {
					repeated++
				}
			}
			require.GreaterOrEqual(t, repeated, 3, "the repeated branch and leaves")
		}
		tr, err := New(root, testConfig(dst, mode))
		require.NoError(t, err)
		for k, v := range model {
			got, err := tr.Get([]byte(k))
			require.NoError(t, err)
			require.Equal(t, v, got)
		}
	}
}

func TestRestoreResume(t *testing.T) {
	for _, mode := range allModes {
		src, root, model := restoreSource(t, mode)
		dst := newMapStore()
		dst.missing = errTestNotFound
		leaves := leafSink{}
		r, err := NewRestorer(root, testConfig(dst, mode), leaves.add(t))
		require.NoError(t, err)
		feed(t, r, src, mode, 6)
		require.False(t, r.Done())
		// The process stops; a new restorer finds the frontier in the store.
		pending := r.Pending()
		r2, err := NewRestorer(root, testConfig(dst.clone(), mode), leaves.add(t))
		require.NoError(t, err)
		require.Equal(t, pending, r2.Pending())
		require.ElementsMatch(t, r.Missing(pending), r2.Missing(pending))
		feed(t, r2, src, mode, -1)
		require.True(t, r2.Done())
		require.Equal(t, model, map[string][]byte(leaves))
		// A restorer over a complete store has nothing to do.
		r3, err := NewRestorer(root, testConfig(src, mode), nil)
		require.NoError(t, err)
		require.True(t, r3.Done())
	}
}

func TestRestoreRejects(t *testing.T) {
	cfg := testConfig(newMapStore(), ModeLatest)
	_, err := NewRestorer(util.Uint256{}, cfg, nil)
	require.ErrorIs(t, err, ErrBadConfig)
	_, err = NewRestorer(util.Uint256{1}, Config{}, nil)
	require.ErrorIs(t, err, ErrBadConfig)

	// A node whose hash is awaited but that does not decode.
	garbage := []byte{0x42, 1, 2, 3}
	r, err := NewRestorer(hash.DoubleSha256(garbage), cfg, nil)
	require.NoError(t, err)
	_, err = r.AddNode(garbage)
	require.ErrorIs(t, err, ErrRestore)
	require.Equal(t, 1, r.Pending())

	// A leaf at an odd path is not a key.
	leaf := &LeafNode{value: []byte{1}}
	ext := &ExtensionNode{key: []byte{1}, next: NewHashNode(leaf.Hash())}
	r, err = NewRestorer(ext.Hash(), testConfig(newMapStore(), ModeAll), func(k, v []byte) error { return nil })
	require.NoError(t, err)
	ok, err := r.AddNode(ext.Bytes())
	require.NoError(t, err)
	require.True(t, ok)
	_, err = r.AddNode(leaf.Bytes())
	require.ErrorIs(t, err, ErrRestore)

	// Paths longer than any key.
	long := make([]byte, maxPathLength)
	inner := &ExtensionNode{key: long, next: NewHashNode(leaf.Hash())}
	outer := &ExtensionNode{key: []byte{0}, next: NewHashNode(inner.Hash())}
	r, err = NewRestorer(outer.Hash(), testConfig(newMapStore(), ModeAll), nil)
	require.NoError(t, err)
	_, err = r.AddNode(outer.Bytes())
	require.NoError(t, err)
	_, err = r.AddNode(inner.Bytes())
	require.ErrorIs(t, err, ErrRestore)
}

var errLeafRejected = errors.New("test: leaf rejected")

func TestRestoreLeafCallbackError(t *testing.T) {
	src, root, _ := restoreSource(t, ModeAll)
	r, err := NewRestorer(root, testConfig(newMapStore(), ModeAll), func(k, v []byte) error {
		return errLeafRejected
	})
	require.NoError(t, err)
	var lastErr error
	for !r.Done() && lastErr == nil {
		for _, h := range r.Missing(50) {
			if _, lastErr = r.AddNode(fetch(t, src, ModeAll, h)); lastErr != nil {
				break
			}
		}
	}
	require.ErrorIs(t, lastErr, errLeafRejected)
}
