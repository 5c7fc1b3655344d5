package leveldb

import (
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
)

func TestOpenNoPath(t *testing.T) {
	_, err := Open(Options{})
	require.ErrorIs(t, err, ErrNoPath)
}

func TestOpenMissingReadOnly(t *testing.T) {
	_, err := Open(Options{DataDirectoryPath: filepath.Join(t.TempDir(), "none"), ReadOnly: true})
	require.Error(t, err)
}

func TestMarkerWritten(t *testing.T) {
	s, err := Open(Options{DataDirectoryPath: t.TempDir()})
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	v, err := s.Get(kv.MarkerKey)
	require.NoError(t, err)
	m, err := kv.DecodeMarker(v)
	require.NoError(t, err)
	require.Equal(t, kv.Marker{Version: kv.FormatVersion, Backend: BackendName}, m)
	require.ErrorIs(t, s.Put(nil, []byte{1}), kv.ErrEmptyKey)
	require.ErrorIs(t, s.PutChangeSet(map[string][]byte{"": nil}, nil), kv.ErrEmptyKey)
}
