package mpt

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// naiveRoot computes the root of the canonical trie of m from scratch, with
// plain byte slices and none of the trie code: the differential reference.
func naiveRoot(m map[string][]byte) util.Uint256 {
	if len(m) == 0 {
		return util.Uint256{}
	}
	var kvs []naiveKV
	for k, v := range m {
		kvs = append(kvs, naiveKV{toNibbles(nil, []byte(k)), v})
	}
	slices.SortFunc(kvs, func(a, b naiveKV) int { return bytes.Compare(a.path, b.path) })
	return hash.DoubleSha256(naiveEncode(kvs))
}

type naiveKV struct{ path, value []byte }

// naiveEncode returns the encoding of the subtree holding kvs (sorted,
// distinct, at least one).
func naiveEncode(kvs []naiveKV) []byte {
	if len(kvs) == 1 && len(kvs[0].path) == 0 {
		enc := appendVarUint([]byte{byte(LeafT)}, uint64(len(kvs[0].value)))
		return append(enc, kvs[0].value...)
	}
	p := len(kvs[0].path)
	for _, e := range kvs[1:] {
		p = min(p, commonPrefix(kvs[0].path, e.path))
	}
	if p > 0 {
		rest := make([]naiveKV, len(kvs))
		for i, e := range kvs {
			rest[i] = naiveKV{e.path[p:], e.value}
		}
		enc := append([]byte{byte(ExtensionT), byte(p)}, kvs[0].path[:p]...)
		return append(enc, naiveRef(naiveEncode(rest))...)
	}
	var slots [17][]naiveKV
	for _, e := range kvs {
		if len(e.path) == 0 {
			slots[16] = append(slots[16], e)
		} else {
			slots[e.path[0]] = append(slots[e.path[0]], naiveKV{e.path[1:], e.value})
		}
	}
	enc := []byte{byte(BranchT)}
	for _, s := range slots {
		if len(s) == 0 {
			enc = append(enc, byte(EmptyT))
		} else {
			enc = append(enc, naiveRef(naiveEncode(s))...)
		}
	}
	return enc
}

func naiveRef(enc []byte) []byte {
	h := hash.DoubleSha256(enc)
	return append([]byte{byte(HashT)}, h[:]...)
}

func TestNaiveRootSanity(t *testing.T) {
	// One key: an extension over the key's nibbles to a leaf.
	leaf := []byte{byte(LeafT), 1, 0xaa}
	lh := hash.DoubleSha256(leaf)
	ext := append([]byte{byte(ExtensionT), 2, 0x1, 0x2, byte(HashT)}, lh[:]...)
	require.Equal(t, hash.DoubleSha256(ext), naiveRoot(map[string][]byte{"\x12": {0xaa}}))
	tr, _ := newTestTrie(t, ModeAll)
	require.NoError(t, tr.Put([]byte{0x12}, []byte{0xaa}))
	require.Equal(t, hash.DoubleSha256(ext), tr.StateRoot())
}

// randomKey draws keys from a small alphabet so that they share prefixes.
func randomKey(r *rand.Rand) []byte {
	alphabet := []byte{0x00, 0x01, 0x10, 0x11, 0x1f, 0xf0, 0xff}
	k := make([]byte, 1+r.IntN(5))
	for i := range k {
		k[i] = alphabet[r.IntN(len(alphabet))]
	}
	return k
}

func randomValue(r *rand.Rand) []byte {
	switch r.IntN(4) {
	case 0:
		return []byte{} // empty values are legal
	case 1:
		return []byte{byte(r.IntN(3))} // equal values share leaf nodes
	default:
		v := make([]byte, r.IntN(40))
		for i := range v {
			v[i] = byte(r.Uint32())
		}
		return v
	}
}

type op struct {
	key, value []byte // value nil: delete
}

func randomOps(r *rand.Rand, model map[string][]byte, n int) []op {
	ops := make([]op, n)
	keys := slices.Sorted(maps.Keys(model))
	for i := range ops {
		switch {
		case len(keys) > 0 && r.IntN(3) == 0:
			ops[i] = op{key: []byte(keys[r.IntN(len(keys))])}
		case r.IntN(6) == 0:
			ops[i] = op{key: randomKey(r)} // probably missing
		case len(keys) > 0 && r.IntN(4) == 0:
			k := keys[r.IntN(len(keys))]
			ops[i] = op{key: []byte(k), value: bytes.Clone(model[k])} // same value
		default:
			ops[i] = op{key: randomKey(r), value: randomValue(r)}
		}
	}
	return ops
}

// TestTrieDifferential runs random rounds of changes through single
// Put/Delete calls and through batches, in every mode, and compares both
// tries with the naive root and the map model after each flushed round.
func TestTrieDifferential(t *testing.T) {
	for _, mode := range allModes {
		t.Run(mode.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(mode)))
			single, ss := newTestTrie(t, mode)
			batched, bs := newTestTrie(t, mode)
			model := make(map[string][]byte)
			for round := range 150 {
				ops := randomOps(r, model, 1+r.IntN(30))
				var b Batch
				for _, o := range ops {
					if o.value == nil {
						require.NoError(t, single.Delete(o.key))
						require.NoError(t, b.Delete(o.key))
						delete(model, string(o.key))
					} else {
						require.NoError(t, single.Put(o.key, o.value))
						require.NoError(t, b.Put(o.key, o.value))
						model[string(o.key)] = o.value
					}
				}
				require.NoError(t, batched.PutBatch(&b))
				want := naiveRoot(model)
				if round%3 == 0 { // hash before flushing, too
					require.Equal(t, want, batched.StateRoot(), "round %d", round)
				}
				require.NoError(t, single.Flush(uint32(round)))
				require.NoError(t, batched.Flush(uint32(round)))
				require.Equal(t, want, single.StateRoot(), "round %d", round)
				require.Equal(t, want, batched.StateRoot(), "round %d", round)
				for k, v := range model {
					got, err := batched.Get([]byte(k))
					require.NoError(t, err)
					require.Equal(t, v, got)
				}
				for _, o := range ops {
					if _, ok := model[string(o.key)]; !ok {
						_, err := single.Get(o.key)
						require.ErrorIs(t, err, ErrNotFound)
					}
				}
				if mode.refCounted() {
					checkRefCounts(t, ss, want, mode)
					checkRefCounts(t, bs, want, mode)
				}
				if r.IntN(4) == 0 {
					batched.Collapse(r.IntN(4))
				}
			}
		})
	}
}

func TestBatchSemantics(t *testing.T) {
	var b Batch
	require.NoError(t, b.Put([]byte{1}, []byte{1}))
	require.NoError(t, b.Delete([]byte{1}))
	require.NoError(t, b.Put([]byte{2}, []byte{1}))
	require.NoError(t, b.Put([]byte{2}, []byte{2}))
	require.NoError(t, b.Put([]byte{3}, nil)) // nil value: stored empty
	require.Equal(t, 5, b.Len())
	tr, _ := newTestTrie(t, ModeAll)
	require.NoError(t, tr.PutBatch(&b))
	_, err := tr.Get([]byte{1})
	require.ErrorIs(t, err, ErrNotFound, "the last change of a key wins")
	v, err := tr.Get([]byte{2})
	require.NoError(t, err)
	require.Equal(t, []byte{2}, v)
	v, err = tr.Get([]byte{3})
	require.NoError(t, err)
	require.Equal(t, []byte{}, v)
	require.Equal(t, naiveRoot(map[string][]byte{"\x02": {2}, "\x03": {}}), tr.StateRoot())

	require.ErrorIs(t, b.Put(nil, []byte{1}), ErrBadKey)
	require.ErrorIs(t, b.Put(make([]byte, MaxKeyLength+1), []byte{1}), ErrBadKey)
	require.ErrorIs(t, b.Put([]byte{1}, make([]byte, MaxValueLength+1)), ErrBadValue)
	require.NoError(t, b.Put(make([]byte, MaxKeyLength), make([]byte, MaxValueLength)))
	_, err = tr.Get(nil)
	require.ErrorIs(t, err, ErrBadKey)

	m := map[string][]byte{"\x01\x02": {1}, "\x01": {2}, "\x01\x03": nil}
	nb, err := NewBatch(m)
	require.NoError(t, err)
	tr2, _ := newTestTrie(t, ModeLatest)
	require.NoError(t, tr2.PutBatch(nb))
	delete(m, "\x01\x03")
	require.Equal(t, naiveRoot(m), tr2.StateRoot())
	_, err = NewBatch(map[string][]byte{"": {1}})
	require.ErrorIs(t, err, ErrBadKey)
}

func TestTrieUnchangedValueKeepsNodes(t *testing.T) {
	tr, s := newTestTrie(t, ModeLatest)
	require.NoError(t, tr.Put([]byte{1, 2}, []byte{1}))
	require.NoError(t, tr.Put([]byte{1, 3}, []byte{2}))
	require.NoError(t, tr.Flush(1))
	puts := s.puts
	require.NoError(t, tr.Put([]byte{1, 2}, []byte{1}))
	require.NoError(t, tr.Delete([]byte{9, 9}))
	require.NoError(t, tr.Flush(2))
	require.Equal(t, puts, s.puts, "rewriting a value or deleting a missing key writes nothing")
}

func TestTrieStoreErrors(t *testing.T) {
	for _, mode := range allModes {
		tr, s := newTestTrie(t, mode)
		s.missing = errTestNotFound
		for i := range 50 {
			require.NoError(t, tr.Put([]byte{byte(i), byte(i * 7)}, []byte{byte(i)}))
		}
		root := tr.StateRoot()
		require.NoError(t, tr.Flush(1))

		// A node missing from the store.
		empty := newMapStore()
		empty.missing = errTestNotFound
		tr2, err := New(root, testConfig(empty, mode))
		require.NoError(t, err)
		_, err = tr2.Get([]byte{1, 7})
		require.ErrorIs(t, err, ErrMissingNode)
		require.ErrorIs(t, tr2.Put([]byte{1, 7}, []byte{1}), ErrMissingNode)
		_, err = tr2.GetProof([]byte{1, 7})
		require.ErrorIs(t, err, ErrMissingNode)

		// A store failure other than "not found" is passed on as is.
		boom := errors.New("disk on fire")
		failing := newMapStore()
		failing.missing = boom
		tr3, err := New(root, testConfig(failing, mode))
		require.NoError(t, err)
		_, err = tr3.Get([]byte{1, 7})
		require.ErrorIs(t, err, boom)
		require.NotErrorIs(t, err, ErrMissingNode)

		// A failing Put surfaces from Flush.
		s.missing = errTestNotFound
		s.failPut = boom
		require.NoError(t, tr.Put([]byte{77}, []byte{1}))
		require.ErrorIs(t, tr.Flush(2), boom)
	}
}

func TestNewValidates(t *testing.T) {
	_, err := New(util.Uint256{}, Config{})
	require.ErrorIs(t, err, ErrBadConfig)
	_, err = New(util.Uint256{}, Config{Store: newMapStore(), Mode: 2})
	require.ErrorIs(t, err, ErrBadConfig)
	tr, _ := newTestTrie(t, ModeAll)
	require.True(t, tr.StateRoot().IsZero())
	require.NoError(t, tr.Flush(0))
}

// FuzzTrieOps decodes the input as rounds of changes over a tiny key space
// and checks the batched trie, the single-op trie and the naive root agree.
// Input: per change two bytes, key selector and value selector; a value
// selector of 0 deletes, 0xff ends the round (flush).
func FuzzTrieOps(f *testing.F) {
	f.Add([]byte{1, 1, 2, 2, 3, 0, 0, 0xff, 1, 0, 9, 7})
	f.Add([]byte{0x10, 1, 0x11, 1, 0xff, 0xff, 0x10, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		single, _ := newTestTrie(t, ModeLatest)
		batched, bs := newTestTrie(t, ModeLatest)
		model := make(map[string][]byte)
		var b Batch
		flush := func(round uint32) {
			require.NoError(t, batched.PutBatch(&b))
			b = Batch{}
			require.NoError(t, single.Flush(round))
			require.NoError(t, batched.Flush(round))
			want := naiveRoot(model)
			require.Equal(t, want, single.StateRoot())
			require.Equal(t, want, batched.StateRoot())
			checkRefCounts(t, bs, want, ModeLatest)
		}
		round := uint32(0)
		for i := 0; i+1 < len(data); i += 2 {
			ks, vs := data[i], data[i+1]
			if vs == 0xff {
				flush(round)
				round++
				continue
			}
			// Keys of 1..3 bytes from a 4-symbol alphabet share prefixes.
			key := make([]byte, 1+int(ks>>6)%3)
			for j := range key {
				key[j] = []byte{0x00, 0x01, 0x10, 0xff}[(ks>>(2*j))&3]
			}
			if vs == 0 {
				delete(model, string(key))
				require.NoError(t, single.Delete(key))
				require.NoError(t, b.Delete(key))
				continue
			}
			v := []byte{vs % 4} // few values: leaves repeat
			model[string(key)] = v
			require.NoError(t, single.Put(key, v))
			require.NoError(t, b.Put(key, v))
		}
		flush(round)
	})
}
