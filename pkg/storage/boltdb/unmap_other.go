//go:build !linux

package boltdb

// dropMapped does nothing where madvise's MADV_DONTNEED is not known to
// keep a shared file mapping's contents (only Linux is).
func dropMapped(uintptr, int64) error { return nil }
