package boltdb

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// unmapInterval is how often, at most, PutChangeSet drops the map's
// resident pages (see maybeUnmap).
//
// bbolt reads through a shared read-only map of the whole file, and every
// page a read touches stays in the process's page tables (and in its RSS)
// until the kernel needs the memory: the kernel maps up to 16 neighbours
// of each faulting page that are already cached (fault-around), and the
// pages PutChangeSet writes with pwrite are, so under load the node's RSS
// soon holds the whole file (a neo-bench run: 184 MB of a 182 MB file).
// Those pages are clean page cache that the LevelDB backend reads with
// pread without counting them. Dropping the mappings once a second keeps
// only what the last second touched; the page cache itself stays, so a
// dropped page comes back with a minor fault, not a disk read.
const unmapInterval = time.Second

// maybeUnmap drops the resident pages of the map when unmapEvery has
// passed since the last time. Errors are not reported: the drop only
// changes what the process's RSS counts, never what a read returns.
func (s *Store) maybeUnmap() {
	if s.unmapEvery <= 0 {
		return
	}
	now := time.Now().UnixNano()
	last := s.lastUnmap.Load()
	if now-last < int64(s.unmapEvery) || !s.lastUnmap.CompareAndSwap(last, now) {
		return
	}
	_ = s.unmapResident()
}

// unmapResident drops the page-table entries of the mapped file. The read
// transaction holds bbolt's map lock, so the map cannot move meanwhile;
// concurrent readers fault their pages back in from the page cache.
func (s *Store) unmapResident() error {
	return s.db.View(func(tx *bolt.Tx) error {
		return dropMapped(s.db.Info().Data, tx.Size())
	})
}
