//go:build !linux

package boltdb

import "os"

// dropMapped does nothing where madvise's MADV_DONTNEED is not known to
// keep a shared file mapping's contents (only Linux is).
func dropMapped(uintptr, int64) error { return nil }

// fdatasync is f.Sync where fdatasync(2) is not known.
func fdatasync(f *os.File) error { return f.Sync() }
