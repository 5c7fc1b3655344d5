package boltdb

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropMapped tells the kernel the size bytes of the map at addr are not
// needed (madvise MADV_DONTNEED): for a shared file mapping this removes
// the page-table entries and leaves the file's pages in the page cache.
func dropMapped(addr uintptr, size int64) error {
	if size <= 0 {
		return nil
	}
	_, _, errno := unix.Syscall(unix.SYS_MADVISE, addr, uintptr(size), unix.MADV_DONTNEED)
	if errno != 0 {
		return errno
	}
	return nil
}

// fdatasync flushes f's data (and the size, not other metadata).
func fdatasync(f *os.File) error {
	return unix.Fdatasync(int(f.Fd()))
}
