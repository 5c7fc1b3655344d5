package storage

import (
	"errors"
	"path/filepath"
	"syscall"
)

// SyncPutter is a Store that can write one key durably: PutSync returns
// once the value is on stable storage (fsync'd), so it survives a power
// loss, not only a crash of the process. The LevelDB and BoltDB backends
// implement it. PutSync may keep value (the backends hold it in memory
// until their next change set): the caller must not modify it afterwards.
type SyncPutter interface {
	PutSync(key, value []byte) error
}

// PutDurable stores value under key in s and, when s is a SyncPutter,
// waits until it is on stable storage. A store without durability (the
// in-memory one) gets a plain Put: what it holds dies with the process
// anyway. value may be kept: do not modify it afterwards.
func PutDurable(s Store, key, value []byte) error {
	if sp, ok := s.(SyncPutter); ok {
		return sp.PutSync(key, value)
	}
	return s.Put(key, value)
}

// IsNoSpace reports whether err is (or wraps) "no space left on device"
// or "disk quota exceeded": a write that can succeed later, once the
// operator frees space.
func IsNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// SidecarPath is where a file that belongs with the database (such as the
// saved transaction pool) is kept: next to the LevelDB directory or the
// BoltDB file, named after it with "."+name appended (./chains/privnet →
// ./chains/privnet.mempool). It is "" for the in-memory database, which
// keeps nothing across restarts.
func SidecarPath(cfg DBConfiguration, name string) string {
	var p string
	switch cfg.Type {
	case LevelDB:
		p = cfg.LevelDBOptions.DataDirectoryPath
	case BoltDB:
		p = cfg.BoltDBOptions.FilePath
	}
	if p == "" {
		return ""
	}
	return filepath.Clean(p) + "." + name
}

// WriteRecoverer is a Store that may keep failing writes after one failed
// (LevelDB's journal does) until told to recover. RecoverWrites may block
// until the cause is gone (space freed) or the store is closed.
type WriteRecoverer interface {
	RecoverWrites() error
}
