package mpt

import (
	"errors"
	"maps"
	"testing"

	"github.com/stretchr/testify/require"
)

// mapStore is an in-memory Store that copies what it is given and returns
// copies, so the tests catch any aliasing of store slices.
type mapStore struct {
	m       map[string][]byte
	missing error // returned by Get for a missing key (nil: (nil, nil))
	failPut error // returned by every Put when set
	gets    int
	puts    int
}

var errTestNotFound = errors.New("test: key not found")

func newMapStore() *mapStore { return &mapStore{m: make(map[string][]byte)} }

func (s *mapStore) Get(key []byte) ([]byte, error) {
	s.gets++
	v, ok := s.m[string(key)]
	if !ok {
		return nil, s.missing
	}
	return append([]byte(nil), v...), nil
}

func (s *mapStore) Put(key, value []byte) error {
	if s.failPut != nil {
		return s.failPut
	}
	s.puts++
	s.m[string(key)] = append([]byte(nil), value...)
	return nil
}

func (s *mapStore) Delete(key []byte) error {
	delete(s.m, string(key))
	return nil
}

func (s *mapStore) clone() *mapStore {
	c := newMapStore()
	c.m = maps.Clone(s.m)
	c.missing = s.missing
	return c
}

const testPrefix = 0x03

func testConfig(s *mapStore, mode Mode) Config {
	return Config{
		Store:      s,
		Prefix:     testPrefix,
		Mode:       mode,
		IsNotFound: func(err error) bool { return errors.Is(err, errTestNotFound) },
	}
}

func newTestTrie(t testing.TB, mode Mode) (*Trie, *mapStore) {
	s := newMapStore()
	tr, err := New([32]byte{}, testConfig(s, mode))
	require.NoError(t, err)
	return tr, s
}

var allModes = []Mode{ModeAll, ModeLatest, ModeGC}
