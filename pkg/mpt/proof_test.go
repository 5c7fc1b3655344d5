package mpt

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// proofTrie returns a flushed trie of random keys and the key set.
func proofTrie(t *testing.T, mode Mode) (*Trie, map[string][]byte) {
	r := rand.New(rand.NewPCG(7, 7))
	tr, _ := newTestTrie(t, mode)
	model := make(map[string][]byte)
	for range 300 {
		k, v := randomKey(r), randomValue(r)
		model[string(k)] = v
		require.NoError(t, tr.Put(k, v))
	}
	require.NoError(t, tr.Flush(1))
	return tr, model
}

func TestProofs(t *testing.T) {
	tr, model := proofTrie(t, ModeLatest)
	root := tr.StateRoot()
	tr.Collapse(0) // proofs read their nodes back from the store
	for k, v := range model {
		proof, err := tr.GetProof([]byte(k))
		require.NoError(t, err)
		got, err := VerifyProof(root, []byte(k), proof)
		require.NoError(t, err, "key %x", k)
		require.Equal(t, v, got)
		// The last node is the leaf, the first is the root.
		require.Equal(t, byte(LeafT), proof[len(proof)-1][0])
		d, err := DecodeNode(proof[0])
		require.NoError(t, err)
		require.Equal(t, root, d.Hash())
	}
}

func TestProofOfUnflushedTrie(t *testing.T) {
	tr, _ := newTestTrie(t, ModeAll)
	require.NoError(t, tr.Put([]byte{1, 2}, []byte{3}))
	require.NoError(t, tr.Put([]byte{1, 3}, []byte{4}))
	proof, err := tr.GetProof([]byte{1, 3})
	require.NoError(t, err)
	v, err := VerifyProof(tr.StateRoot(), []byte{1, 3}, proof)
	require.NoError(t, err)
	require.Equal(t, []byte{4}, v)
}

func TestProofsInvalid(t *testing.T) {
	tr, model := proofTrie(t, ModeAll)
	root := tr.StateRoot()
	var key []byte
	var proof [][]byte
	for k := range model { // a key with a proof of at least 3 nodes
		p, err := tr.GetProof([]byte(k))
		require.NoError(t, err)
		if len(p) >= 3 {
			key, proof = []byte(k), p
			break
		}
	}
	require.NotNil(t, key)

	// Missing or absent key: GetProof says so.
	_, err := tr.GetProof([]byte{0xee, 0xee, 0xee})
	require.ErrorIs(t, err, ErrNotFound)
	_, err = tr.GetProof(nil)
	require.ErrorIs(t, err, ErrBadKey)

	// Wrong root.
	_, err = VerifyProof(util.Uint256{1}, key, proof)
	require.ErrorIs(t, err, ErrInvalidProof)
	// A node dropped from the middle.
	cut := append(append([][]byte{}, proof[:1]...), proof[2:]...)
	_, err = VerifyProof(root, key, cut)
	require.ErrorIs(t, err, ErrInvalidProof)
	// Empty proof.
	_, err = VerifyProof(root, key, nil)
	require.ErrorIs(t, err, ErrInvalidProof)
	// One flipped byte in any node breaks the hash chain.
	for i := range proof {
		bad := make([][]byte, len(proof))
		copy(bad, proof)
		bad[i] = bytes.Clone(proof[i])
		bad[i][len(bad[i])-1] ^= 1
		_, err = VerifyProof(root, key, bad)
		require.ErrorIs(t, err, ErrInvalidProof, "node %d", i)
	}
	// The proof of one key does not prove another key's value.
	for k := range model {
		if k == string(key) {
			continue
		}
		v, err := VerifyProof(root, []byte(k), proof)
		if err == nil {
			require.Equal(t, model[k], v) // only if the paths share every node
		}
	}
}

func TestProofOfAbsence(t *testing.T) {
	// {12: a, 13: b} is extension [1] → branch with slots 2 and 3.
	tr, _ := newTestTrie(t, ModeAll)
	require.NoError(t, tr.Put([]byte{0x12}, []byte{0xa}))
	require.NoError(t, tr.Put([]byte{0x13}, []byte{0xb}))
	root := tr.StateRoot()
	proof, err := tr.GetProof([]byte{0x13})
	require.NoError(t, err)
	require.Len(t, proof, 3)
	_, err = tr.GetProof([]byte{0x14})
	require.ErrorIs(t, err, ErrNotFound)
	// The extension and the branch prove slot 4 empty.
	_, err = VerifyProof(root, []byte{0x14}, proof[:2])
	require.ErrorIs(t, err, ErrNotFound)
	// Off the extension's path.
	_, err = VerifyProof(root, []byte{0x24}, proof[:1])
	require.ErrorIs(t, err, ErrNotFound)
	// Past the leaf.
	_, err = VerifyProof(root, []byte{0x13, 0x00}, proof)
	require.ErrorIs(t, err, ErrNotFound)
	// Without the branch nothing is proven.
	_, err = VerifyProof(root, []byte{0x14}, proof[:1])
	require.ErrorIs(t, err, ErrInvalidProof)
}

func TestVerifyProofRejectsLongKey(t *testing.T) {
	_, err := VerifyProof(util.Uint256{}, make([]byte, MaxKeyLength+1), nil)
	require.ErrorIs(t, err, ErrBadKey)
}
