package storage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
)

// diskConfigs returns a LevelDB and a BoltDB configuration in dir.
func diskConfigs(dir string) []DBConfiguration {
	return []DBConfiguration{
		{Type: LevelDB, LevelDBOptions: LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "level")}},
		{Type: BoltDB, BoltDBOptions: BoltDBOptions{FilePath: filepath.Join(dir, "sub", "db.bolt")}},
	}
}

func readOnly(c DBConfiguration) DBConfiguration {
	c.LevelDBOptions.ReadOnly = true
	c.BoltDBOptions.ReadOnly = true
	return c
}

func TestConfigValidate(t *testing.T) {
	require.ErrorIs(t, DBConfiguration{Type: "rocksdb"}.Validate(), ErrUnknownType)
	require.ErrorIs(t, DBConfiguration{}.Validate(), ErrUnknownType)
	require.Error(t, DBConfiguration{Type: LevelDB}.Validate())
	require.Error(t, DBConfiguration{Type: BoltDB}.Validate())
	require.NoError(t, DBConfiguration{Type: InMemoryDB}.Validate())
	_, err := New(DBConfiguration{Type: "rocksdb"})
	require.ErrorIs(t, err, ErrUnknownType)
	s, err := New(DBConfiguration{Type: InMemoryDB})
	require.NoError(t, err)
	require.IsType(t, &MemoryStore{}, s)
}

func TestOpenReopenReadOnly(t *testing.T) {
	for _, cfg := range diskConfigs(t.TempDir()) {
		t.Run(cfg.Type, func(t *testing.T) {
			_, err := New(readOnly(cfg))
			require.Error(t, err, "read-only open of a missing database")

			s, err := New(cfg)
			require.NoError(t, err)
			require.NoError(t, s.Put([]byte("k"), []byte("v")))
			require.NoError(t, s.Close())

			s, err = New(cfg)
			require.NoError(t, err, "reopen")
			v, err := s.Get([]byte("k"))
			require.NoError(t, err)
			require.Equal(t, []byte("v"), v)
			require.NoError(t, s.Close())

			s, err = New(readOnly(cfg))
			require.NoError(t, err)
			v, err = s.Get([]byte("k"))
			require.NoError(t, err)
			require.Equal(t, []byte("v"), v)
			require.ErrorIs(t, s.Put([]byte("k"), []byte("w")), ErrReadOnly)
			require.ErrorIs(t, s.Delete([]byte("k")), ErrReadOnly)
			require.ErrorIs(t, s.PutChangeSet(map[string][]byte{"k": nil}, nil), ErrReadOnly)
			require.NoError(t, s.Close())
		})
	}
}

// rewriteMarker opens cfg, lets f change the raw keys, and closes it.
func rewriteMarker(t *testing.T, cfg DBConfiguration, f func(s Store)) {
	s, err := New(cfg)
	require.NoError(t, err)
	f(s)
	require.NoError(t, s.Close())
}

func TestOpenRefusesForeignDatabases(t *testing.T) {
	for _, cfg := range diskConfigs(t.TempDir()) {
		t.Run(cfg.Type, func(t *testing.T) {
			otherName := BoltDB
			if cfg.Type == BoltDB {
				otherName = LevelDB
			}
			cases := []struct {
				name string
				edit func(s Store)
				want error
			}{
				{"other backend", func(s Store) {
					require.NoError(t, s.Put(kv.MarkerKey, kv.Marker{Version: FormatVersion, Backend: otherName}.Bytes()))
				}, ErrWrongBackend},
				{"newer format", func(s Store) {
					require.NoError(t, s.Put(kv.MarkerKey, kv.Marker{Version: FormatVersion + 1, Backend: cfg.Type}.Bytes()))
				}, ErrNewerFormat},
				{"bad marker", func(s Store) {
					require.NoError(t, s.Put(kv.MarkerKey, []byte{1, 2, 3}))
				}, ErrBadMarker},
				{"no marker", func(s Store) {
					require.NoError(t, s.Delete(kv.MarkerKey))
					require.NoError(t, s.Put([]byte{byte(SYSVersion)}, []byte("0.1.0")))
				}, ErrNoMarker},
			}
			for _, c := range cases {
				rewriteMarker(t, cfg, c.edit)
				_, err := New(cfg)
				require.ErrorIs(t, err, c.want, c.name)
				_, err = New(readOnly(cfg))
				require.ErrorIs(t, err, c.want, c.name+" (read-only)")
				// Repair for the next case.
				rewriteRaw(t, cfg)
			}
		})
	}
}

// rewriteRaw resets the database behind cfg to a valid marker, bypassing
// the marker check by opening the backend's raw files afresh.
func rewriteRaw(t *testing.T, cfg DBConfiguration) {
	switch cfg.Type {
	case LevelDB:
		require.NoError(t, os.RemoveAll(cfg.LevelDBOptions.DataDirectoryPath))
	case BoltDB:
		require.NoError(t, os.Remove(cfg.BoltDBOptions.FilePath))
	}
	s, err := New(cfg)
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

func TestOpenOtherBackendFiles(t *testing.T) {
	dir := t.TempDir()
	cfgs := diskConfigs(dir)
	for _, c := range cfgs {
		s, err := New(c)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	level, bolt := cfgs[0], cfgs[1]
	_, err := New(DBConfiguration{Type: BoltDB, BoltDBOptions: BoltDBOptions{FilePath: level.LevelDBOptions.DataDirectoryPath}})
	require.ErrorIs(t, err, ErrWrongBackend)
	_, err = New(DBConfiguration{Type: LevelDB, LevelDBOptions: LevelDBOptions{DataDirectoryPath: bolt.BoltDBOptions.FilePath}})
	require.ErrorIs(t, err, ErrWrongBackend)
}

func TestOpenCorruptBolt(t *testing.T) {
	file := filepath.Join(t.TempDir(), "junk.bolt")
	require.NoError(t, os.WriteFile(file, make([]byte, 8192), 0o600))
	_, err := New(DBConfiguration{Type: BoltDB, BoltDBOptions: BoltDBOptions{FilePath: file}})
	require.ErrorIs(t, err, ErrCorrupted)
}

func TestOpenLockedBolt(t *testing.T) {
	cfg := diskConfigs(t.TempDir())[1]
	s, err := New(cfg)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	_, err = New(cfg)
	require.Error(t, err, "a second writer must not open the same file")
}
