package synclog

import (
	"os"

	"golang.org/x/sys/unix"
)

// fdatasync flushes f's data (and the size, not other metadata).
func fdatasync(f *os.File) error {
	return unix.Fdatasync(int(f.Fd()))
}
