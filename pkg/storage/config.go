package storage

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/storage/boltdb"
	"github.com/n3d-io/n3d/pkg/storage/leveldb"
)

var (
	_ Store = (*leveldb.Store)(nil)
	_ Store = (*boltdb.Store)(nil)
)

// Database types accepted in DBConfiguration.Type (neo-go's names).
const (
	LevelDB    = "leveldb"
	BoltDB     = "boltdb"
	InMemoryDB = "inmemory"
)

// ErrUnknownType is returned for a DBConfiguration.Type that is not one of
// LevelDB, BoltDB or InMemoryDB.
var ErrUnknownType = errors.New("storage: unknown database type")

// DBConfiguration selects and configures the database. Its YAML shape is
// neo-go's ApplicationConfiguration.DBConfiguration, so existing config
// files work unchanged.
type DBConfiguration struct {
	Type           string         `yaml:"Type"`
	LevelDBOptions LevelDBOptions `yaml:"LevelDBOptions"`
	BoltDBOptions  BoltDBOptions  `yaml:"BoltDBOptions"`
}

// LevelDBOptions configures the LevelDB backend (DataDirectoryPath,
// ReadOnly).
type LevelDBOptions = leveldb.Options

// BoltDBOptions configures the BoltDB backend (FilePath, ReadOnly).
type BoltDBOptions = boltdb.Options

// Validate reports configuration errors without opening anything.
func (c DBConfiguration) Validate() error {
	switch c.Type {
	case LevelDB:
		if c.LevelDBOptions.DataDirectoryPath == "" {
			return leveldb.ErrNoPath
		}
	case BoltDB:
		if c.BoltDBOptions.FilePath == "" {
			return boltdb.ErrNoPath
		}
	case InMemoryDB:
	default:
		return fmt.Errorf("%w: %q (want %s, %s or %s)", ErrUnknownType, c.Type, LevelDB, BoltDB, InMemoryDB)
	}
	return nil
}

// New opens the database cfg describes. On-disk databases are created if
// missing (unless read-only) and their format marker is checked: a
// database written by another backend, by a newer format or by another
// program is refused with ErrWrongBackend, ErrNewerFormat or ErrNoMarker.
func New(cfg DBConfiguration) (Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch cfg.Type {
	case LevelDB:
		s, err := leveldb.Open(cfg.LevelDBOptions)
		if err != nil {
			return nil, err
		}
		return s, nil
	case BoltDB:
		s, err := boltdb.Open(cfg.BoltDBOptions)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	return NewMemoryStore(), nil
}
