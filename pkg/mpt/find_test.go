package mpt

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// findModel is Find over the map model.
func findModel(model map[string][]byte, prefix, from []byte, max int) []KeyValue {
	lo := append(bytes.Clone(prefix), from...)
	var res []KeyValue
	for _, k := range slices.Sorted(maps.Keys(model)) {
		kb := []byte(k)
		if !bytes.HasPrefix(kb, prefix) || bytes.Compare(kb, lo) < 0 {
			continue
		}
		if from != nil && bytes.Equal(kb, lo) {
			continue
		}
		if len(res) == max {
			break
		}
		res = append(res, KeyValue{Key: kb, Value: model[k]})
	}
	return res
}

func TestFind(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	tr, _ := newTestTrie(t, ModeLatest)
	model := make(map[string][]byte)
	for range 400 {
		k, v := randomKey(r), randomValue(r)
		model[string(k)] = v
		require.NoError(t, tr.Put(k, v))
	}
	require.NoError(t, tr.Flush(1))
	tr.Collapse(1)
	for i := range 600 {
		var prefix, from []byte
		if r.IntN(4) != 0 {
			k := randomKey(r)
			prefix = k[:min(len(k), r.IntN(3))]
		}
		switch r.IntN(3) {
		case 0: // nil from
		case 1:
			from = []byte{}
		default:
			k := randomKey(r)
			from = k[:min(len(k), 1+r.IntN(2))]
		}
		max := 1 + r.IntN(50)
		got, err := tr.Find(prefix, from, max)
		require.NoError(t, err)
		want := findModel(model, prefix, from, max)
		if len(want) == 0 {
			require.Empty(t, got, "case %d", i)
			continue
		}
		require.Equal(t, want, got, "case %d: prefix %x from %x max %d", i, prefix, from, max)
	}
	res, err := tr.Find(nil, nil, 0)
	require.NoError(t, err)
	require.Empty(t, res)
	_, err = tr.Find(make([]byte, 60), make([]byte, 10), 1)
	require.ErrorIs(t, err, ErrBadKey)
}

func TestReadNode(t *testing.T) {
	for _, mode := range allModes {
		tr, s := newTestTrie(t, mode)
		s.missing = errTestNotFound
		require.NoError(t, tr.Put([]byte{1}, []byte{2}))
		require.NoError(t, tr.Flush(1))
		enc, err := ReadNode(testConfig(s, mode), tr.StateRoot())
		require.NoError(t, err)
		n, err := DecodeNode(enc)
		require.NoError(t, err)
		require.Equal(t, tr.StateRoot(), n.Hash())
		_, err = ReadNode(testConfig(s, mode), [32]byte{1})
		require.ErrorIs(t, err, ErrMissingNode)
	}
	_, err := ReadNode(Config{}, [32]byte{1})
	require.ErrorIs(t, err, ErrBadConfig)
}
