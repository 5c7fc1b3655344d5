// Package storage is n3d's key-value storage layer: the Store interface,
// its backends, the write-back cache the chain executes on, and the
// registry of key prefixes (prefix.go) that lays out the database.
//
// # Stores
//
//   - MemoryStore: a map; the "inmemory" database type.
//   - LevelDB (pkg/storage/leveldb) and BoltDB (pkg/storage/boltdb): on-disk
//     backends, opened through New from a DBConfiguration (neo-go's YAML
//     shape). Both keep keys verbatim in bytewise order and apply a
//     PutChangeSet atomically. A format marker (key SYSStorageFormat) is
//     written into a new database and checked at every open, so a database
//     of another backend, of a newer format or of another program is
//     refused with a clear error.
//   - MemCachedStore: a write-back cache over any Store.
//   - Snapshot: a private change layer over a parent Store, committed into
//     it or discarded.
//
// PutDurable writes one key fsync'd (SyncPutter: both backends append it
// to a side file, internal/synclog, folded into their next change set),
// for records that must survive a power loss (the chain's block log). IsNoSpace recognises a full disk; SidecarPath names
// files kept next to the database (the saved transaction pool).
// MemCachedStore.Abandon closes a cache without writing its live layer.
// WriteRecoverer (LevelDB: reopen the database, whose journal keeps failing
// after one failed write) makes a store take writes again after a full
// disk.
//
// pkg/storage/storagetest provides FaultStore, a wrapper that injects
// errors (FailWrites: every write, as a full disk does) and holds writes,
// for tests of code built on this package.
//
// No backend type appears in the API: ranges are SeekRange values, errors
// are this package's sentinels (ErrKeyNotFound, ErrClosed, ...).
//
// # Data flow
//
// The chain executes each block on a MemCachedStore over the disk store
// and each transaction in a Snapshot over that cache:
//
//	tx Snapshot ──Commit──▶ MemCachedStore live layer
//	                          │ Persist: swap in a fresh live layer
//	                          ▼
//	                        frozen layer(s) ──PutChangeSet (background)──▶ LevelDB / BoltDB
//
// Reads go top-down (Snapshot, live layer, frozen layers newest first,
// disk) and stop at the first layer that has the key or its deletion. Seek
// collects the matching keys of the in-memory layers, sorts them, and
// merges them with the disk's ordered Seek, newest layer winning.
//
// Persist never makes readers or writers wait for the disk: the frozen
// layer stays readable until the disk has it. Errors of the background
// write are kept and returned by the next Persist, PersistSync,
// WaitPersist or Close; nothing is dropped.
//
// # Slice ownership
//
// Get results must not be modified; values passed to Put and PutChangeSet
// may be kept by the store and must not be modified afterwards; k and v in
// a Seek callback are valid only during the call.
package storage
